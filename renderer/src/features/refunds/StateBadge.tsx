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
  awaiting_approval: 'info',
  approved: 'info',
  declined: 'bad',
  cancelled: 'bad',
  expired: 'bad',
};

/**
 * A refund state as a coloured badge with words (colour is never the only signal); `label` overrides the
 * words and `tone` the colour (a refund closed as not sent that the service has after all is a warning).
 */
export function StateBadge({
  state,
  label,
  tone,
}: {
  state: IntentView['state'];
  label?: string;
  tone?: 'ok' | 'info' | 'warn' | 'bad';
}) {
  return (
    <span className={`rd-badge rd-badge-${tone ?? TONE[state]}`} data-state={state}>
      {label ?? STATE_LABELS[state]}
    </span>
  );
}
