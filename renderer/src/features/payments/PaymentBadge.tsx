import type { PaymentState } from '../../../../shared/ipc/contract/payments';
import { STATE_LABELS, STATE_TONES } from './format';

/** A payment's state as a coloured badge with words (colour is never the only signal). */
export function PaymentBadge({ state }: { state: PaymentState }) {
  return (
    <span className={`rd-badge rd-badge-${STATE_TONES[state]}`} data-state={state}>
      {STATE_LABELS[state]}
    </span>
  );
}
