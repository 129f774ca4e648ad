import { useCallback, useEffect, useRef, useState } from 'react';
import type { Input, Output } from '../../../../shared/ipc/contract';
import { RECON_INPUT_CHUNK } from '../../../../shared/ipc/contract/reconciliation';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { ReconItem } from '../../../../shared/recon/match';
import { type CacheOwner, useCache } from '../../db/owner';
import { unwrap, useBridge } from '../../lib/bridge';
import { transactionNumbers } from './ledger-handler';

export type ReconRun = Output<'reconciliation.get'>;
export type ReconProgress = ReconRun['progress'];
export type ReportHeader = Output<'reconciliation.report'>;

/** A cached answer younger than this is used as is instead of asking the service again. */
export const FRESH_MS = 15 * 60_000;
const PAGE = 5000;

export interface ReconReport {
  header: ReportHeader;
  items: ReconItem[];
}

/** What the mapping step hands over: the whole ledger (read and unusable rows) and the run's options. */
export interface ImportedLedger extends Omit<Input<'reconciliation.create'>, 'label'> {
  label: string;
  profileId: string;
  rows: LedgerRow[];
  unusable: UnusableRow[];
  /** The rows' distinct transaction numbers when already known (the ledger worker sends them). */
  transactionNos?: string[];
}

/**
 * What the service said is cache material: stored through the cache owner, so the Transactions list
 * shows these payments at once (merged into it) and offline afterwards.
 */
async function cacheAnswers(cache: CacheOwner, profileId: string, items: readonly ReconItem[]) {
  const byFetch = new Map<string, Transaction[]>();
  for (const i of items) {
    if (!i.transaction || !i.service) continue;
    const list = byFetch.get(i.service.fetchedAt) ?? [];
    list.push(i.transaction);
    byFetch.set(i.service.fetchedAt, list);
  }
  for (const [fetchedAt, list] of byFetch) await cache.store(profileId, list, fetchedAt);
}

const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / RECON_INPUT_CHUNK) }, (_, i) =>
    list.slice(i * RECON_INPUT_CHUNK, (i + 1) * RECON_INPUT_CHUNK),
  );

/**
 * One reconciliation run, kept in main: the ledger is handed over in chunks with the fresh cache hits,
 * main does the rest and stores the result as a record, and the report is always read back from that
 * record — the first time and every re-open alike, so the screen and its exports never differ.
 * The screen listens for progress before the run starts and reads the run's state after, so a run that
 * ends before anyone listened still shows its report.
 */
