import type { RecordedEnvironment } from '../../../../shared/domain/profile';
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import type { Output } from '../../../../shared/ipc/contract';
import type { TimelineEntry } from '../../../../shared/ipc/contract/timeline';
import type { Clock, Logger } from '../ports';
import type { PaymentTimelineStore, TimelineKey, TimelineRow } from './port';

/** The account and person a call acts as (the profile's, resolved by the composition root). */
export interface TimelineContext {
  profileId: string;
  profileName: string;
  environment: RecordedEnvironment;
  merchantNo: string;
  storeNo: string;
  operator: string;
}

const words = (s: string) => s.replace(/[._]/g, ' ');

const LOOKUP_WORDS: Record<string, string> = {
  transactionNo: 'transaction number',
  refundTransactionNo: 'refund number',
  reference: 'reference',
  refundReference: 'refund reference',
};

/** One stored row in the words a clerk reads; who did it is a person, the service or this desk. */
function entryOf(r: TimelineRow): TimelineEntry {
  switch (r.source) {
    case 'audit': {
      const action = typeof r.data['action'] === 'string' ? r.data['action'] : undefined;
      const what =
        r.kind === 'refund'
          ? `Refund ${words(r.outcome)}`
          : `Payment ${action ? `${words(action.replace(/^payment\./, ''))} ` : ''}${words(r.outcome)} (this desk)`;
      const detail = [r.retMsg, r.detail].filter(Boolean).join(' — ');
      return {
        at: r.at,
        source: r.kind,
        what,
        person: r.operator,
        automatic: false,
        ...(r.amountMinor !== undefined ? { amountMinor: r.amountMinor } : {}),
        ...(r.currency ? { currency: r.currency } : {}),
        ...(detail ? { detail } : {}),
      };
    }
    case 'check':
      return {
        at: r.at,
        source: r.kind,
        what: `${r.kind === 'refund' ? 'Refund' : 'Payment'} checked at the service: ${r.found ? 'found' : 'not found'}`,
        person: 'Refund Desk (automatic check)',
        automatic: true,
        ...(r.note ? { detail: r.note } : {}),
      };
    case 'ipn':
      return {
        at: r.at,
        source: 'ipn',
        what:
          r.kind === 'refund'
            ? `Notification: refund${r.refundTransactionNo ? ` ${r.refundTransactionNo}` : ''} ${r.status}`
            : `Notification: payment ${r.status}`,
        person: 'The payment service',
        automatic: true,
      };
    case 'lookup':
      return {
        at: r.at,
        source: 'lookup',
        what: `Looked up by ${LOOKUP_WORDS[r.matchedBy] ?? words(r.matchedBy)}`,
        person: r.operator,
        automatic: false,
      };
    case 'note':
      return { at: r.at, source: 'note', what: 'Note', person: r.operator, automatic: false, detail: r.text };
  }
}

/**
 * A payment's timeline (what main keeps about it, newest first) and notes on it. A note is kept in the
 * database with its audit entry (kind payment, action payment.note), in one unit of work.
 */
export function createPaymentTimeline(deps: {
  store: PaymentTimelineStore;
  clock: Clock;
  log: Logger;
  context: (profileId: string) => TimelineContext;
  /** Set when the database could not be opened: a note would be kept in memory only, so it is refused. */
  unreadable: () => string | undefined;
}) {
  const keyOf = (c: TimelineContext, transactionNo: string): TimelineKey => ({
    profileId: c.profileId,
    environment: c.environment,
    merchantNo: c.merchantNo,
    storeNo: c.storeNo,
    transactionNo,
  });
  return {
    async timeline(profileId: string, transactionNo: string): Promise<Output<'payments.timeline'>> {
      const rows = await deps.store.rows(keyOf(deps.context(profileId), transactionNo));
      // Newest first; at equal times the later-kept row first (a stable sort of the reversed list).
      const entries = rows
        .map(entryOf)
        .reverse()
        .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return { profileId, transactionNo, entries };
    },
    /**
     * Keeps a look-up that found the payment. Never fails the look-up: the payment was found whether
     * or not this could be kept (a database that cannot be written is reported by health).
     */
    async recordLookup(profileId: string, transactionNo: string, matchedBy: string): Promise<void> {
      if (deps.unreadable()) return;
      try {
        const c = deps.context(profileId);
        await deps.store.recordLookup({
          ...keyOf(c, transactionNo),
          at: new Date(deps.clock.now()).toISOString(),
          operator: c.operator,
          matchedBy,
        });
      } catch (e) {
        deps.log.warn('timeline.lookup_not_kept', { error: e instanceof Error ? e.message : String(e) });
      }
    },
    async addNote(
      profileId: string,
      transactionNo: string,
      text: string,
    ): Promise<Output<'payments.addNote'>> {
      const broken = deps.unreadable();
      if (broken)
        throw new AppError('unavailable', `The note was not kept: the database cannot be read (${broken}).`);
      const c = deps.context(profileId);
      const now = deps.clock.now();
      const at = new Date(now).toISOString();
      const id = newSortableId('NT', now);
      await deps.store.addNote(
        { ...keyOf(c, transactionNo), id, at, operator: c.operator, text },
        {
          kind: 'payment',
          at,
          outcome: 'noted',
          operator: c.operator,
          profileId: c.profileId,
          profileName: c.profileName,
          environment: c.environment,
          subjectId: id,
          transactionNo,
          detail: text,
          data: { action: 'payment.note' },
        },
      );
      return { id, at, operator: c.operator };
    },
  };
}
export type PaymentTimeline = ReturnType<typeof createPaymentTimeline>;
