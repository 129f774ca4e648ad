import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { STATE_LABELS } from './outcome';

const TONE: Record<IntentView['state'], string> = {
  created: 'info', sent: 'info', accepted: 'ok', succeeded: 'ok', rejected: 'bad', refused: 'bad', failed: 'bad', outcome_unknown: 'warn',
};

/** A refund state as a coloured badge with words (colour is never the only signal). */
export function StateBadge({ state }: { state: IntentView['state'] }) {
  return <span className={`rd-badge rd-badge-${TONE[state]}`} data-state={state}>{STATE_LABELS[state]}</span>;
}
