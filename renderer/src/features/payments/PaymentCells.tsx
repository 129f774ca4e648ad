import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import { useFormat } from '../preferences/use-prefs';
import { PaymentBadge } from './PaymentBadge';

/** A payment's reference (opens it), a line about it, its amount and its state: cells of a table row. */
export function PaymentCells(props: {
  payment: PaymentView;
  about: string;
  pressed?: boolean;
  onOpen: (id: string) => void;
}) {
  const p = props.payment;
  const f = useFormat();
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
      <td className="num">{f.amountCode(p.amountMinor, p.currency)}</td>
      <td>
        <PaymentBadge state={p.state} />
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
