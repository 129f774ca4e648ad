import type { PaymentTimeline } from '../../services/timeline/service';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → a payment's timeline and notes. */
export function timelineHandlers(
  timeline: PaymentTimeline,
): Pick<HandlerMap, 'payments.timeline' | 'payments.addNote'> {
  return {
    'payments.timeline': ({ profileId, transactionNo }) => timeline.timeline(profileId, transactionNo),
    'payments.addNote': ({ profileId, transactionNo, text }) =>
      timeline.addNote(profileId, transactionNo, text),
  };
}