export function useReconRun(profileId: string) {
  const bridge = useBridge();
  const cache = useCache();
  const [run, setRun] = useState<ReconRun | null>(null);
  const [report, setReport] = useState<ReconReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loading = useRef<string | null>(null);
  /** Runs started in this window: their fresh answers go to the cache once (never a re-open's old ones). */
  const fresh = useRef(new Set<string>());

  const loadReport = useCallback(
    async (runId: string) => {
      if (loading.current === runId) return;
      loading.current = runId;
      try {
        const header = await unwrap(bridge['reconciliation.report']({ profileId, runId }));
        const items: ReconItem[] = [];
        for (let offset: number | null = 0; offset !== null;) {
          const page: Output<'reconciliation.items'> = await unwrap(
            bridge['reconciliation.items']({ profileId, runId, offset, limit: PAGE }),
          );
          for (const item of page.items) items.push(item);
          offset = page.nextOffset;
        }
        setRun(header.run);
        setReport({ header, items });
        if (fresh.current.delete(runId) && header.run.profileId === profileId) {
          await cacheAnswers(cache, profileId, items);
        }
      } catch (e) {
        setError(e instanceof Error ? e.message : 'The report could not be loaded.');
        loading.current = null;
      }
    },
    [bridge, cache, profileId],
  );

  const onView = useCallback(
    (view: ReconRun) => {
      setRun(view);
      if (view.progress.phase === 'done') void loadReport(view.runId);
    },
    [loadReport],
  );

  // Progress of the shown run. Subscribed for as long as a run is shown; `start` also reads the state
  // after starting, and a re-open reads it, so no end is missed.
  const runId = run?.runId;
  useEffect(() => {
    if (!runId) return;
    return bridge.on['reconciliation.progress']((p) => {
      if (p.runId !== runId) return;
      const { runId: _id, ...progress } = p;
      setRun((r) => (r && r.runId === runId ? { ...r, progress } : r));
      if (progress.phase === 'done') void loadReport(runId);
    });
  }, [bridge, runId, loadReport]);

  const start = useCallback(
    async (ledger: ImportedLedger) => {
      setError(null);
      setReport(null);
      loading.current = null;
      try {
        setBusy('Handing the ledger over…');
        const { runId: id } = await unwrap(
          bridge['reconciliation.create']({
            profileId,
            label: ledger.label,
            file: ledger.file,
            mapping: ledger.mapping,
            options: ledger.options,
            ...(ledger.carryForwardOf ? { carryForwardOf: ledger.carryForwardOf } : {}),
          }),
        );
        // Fresh cache hits (by transaction number) need no query.
        const byNo = ledger.transactionNos ?? transactionNumbers(ledger.rows);
        const cached = (await cache.freshOnes(profileId, byNo, FRESH_MS)).map(
          ({ profileId: _p, fetchedAt, ...transaction }) => ({
            key: `tx:${transaction.transactionNo}`,
            transaction,
            fetchedAt,
          }),
        );
        for (const rows of chunks(ledger.rows))
          await unwrap(bridge['reconciliation.addInput']({ profileId, runId: id, rows }));
        for (const unusable of chunks(ledger.unusable))
          await unwrap(bridge['reconciliation.addInput']({ profileId, runId: id, unusable }));
        for (const c of chunks(cached))
          await unwrap(bridge['reconciliation.addInput']({ profileId, runId: id, cached: c }));
        fresh.current.add(id);
        // The run is shown (and its progress listened to) before it starts.
        setRun(await unwrap(bridge['reconciliation.get']({ profileId, runId: id })));
        onView(await unwrap(bridge['reconciliation.start']({ profileId, runId: id })));
        // A run that ended while the listener attached is read once more.
        onView(await unwrap(bridge['reconciliation.get']({ profileId, runId: id })));
      } catch (e) {
        setError(e instanceof Error ? e.message : 'The run could not start.');
      } finally {
        setBusy(null);
      }
    },
    [bridge, cache, onView, profileId],
  );

  /** Opens an earlier run: its stored report, or its progress (resumable) when it has not ended. */
  const reopen = useCallback(
    async (id: string) => {
      setError(null);
      setReport(null);
      loading.current = null;
      try {
        onView(await unwrap(bridge['reconciliation.get']({ profileId, runId: id })));
      } catch (e) {
        setError(e instanceof Error ? e.message : 'That run could not be opened.');
      }
    },
    [bridge, onView, profileId],
  );

  const control = useCallback(
    async (op: 'reconciliation.pause' | 'reconciliation.resume' | 'reconciliation.cancel') => {
      if (!run) return;
      try {
        onView(await unwrap(bridge[op]({ profileId, runId: run.runId })));
      } catch (e) {
        setError(e instanceof Error ? e.message : 'That did not work.');
      }
    },
    [bridge, run, onView, profileId],
  );

  /** Re-checks the rows not checked: a new run reusing every answer of this one. */
  const recheck = useCallback(async () => {
    if (!run) return;
    setError(null);
    setReport(null);
    loading.current = null;
    try {
      const view = await unwrap(bridge['reconciliation.recheck']({ profileId, runId: run.runId }));
      fresh.current.add(view.runId);
      onView(view);
      onView(await unwrap(bridge['reconciliation.get']({ profileId, runId: view.runId })));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The re-check could not start.');
    }
  }, [bridge, run, onView, profileId]);

  const reset = useCallback(() => {
    setRun(null);
    setReport(null);
    setError(null);
    loading.current = null;
  }, []);

  return {
    run,
    report,
    busy,
    error,
    start,
    reopen,
    recheck,
    reset,
    pause: () => control('reconciliation.pause'),
    resume: () => control('reconciliation.resume'),
    cancel: () => control('reconciliation.cancel'),
  };
}
