import type { RecordedEnvironment } from '../../../../shared/domain/profile';
import { memo } from 'react';
import {
  RECORD_STATUS_LABELS,
  recordStatus,
  type RecordSort,
  type RefundRecordRow,
} from '../../../../shared/domain/refund-record';
import { closedThenFound } from '../../../../shared/domain/refund-intent';
import type { Formatters } from '../preferences/format';
import { ProfileCell } from '../profiles/ProfileScope';
import { closeButtonId, closeOffer } from './close-words';
import { reasonLabel } from './format';
import { closedLabel } from './outcome';
import { StateBadge } from './StateBadge';

const TONE = { completed: 'ok', pending: 'info', failed: 'bad', unknown: 'warn', not_sent: 'bad' } as const;

/** The status cell: one word for every refund, the desk's own state and the evidence where it has them. */
function StatusCell({ row, f }: { row: RefundRecordRow; f: Formatters }) {
  const status = recordStatus(row);
  const i = row.intent;
  return (
    <>
      {i ? (
        <StateBadge
          state={i.state}
          {...(closedLabel(i) ? { label: closedLabel(i) } : {})}
          {...(closedThenFound(i) ? { tone: 'warn' as const } : {})}
        />
      ) : (
        <span className={`rd-badge rd-badge-${TONE[status]}`} data-status={status}>
          {RECORD_STATUS_LABELS[status]}
        </span>
      )}
      {row.serviceStatus && i && <div className="small muted">At the service: {row.serviceStatus}</div>}
      {i?.closedNotSent && (
        <div className="small muted" data-testid="closed-not-sent">
          Closed as not sent by {i.closedNotSent.by || 'an unnamed operator'},{' '}
          <span className="num">{f.dateTime(i.closedNotSent.at)}</span>
        </div>
      )}
      {i?.retMsg && (
        <div className="small muted">
          {i.retMsg}
          {i.retCode ? ` (${i.retCode})` : ''}
        </div>
      )}
      {i && closedThenFound(i) && i.detail && (
        <div className="small" data-testid="found-after-close">
          {i.detail}
        </div>
      )}
      {/* Why an open refund is still open: the last check's evidence, or why it cannot be checked. */}
      {i && (i.state === 'outcome_unknown' || i.state === 'sending') && (i.lastCheck || i.detail) && (
        <div className="small muted" data-testid="intent-evidence">
          {i.lastCheck ? `Checked ${f.dateTimeSeconds(i.lastCheck.at)}: ${i.lastCheck.note}` : i.detail}
        </div>
      )}
    </>
  );
}

/**
 * Where a refund was made: at this desk, at another desk of the team (the database's stamp, e.g. the
 * CLI's `cli@host`), or elsewhere (only the service lists it).
 */
function WhereCell({ row }: { row: RefundRecordRow }) {
  if (row.madeHere) return <span className="rd-badge rd-badge-info">Made here</span>;
  const desk = row.intent?.author?.desk;
  if (!desk) return <>Elsewhere</>;
  return (
    <>
      Desk <span className="mono">{desk}</span>
    </>
  );
}

/**
 * Who made it: on a team database the login it stamped (the operator name is the desk's own text —
 * "cli" from the command line — so it is shown beside the login only when it says something else).
 */
function OperatorCell({ i }: { i: RefundRecordRow['intent'] }) {
  if (!i) return <>—</>;
  const person = i.author?.person;
  if (!person) return <>{i.operator || '—'}</>;
  return (
    <>
      {person}
      {i.operator && i.operator !== person && <div className="small muted">recorded as {i.operator}</div>}
    </>
  );
}

/** Whose refund a row is, for the Profile column. */
export type ProfileOf = (row: RefundRecordRow) => { name: string; environment?: RecordedEnvironment };

