import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { transactionStatusLabel } from '../../../../shared/domain/labels';
import { VirtualRowsTable } from '../../lib/ui/VirtualRowsTable';
import type { Formatters } from '../preferences/format';
import { useFormat } from '../preferences/use-prefs';

const HEAD = (
  <>
    <th className="num">Line</th>
    <th>Outcome</th>
    <th>Transaction no.</th>
    <th className="num">Ledger</th>
    <th className="num">Service</th>
    <th>Service status</th>
    <th>Detail</th>
  </>
);

function Cells({ i, f }: { i: ReconItem; f: Formatters }) {
  const id =
    i.ledger?.transactionNo ??
    i.unusable?.fields?.transactionNo ??
    i.service?.transactionNo ??
    i.ledger?.reference ??
    i.unusable?.fields?.reference;
  const amount = i.ledger
    ? f.money(i.ledger.amountMinor, i.ledger.currency)
    : (i.unusable?.fields?.amount ?? '—');
  return (
    <>
      <td className="num">{i.line ?? '—'}</td>
      <td>
        <span className={`outcome outcome-${i.outcome}`}>{OUTCOME_LABELS[i.outcome]}</span>
      </td>
      <td className="mono">{id ?? '—'}</td>
      <td className="num">{amount}</td>
      <td className="num">
        {i.refund
          ? `refund ${f.money(i.refund.amountMinor, i.refund.currency)}`
          : i.service
            ? f.money(i.service.amountMinor, i.service.currency)
            : '—'}
      </td>
      <td title={i.service ? `Service status: ${i.service.status}` : undefined}>
        {i.service ? transactionStatusLabel(i.service.status) : '—'}
      </td>
      <td className="detail">
        {i.ledger?.keyNote ? (
          <span className="muted">Matched by reference: the transaction number cannot be used. </span>
        ) : null}
        {i.detail}
      </td>
    </>
  );
}

/** Every filtered ledger row, virtualised (VirtualRowsTable): a 100k-row month-end keeps a few dozen in the DOM. */
export function ReconRowsTable({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly ReconItem[];
  selected?: ReconItem;
  onSelect: (row: ReconItem) => void;
}) {
  const f = useFormat();
  return (
    <VirtualRowsTable
      rows={rows}
      rowHeight={33}
      columns={7}
      className="recon-table-wrap"
      label="Ledger rows"
      testId="recon-items"
      head={HEAD}
      cells={(i) => <Cells i={i} f={f} />}
      rowAttributes={(i) => ({
        className: selected === i ? 'selected' : undefined,
        onClick: () => onSelect(i),
        tabIndex: 0,
        onKeyDown: (e) => e.key === 'Enter' && onSelect(i),
      })}
    />
  );
}
