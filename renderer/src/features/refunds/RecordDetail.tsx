import {
  RECORD_STATUS_LABELS,
  recordStatus,
  type RefundRecordRow,
} from '../../../../shared/domain/refund-record';
import type { Formatters } from '../preferences/format';
import { closedLabel, describeIntent, MONEY_MOVED_TEXT } from './outcome';
import { checkedText, describeServiceRefund } from './record-words';

/** The outcome card of one row: what happened, whether money moved, when checked, what to do next. */
export function RecordDetail(p: {
  row: RefundRecordRow;
  f: Formatters;
  fetchedAt: string | undefined;
  checking: boolean;
  onCheckAgain(id: string): void;
  onOpenPayment(transactionNo: string): void;
  onClose(): void;
}) {
  const { row, f } = p;
  const o = row.intent ? describeIntent(row.intent, f) : describeServiceRefund(row, f);
  return (
    <section
      className={`rd-outcome rd-outcome-${o.tone} rd-record-detail`}
      aria-label="Refund details"
      data-testid="refund-record-detail"
    >
      <h3>{o.title}</h3>
      <p className={`rd-moved rd-moved-${o.moneyMoved}`}>{MONEY_MOVED_TEXT[o.moneyMoved]}</p>
      <p>{o.body}</p>
      <p className="small muted" data-testid="record-checked">
        {checkedText(row, f, p.fetchedAt)}
      </p>
      <p className="muted">{o.next}</p>
      <p className="small">
        Status: {(row.intent && closedLabel(row.intent)) ?? RECORD_STATUS_LABELS[recordStatus(row)]}
        {row.refundReference ? ` · reference ${row.refundReference}` : ''}
      </p>
      <div className="rd-actions">
        <button type="button" onClick={() => p.onOpenPayment(row.transactionNo)}>
          Open payment
        </button>
        {row.intent?.state === 'outcome_unknown' && (
          <button
            type="button"
            disabled={p.checking}
            onClick={() => row.intent && p.onCheckAgain(row.intent.id)}
          >
            {p.checking ? 'Checking…' : 'Check again'}
          </button>
        )}
        <button type="button" onClick={p.onClose}>
          Close details
        </button>
      </div>
    </section>
  );
}