const Row = memo(function Row(p: {
  row: RefundRecordRow;
  f: Formatters;
  profileOf: ProfileOf | undefined;
  selected: boolean;
  checking: boolean;
  nowMs: number;
  onSelect(key: string): void;
  onOpenPayment(transactionNo: string): void;
  onCheckAgain(id: string): void;
  onCloseNotSent(key: string): void;
}) {
  const { row, f } = p;
  const i = row.intent;
  const offer = i ? closeOffer(i, p.nowMs, f) : ({ kind: 'none' } as const);
  return (
    <tr
      className={i?.state === 'outcome_unknown' ? 'rd-row-unknown' : undefined}
      data-intent-id={i?.id}
      data-refund-key={row.key}
      data-made-here={row.madeHere ? 'yes' : 'no'}
      aria-selected={p.selected}
      onClick={() => p.onSelect(row.key)}
    >
      <td className="nowrap">{row.at ? f.dateTimeSeconds(row.at) : '—'}</td>
      {p.profileOf && <ProfileCell {...p.profileOf(row)} />}
      <td className="mono">
        <button
          type="button"
          className="link mono"
          title="Open this payment in Transactions"
          onClick={(e) => {
            e.stopPropagation();
            p.onOpenPayment(row.transactionNo);
          }}
        >
          {row.transactionNo}
        </button>
      </td>
      <td className="num">{f.amountCode(row.amountMinor, row.currency)}</td>
      <td>
        <StatusCell row={row} f={f} />
      </td>
      <td className="mono">{row.refundTransactionNo ?? '—'}</td>
      <td>
        <WhereCell row={row} />
      </td>
      <td>
        <OperatorCell i={i} />
      </td>
      <td>
        {i ? reasonLabel(i.reasonCode) : '—'}
        {i?.reasonNote ? <div className="small muted">{i.reasonNote}</div> : null}
      </td>
      {/* Actions do not select the row: a click in a confirmation form must not re-render it away. */}
      <td onClick={(e) => e.stopPropagation()}>
        <button type="button" onClick={() => p.onSelect(row.key)} aria-label={`Details of refund ${row.key}`}>
          Details
        </button>
        {i?.state === 'outcome_unknown' && (
          <button type="button" onClick={() => p.onCheckAgain(i.id)} disabled={p.checking}>
            Check again
          </button>
        )}
        {offer.kind === 'ready' && i && (
          <button
            type="button"
            className="link"
            id={closeButtonId(i.id)}
            onClick={() => p.onCloseNotSent(row.key)}
          >
            Close as not sent…
          </button>
        )}
        {offer.kind === 'later' && (
          // Not offered before main's rule allows it: when it will be, instead.
          <div className="small muted rd-close-later" data-testid="close-later">
            Close as not sent: {offer.text}
          </div>
        )}
      </td>
    </tr>
  );
});

function SortHeader(p: {
  label: string;
  by: RecordSort['by'];
  sort: RecordSort;
  onSort(s: RecordSort): void;
  className?: string;
}) {
  const active = p.sort.by === p.by;
  const next: RecordSort = { by: p.by, dir: active && p.sort.dir === 'desc' ? 'asc' : 'desc' };
  return (
    <th
      scope="col"
      className={p.className}
      aria-sort={active ? (p.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="rd-sort" onClick={() => p.onSort(next)}>
        {p.label}
        <span aria-hidden="true">{active ? (p.sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** Every refund of the profile's cached payments (or of every profile), made here or elsewhere, sortable. */
export function RecordTable(p: {
  rows: readonly RefundRecordRow[];
  f: Formatters;
  sort: RecordSort;
  onSort(s: RecordSort): void;
  selectedKey: string | undefined;
  /** The intent id a Check again is running for, if any. */
  checkingId: string | undefined;
  /** The time "Close as not sent" offers are judged at (re-read while the list is shown). */
  nowMs: number;
  onSelect(key: string): void;
  onOpenPayment(transactionNo: string): void;
  onCheckAgain(id: string): void;
  /** Opens the "close as not sent" panel for this row. */
  onCloseNotSent(key: string): void;
  /** Set when every profile's refunds are shown: the Profile column says whose each row is. */
  profileOf?: ProfileOf;
}) {
  return (
    <table className="rd-table" data-testid="refunds-table">
      <thead>
        <tr>
          <SortHeader label={`Made (${p.f.zoneLabel})`} by="at" sort={p.sort} onSort={p.onSort} />
          {p.profileOf && <th scope="col">Profile</th>}
          <th scope="col">Payment</th>
          <SortHeader label="Amount" by="amount" sort={p.sort} onSort={p.onSort} className="num" />
          <SortHeader label="Status" by="status" sort={p.sort} onSort={p.onSort} />
          <th scope="col">Refund no.</th>
          <th scope="col">Where</th>
          <th scope="col">Operator</th>
          <th scope="col">Reason</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row) => (
          <Row
            key={row.key}
            row={row}
            f={p.f}
            profileOf={p.profileOf}
            selected={row.key === p.selectedKey}
            checking={row.intent !== undefined && row.intent.id === p.checkingId}
            nowMs={p.nowMs}
            onSelect={p.onSelect}
            onOpenPayment={p.onOpenPayment}
            onCheckAgain={p.onCheckAgain}
            onCloseNotSent={p.onCloseNotSent}
          />
        ))}
      </tbody>
    </table>
  );
}
