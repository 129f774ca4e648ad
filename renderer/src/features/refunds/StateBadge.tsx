import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { STATE_LABELS } from './outcome';

const TONE: Record<IntentView['state'], string> = {
  sending: 'info',
  accepted: 'info',
  succeeded: 'ok',
  rejected: 'bad',
  refused: 'bad',
  failed: 'bad',
  outcome_unknown: 'warn',
};

/** A refund state as a coloured badge with words (colour is never the only signal); `label` overrides the words. */
export function StateBadge({ state, label }: { state: IntentView['state']; label?: string }) {
  return (
    <span className={`rd-badge rd-badge-${TONE[state]}`} data-state={state}>
      {label ?? STATE_LABELS[state]}
    </span>
  );
}
