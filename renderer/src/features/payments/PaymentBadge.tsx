import { statusWithRefunds } from '../../../../shared/domain/labels';
import type { RefundedState } from '../../../../shared/domain/transaction';
import type { PaymentState } from '../../../../shared/ipc/contract/payments';
import { STATE_LABELS, STATE_TONES } from './format';

/**
 * A payment's state as a coloured badge with words (colour is never the only signal), with its refunds
 * beside it in the Transactions screen's words ("Paid · Partially refunded").
 */
export function PaymentBadge({
  state,
  refunded,
}: {
  state: PaymentState;
  refunded?: RefundedState | undefined;
}) {
  return (
    <span
      className={`rd-badge rd-badge-${STATE_TONES[state]}`}
      data-state={state}
      {...(refunded ? { 'data-refunded': refunded } : {})}
    >
      {statusWithRefunds(STATE_LABELS[state], refunded)}
    </span>
  );
}
