import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { INTENT_STATES } from '../../../../shared/ipc/contract/refunds';
import { useBridge } from '../../lib/bridge';
import { useRefundDialog } from './dialog-context';
import { exportCommands, useCommands } from '../../app/nav';
import { useFormat } from '../preferences/use-prefs';
import { ListToolbar } from './ListToolbar';
import { exportRefunds } from './exports';
import { currenciesOf, filterIntents, type IntentFilters } from './filters';
import { amountText, reasonLabel } from './format';
import { useCheckAgain } from './mutations';
import { CloseNotSent } from './CloseNotSent';
import { STATE_LABELS } from './outcome';
import { refundsListQuery } from './queries';
import { StateBadge } from './StateBadge';

/** Every refund this desk knows, live (refunds.updated), with filters, Check again and CSV export. */
export function RefundsView() {
  const bridge = useBridge();
  const list = useQuery(refundsListQuery(bridge));
  const dialog = useRefundDialog();
  const checkAgain = useCheckAgain();
  const [filters, setFilters] = useState<IntentFilters>({ state: 'all', currency: 'all', text: '' });
  const [newTx, setNewTx] = useState('');
  const rows = useMemo(() => filterIntents(list.data ?? [], filters), [list.data, filters]);
  const currencies = useMemo(() => currenciesOf(list.data ?? []), [list.data]);
  const unknown = (list.data ?? []).filter((i) => i.state === 'outcome_unknown').length;
  const newTxValid = /^\d{1,32}$/.test(newTx.trim());
  const f = useFormat();
  useCommands('refunds', [
    {
      id: 'refunds.new',
      title: 'Refund a payment by transaction number…',
      group: 'Refunds',
      keywords: 'new refund',
      run: () => document.getElementById('rd-new-tx')?.focus(),
    },
    ...exportCommands({
      id: 'refunds.export',
      what: 'refunds',
      group: 'Refunds',
      empty: rows.length === 0 ? 'No refunds shown' : undefined,
      run: (kind) => exportRefunds(kind, rows, f),
    }),
  ]);

  const startRefund = (e: FormEvent) => {
    e.preventDefault();
    if (newTxValid) dialog.open(newTx.trim());
  };

  return (
    <section className="rd-view" aria-label="Refunds">
      <form className="rd-toolbar rd-new-refund" onSubmit={startRefund}>
        <label htmlFor="rd-new-tx">Refund a payment by transaction number</label>
        <input
          id="rd-new-tx"
          className="mono"
          inputMode="numeric"
          value={newTx}
          onChange={(e) => setNewTx(e.target.value)}
          placeholder="e.g. 297553638300708562"
        />
        <button type="submit" className="primary" disabled={!newTxValid}>
          Refund…
        </button>
      </form>

      {unknown > 0 && (
        <p className="rd-alert rd-alert-warn" role="status">
          {unknown === 1 ? '1 refund has' : `${unknown} refunds have`} an unknown outcome: we don’t know yet
          whether money moved. Use “Check again”; never refund those payments again until they are resolved.
        </p>
      )}

      <ListToolbar
        label="Filter refunds"
        currencies={currencies}
        currency={filters.currency}
        onCurrency={(currency) => setFilters({ ...filters, currency })}
        text={filters.text}
        onText={(text) => setFilters({ ...filters, text })}
        placeholder="Transaction, refund no., reference, id"
        shown={rows.length}
        total={list.data?.length ?? 0}
        onExport={(kind) => void exportRefunds(kind, rows, f)}
      >
        <label>
          State{' '}
          <select
            value={filters.state}
            onChange={(e) => setFilters({ ...filters, state: e.target.value as IntentFilters['state'] })}
          >
            <option value="all">All states</option>
            {INTENT_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </ListToolbar>

      {list.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load refunds: {list.error.message}
        </p>
      )}
      {checkAgain.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Check again failed: {checkAgain.error.message} Nothing was sent.
        </p>
      )}
      <div className="rd-table-wrap" role="region" aria-label="Refunds list" tabIndex={0}>
        <table className="rd-table" data-testid="refunds-table">
          <thead>
            <tr>
              <th scope="col">Created ({f.zoneLabel})</th>
              <th scope="col">Transaction</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">State</th>
              <th scope="col">Refund no.</th>
              <th scope="col">Operator</th>
              <th scope="col">Reason</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr
                key={i.id}
                className={i.state === 'outcome_unknown' ? 'rd-row-unknown' : undefined}
                data-intent-id={i.id}
              >
                <td className="nowrap">{f.dateTimeSeconds(i.createdAt)}</td>
                <td className="mono">{i.transactionNo}</td>
                <td className="num">{amountText(i.amountMinor, i.currency)}</td>
                <td>
                  <StateBadge state={i.state} />
                  {i.retMsg && (
                    <div className="small muted">
                      {i.retMsg}
                      {i.retCode ? ` (${i.retCode})` : ''}
                    </div>
                  )}
                  {/* Why an open refund is still open: the last check's evidence, or why it cannot be checked. */}
                  {(i.state === 'outcome_unknown' || i.state === 'sending') && (i.lastCheck || i.detail) && (
                    <div className="small muted" data-testid="intent-evidence">
                      {i.lastCheck
                        ? `Checked ${f.dateTimeSeconds(i.lastCheck.at)}: ${i.lastCheck.note}`
                        : i.detail}
                    </div>
                  )}
                </td>
                <td className="mono">{i.refundTransactionNo ?? '—'}</td>
                <td>{i.operator || '—'}</td>
                <td>
                  {reasonLabel(i.reasonCode)}
                  {i.reasonNote ? <div className="small muted">{i.reasonNote}</div> : null}
                </td>
                <td>
                  {i.state === 'outcome_unknown' && (
                    <button
                      type="button"
                      onClick={() => checkAgain.mutate(i.id)}
                      disabled={checkAgain.isPending && checkAgain.variables === i.id}
                    >
                      Check again
                    </button>
                  )}
                  <CloseNotSent intent={i} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.isSuccess && rows.length === 0 && (
          <p className="rd-empty">
            {list.data.length === 0
              ? 'No refunds yet. Refund a payment from Transactions or by its number above.'
              : 'No refunds match these filters.'}
          </p>
        )}
        {list.isPending && (
          <p className="rd-empty" role="status">
            Loading refunds…
          </p>
        )}
      </div>
      <p className="muted small">
        Times are in {f.zoneSentence}; exports use the same zone and name it. Change it in Settings → Display.
      </p>
    </section>
  );
}
