import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import { amountText } from './format';
import { PaymentBadge } from './PaymentBadge';

/**
 * A payment's reference (opens it), a line about it, its amount (with what was refunded and what remains,
 * as Transactions says) and its state: cells of a table row.
 */
export function PaymentCells(props: {
  payment: PaymentRow;
  about: string;
  pressed?: boolean;
  onOpen: (id: string) => void;
}) {
  const p = props.payment;
  const r = p.refundSummary;
  return (
    <>
      <td>
        <button
          type="button"
          className="link mono"
          aria-pressed={props.pressed}
          onClick={(e) => {
            e.stopPropagation();
            props.onOpen(p.id);
          }}
        >
          {p.reference}
        </button>
        <div className="small muted">{props.about}</div>
      </td>
      <td className="num">
        {amountText(p.amountMinor, p.currency)}
        {r && r.refundedMinor > 0 && (
          <div className="small muted" data-testid="payment-refunds">
            Refunded {amountText(r.refundedMinor, p.currency)}
            {r.remainingMinor !== undefined
              ? ` · refundable ${amountText(r.remainingMinor, p.currency)}`
              : ''}
          </div>
        )}
      </td>
      <td>
        <PaymentBadge state={p.state} refunded={r?.refunded} />
      </td>
    </>
  );
}

/** The header cells that go with PaymentCells. */
export function PaymentHeadCells() {
  return (
    <>
      <th scope="col">Payment</th>
      <th scope="col" className="num">
        Amount
      </th>
      <th scope="col">State</th>
    </>
  );
}
