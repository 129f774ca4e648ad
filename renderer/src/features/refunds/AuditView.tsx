import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useBridge } from '../../lib/bridge';
import { useListScope } from '../profiles/list-scope';
import { AllProfilesToggle, ProfileCell } from '../profiles/ProfileScope';
import { auditListQuery } from './queries';
import { AUDIT_OUTCOME_LABELS } from '../../../../shared/domain/labels';
import { exportCommands, useCommands } from '../../app/nav';
import { useFormat } from '../preferences/use-prefs';
import { ListToolbar } from './ListToolbar';
import { exportAudit } from './exports';
import { type AuditEntry, type AuditFilters, currenciesOf, filterAudit } from './filters';
import { reasonLabel } from './format';
import { StateBadge } from './StateBadge';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';

const OUTCOMES: ReadonlyArray<AuditEntry['outcome']> = [
  'accepted',
  'succeeded',
  'rejected',
  'refused',
  'outcome_unknown',
  'failed',
  'closed_not_sent',
  'found_after_close',
  'approval_requested',
  'approved',
  'approval_declined',
  'approval_cancelled',
  'approval_expired',
];

/** The badge colour of an audit outcome: the state it left the refund in (its words are the audit's). */
function auditBadgeState(outcome: AuditEntry['outcome']): IntentView['state'] {
  switch (outcome) {
    case 'closed_not_sent':
      return 'refused';
    // Team mode: a desk's late answer that disagrees (conflicting_answer) needs a person, as an unknown does.
    case 'found_after_close':
    case 'conflicting_answer':
      return 'outcome_unknown';
    case 'imported':
      return 'accepted';
    case 'approval_requested':
      return 'awaiting_approval';
    case 'approval_declined':
      return 'declined';
    case 'approval_cancelled':
      return 'cancelled';
    case 'approval_expired':
      return 'expired';
    // A batch's own entries (its rows' refunds have theirs): shown plainly.
    case 'batch_started':
    case 'batch_finished':
      return 'accepted';
    case 'batch_row_not_sent':
      return 'refused';
    default:
      return outcome;
  }
}

// An audit entry records one moment, so "accepted" is not "accepted · not final yet" as in the live list.
const AUDIT_LABELS = AUDIT_OUTCOME_LABELS as Readonly<Record<AuditEntry['outcome'], string>>;

/**
 * The audit log, read-only: main owns it; the renderer can only list, filter and export it. The active
 * profile's entries by default; "All profiles" shows every profile's, with the Profile column to tell
 * them apart (the same choice as the Refunds list and the reconciliation runs).
 */
export function AuditView() {
  const bridge = useBridge();
  const listScope = useListScope();
  const { allProfiles, scope } = listScope;
  const audit = useQuery({ ...auditListQuery(bridge, scope), enabled: listScope.ready });
  const [filters, setFilters] = useState<AuditFilters>({ outcome: 'all', currency: 'all', text: '' });
  const rows = useMemo(() => filterAudit(audit.data ?? [], filters), [audit.data, filters]);
  const currencies = useMemo(() => currenciesOf(audit.data ?? []), [audit.data]);
  const f = useFormat();
  useCommands(
    'audit',
    exportCommands({
      id: 'audit.export',
      what: 'the audit log',
      group: 'Audit',
      empty: rows.length === 0 ? 'No entries shown' : undefined,
      run: (kind) => exportAudit(kind, rows, f),
    }),
  );

  return (
    <section className="rd-view" aria-label="Audit log">
      <ListToolbar
        label="Filter the audit log"
        currencies={currencies}
        currency={filters.currency}
        onCurrency={(currency) => setFilters({ ...filters, currency })}
        text={filters.text}
        onText={(text) => setFilters({ ...filters, text })}
        placeholder="Transaction, refund no., operator, code"
        shown={rows.length}
        total={audit.data?.length ?? 0}
        onExport={(kind) => void exportAudit(kind, rows, f)}
      >
        <label>
          Outcome{' '}
          <select
            value={filters.outcome}
            onChange={(e) => setFilters({ ...filters, outcome: e.target.value as AuditFilters['outcome'] })}
          >
            <option value="all">All outcomes</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {AUDIT_LABELS[o]}
              </option>
            ))}
          </select>
        </label>
        <AllProfilesToggle state={listScope} />
      </ListToolbar>
      {audit.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load the audit log: {audit.error.message}
        </p>
      )}
      <div className="rd-table-wrap" role="region" aria-label="Audit log entries" tabIndex={0}>
        <table className="rd-table" data-testid="audit-table">
          <thead>
            <tr>
              <th scope="col">Time ({f.zoneLabel})</th>
              <th scope="col">Operator</th>
              {allProfiles && <th scope="col">Profile</th>}
              <th scope="col">Transaction</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Reason</th>
              <th scope="col">Outcome</th>
              <th scope="col">Service answer</th>
              <th scope="col">Refund no.</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e, n) => (
              <tr
                key={`${e.at}-${e.intentId}-${e.outcome}-${n}`}
                className={e.outcome === 'outcome_unknown' ? 'rd-row-unknown' : undefined}
              >
                <td className="nowrap">{f.dateTimeSeconds(e.at)}</td>
                <td>{e.operator || '—'}</td>
                {allProfiles && <ProfileCell name={e.profileName} environment={e.environment} />}
                <td className="mono">{e.transactionNo}</td>
                <td className="num">{f.amountCode(e.amountMinor, e.currency)}</td>
                <td>
                  {reasonLabel(e.reasonCode)}
                  {e.reasonNote ? <div className="small muted">{e.reasonNote}</div> : null}
                </td>
                <td>
                  <StateBadge state={auditBadgeState(e.outcome)} label={AUDIT_LABELS[e.outcome]} />
                </td>
                <td>{[e.retCode, e.retMsg].filter(Boolean).join(' · ') || e.detail || '—'}</td>
                <td className="mono">{e.refundTransactionNo ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {audit.isSuccess && rows.length === 0 && (
          <p className="rd-empty">
            {audit.data.length === 0 ? 'No refund attempts recorded yet.' : 'Nothing matches these filters.'}
          </p>
        )}
        {audit.isPending && (
          <p className="rd-empty" role="status">
            Loading the audit log…
          </p>
        )}
      </div>
      <p className="muted small">
        Read-only. Times are in {f.zoneSentence}; exports use the same zone and name it.
      </p>
    </section>
  );
}
