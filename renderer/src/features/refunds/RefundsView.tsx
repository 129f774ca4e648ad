import { useQuery } from '@tanstack/react-query';
import { DateField } from '../../lib/ui/DateField';
import { classifyId } from '../../../../shared/domain/id-kind';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import {
  filterRecord,
  mergeRefundRecord,
  RECORD_STATUS_LABELS,
  type RecordFilters,
  type RefundRecordRow,
  type RecordSort,
  type RecordStatus,
} from '../../../../shared/domain/refund-record';
import { dayStartInZone } from '../../../../shared/domain/zones';
import { exportCommands, useAppNav, useCommands } from '../../app/nav';
import { useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { useListScope } from '../profiles/list-scope';
import { AllProfilesToggle } from '../profiles/ProfileScope';
import { type ProfileView, useActiveProfile } from '../profiles/queries';
import { useCachedRows } from '../transactions/queries';
import { useRefundDialog } from './dialog-context';
import { exportRecord } from './exports';
import { currenciesOf } from './filters';
import { ListToolbar } from './ListToolbar';
import { useCheckAgain } from './mutations';
import { refundsListQuery } from './queries';
import { RecordDetail } from './RecordDetail';
import { RecordTable } from './RecordTable';
import { CloseNotSent } from './CloseNotSent';
import { BatchScreen } from './batch/BatchScreen';
import { useNow } from '../transactions/use-now';
import { ProfileArea } from './RefundsArea';

const STATUSES = Object.keys(RECORD_STATUS_LABELS) as RecordStatus[];

type Draft = Omit<RecordFilters, 'fromIso' | 'toIso'> & { fromDate: string; toDate: string };

/**
 * The whole refund record of the active profile: refunds made here (main's journal, live through
 * refunds.updated) and refunds the service lists for cached payments (made anywhere), shown once each,
 * with filters, sort, details and exports.
 */
export function RefundsView() {
  const { profile } = useActiveProfile();
  if (!profile)
    return (
      <section className="rd-view" aria-label="Refunds">
        <p className="rd-empty">Choose or add a merchant profile in Settings to see its refunds.</p>
      </section>
    );
  return (
    <ProfileArea
      key={profile.id}
      profile={profile}
      record={<ProfileRefunds profile={profile} />}
      batch={<BatchScreen profile={profile} />}
    />
  );
}

function ProfileRefunds({ profile }: { profile: ProfileView }) {
  const { id: profileId, name: profileName } = profile;
  const bridge = useBridge();
  const nav = useAppNav();
  const listScope = useListScope();
  const { allProfiles } = listScope;
  const list = useQuery(refundsListQuery(bridge, listScope.scope));
  const cached = useCachedRows(profileId);
  const dialog = useRefundDialog();
  const checkAgain = useCheckAgain();
  const f = useFormat();
  const [draft, setDraft] = useState<Draft>({
    status: 'all',
    currency: 'all',
    origin: 'all',
    fromDate: '',
    toDate: '',
    text: '',
  });
  const [sort, setSort] = useState<RecordSort>({ by: 'at', dir: 'desc' });
  const [selectedKey, setSelectedKey] = useState<string>();
  // The row whose "Close as not sent" panel is open (above the list, never inside the row).
  const [closingKey, setClosingKey] = useState<string>();
  // "possible after 06:49" turns into the action by itself when the time comes.
  const nowMs = useNow(15_000);
  const [newTx, setNewTx] = useState('');

  const record = useMemo(
    () => mergeRefundRecord(list.data ?? [], cached.data ?? [], profileId, profileName),
    [list.data, cached.data, profileId, profileName],
  );
  const filters: RecordFilters = useMemo(() => {
    const from = draft.fromDate ? dayStartInZone(draft.fromDate, f.zone.iana) : undefined;
    const to = draft.toDate ? dayStartInZone(draft.toDate, f.zone.iana, 1) : undefined;
    return {
      ...draft,
      fromIso: from === undefined ? '' : new Date(from).toISOString(),
      toIso: to === undefined ? '' : new Date(to - 1).toISOString(),
    };
  }, [draft, f.zone.iana]);
  const rows = useMemo(() => filterRecord(record, filters, sort), [record, filters, sort]);
  const currencies = useMemo(() => currenciesOf(record), [record]);
  const unknown = record.filter((r) => r.intent?.state === 'outcome_unknown').length;
  const selected = record.find((r) => r.key === selectedKey);
  const closing = record.find((r) => r.key === closingKey);
  const fetchedAt = cached.data?.find((t) => t.transactionNo === selected?.transactionNo)?.fetchedAt;
  // The one rule for typed ids (spaces between the digits are fine): only a transaction number here.
  const newTxId = classifyId(newTx);
  const newTxValid = newTxId.shape === 'service-number';
  const openPayment = useCallback((transactionNo: string) => nav?.lookup(transactionNo), [nav]);
  // A refund is checked for the profile it was made with (another one's, when All profiles is on).
  const runCheck = useCallback(
    (id: string) =>
      checkAgain.mutate({
        profileId: record.find((r) => r.intent?.id === id)?.intent?.profileId ?? profileId,
        id,
      }),
    [checkAgain, profileId, record],
  );
  // A refund made here names its profile; one only the service lists is in this profile's cache.
  const profileOf = useCallback(
    (row: RefundRecordRow) =>
      row.intent
        ? { name: row.intent.profileName, environment: row.intent.environment }
        : { name: profileName, environment: profile.environment },
    [profileName, profile.environment],
  );
  const exportName = allProfiles ? 'all-profiles' : profileName;

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
      run: (kind) => exportRecord(kind, rows, exportName, f),
    }),
  ]);

  const startRefund = (e: FormEvent) => {
    e.preventDefault();
    if (newTxId.shape === 'service-number') dialog.open(newTxId.text);
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
          aria-describedby={newTxId.shape !== 'empty' && !newTxValid ? 'rd-new-tx-hint' : undefined}
          placeholder="e.g. 297553638300708562"
        />
        <button
          type="submit"
          className="primary"
          disabled={!newTxValid || dialog.blocked !== undefined}
          title={dialog.blocked}
        >
          Refund…
        </button>
        {newTxId.shape !== 'empty' && !newTxValid && (
          <span id="rd-new-tx-hint" className="small muted" data-testid="new-tx-hint">
            {newTxId.shape === 'invalid'
              ? newTxId.reason
              : 'A transaction number has 18 digits (spaces between them are fine).'}
          </span>
        )}
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
        currency={draft.currency}
        onCurrency={(currency) => setDraft({ ...draft, currency })}
        text={draft.text}
        onText={(text) => setDraft({ ...draft, text })}
        placeholder="Transaction, refund no., reference"
        shown={rows.length}
        total={record.length}
        onExport={(kind) => void exportRecord(kind, rows, exportName, f)}
      >
        <label>
          Status{' '}
          <select
            aria-label="Refund status"
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.target.value as Draft['status'] })}
          >
            <option value="all">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {RECORD_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Made{' '}
          <select
            aria-label="Where the refund was made"
            value={draft.origin}
            onChange={(e) => setDraft({ ...draft, origin: e.target.value as Draft['origin'] })}
          >
            <option value="all">Here and elsewhere</option>
            <option value="here">Here</option>
            <option value="elsewhere">Elsewhere</option>
          </select>
        </label>
        <AllProfilesToggle state={listScope} />
        <label>
          From <DateField value={draft.fromDate} onChange={(v) => setDraft({ ...draft, fromDate: v })} />
        </label>
        <label>
          To <DateField value={draft.toDate} onChange={(v) => setDraft({ ...draft, toDate: v })} />
        </label>
      </ListToolbar>

      {list.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load this desk’s refunds: {list.error.message}
        </p>
      )}
      {checkAgain.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Check again failed: {checkAgain.error.message} Nothing was sent.
        </p>
      )}
      {selected && (
        <RecordDetail
          row={selected}
          f={f}
          fetchedAt={fetchedAt}
          checking={checkAgain.isPending}
          onCheckAgain={runCheck}
          onOpenPayment={openPayment}
          onClose={() => setSelectedKey(undefined)}
        />
      )}
      {closing?.intent && (
        <CloseNotSent
          key={closing.key}
          intent={closing.intent}
          profileId={closing.profileId}
          f={f}
          onDone={() => setClosingKey(undefined)}
        />
      )}
      <div className="rd-table-wrap" role="region" aria-label="Refunds list" tabIndex={0}>
        <RecordTable
          rows={rows}
          f={f}
          sort={sort}
          onSort={setSort}
          selectedKey={selectedKey}
          checkingId={checkAgain.isPending ? checkAgain.variables.id : undefined}
          nowMs={nowMs}
          onCloseNotSent={setClosingKey}
          onSelect={setSelectedKey}
          onOpenPayment={openPayment}
          onCheckAgain={runCheck}
          profileOf={allProfiles ? profileOf : undefined}
        />
        {list.isSuccess && rows.length === 0 && (
          <p className="rd-empty">
            {record.length === 0
              ? 'No refunds yet. Refund a payment from Transactions or by its number above; refunds made elsewhere appear here once their payment is in the cache.'
              : 'No refunds match these filters.'}
          </p>
        )}
        {(list.isPending || cached.isPending) && (
          <p className="rd-empty" role="status">
            Loading refunds…
          </p>
        )}
      </div>
      <p className="muted small">
        {allProfiles
          ? `Every profile’s refunds made at this desk, and those the service lists for ${profileName}’s payments in this computer’s cache`
          : `${profileName}’s refunds: made at this desk, and those the service lists for payments in this computer’s cache`}{' '}
        (look a payment up or sync to add its refunds). Times are in {f.zoneSentence}; exports use the same
        zone and name it.
      </p>
    </section>
  );
}
