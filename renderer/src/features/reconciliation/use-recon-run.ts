import { useCallback, useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/ipc/contract';
import {
  lookupKey,
  ledgerKeys,
  matchLedger,
  type ReconItem,
  type ServiceLookup,
} from '../../../../shared/recon/match';
import { summarise, type ReconSummary } from '../../../../shared/recon/summary';
import type { ColumnMapping } from '../../../../shared/recon/mapping';
import type { LedgerRow } from '../../../../shared/recon/ledger';
import { useDb } from '../../db/context';
import { createTransactionsRepo } from '../../db/transactions-repo';
import type { ReconRunRecord } from '../../db/schema';
import { unwrap, useBridge } from '../../lib/bridge';
import { detailAmount } from './format';

export type ReconProgress = Output<'reconciliation.start'>['progress'];

/** A cached answer younger than this is used as is instead of asking the service again. */
export const FRESH_MS = 15 * 60_000;
const PAGE = 5000;

export interface ReconReport {
  items: ReconItem[];
  summary: ReconSummary;
}

export interface ImportedLedger {
  label: string;
  mapping: ColumnMapping;
  rows: LedgerRow[];
  problems: Array<{ line: number; message: string }>;
}

/**
 * One reconciliation run: fresh cache hits are used directly, every other key is queried by a job in
 * main (progress pushed as events), answers are written to the transactions cache in chunks, and the
 * ledger is matched when the job ends. Runs are kept in Dexie so an interrupted one can be resumed.
 */
export function useReconRun() {
  const bridge = useBridge();
  const db = useDb();
  const [run, setRun] = useState<ReconRunRecord | null>(null);
  const [progress, setProgress] = useState<ReconProgress | null>(null);
  const [report, setReport] = useState<ReconReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cached = useRef(new Map<string, ServiceLookup>());
  const finishing = useRef<string | null>(null);

  const finish = useCallback(
    async (rec: ReconRunRecord) => {
      if (finishing.current === rec.jobId) return;
      finishing.current = rec.jobId;
      try {
        const answers = new Map(cached.current);
        const repo = createTransactionsRepo(db);
        const fetchedAt = new Date().toISOString();
        if (!rec.jobId.startsWith('local-')) {
          for (let offset: number | null = 0; offset !== null;) {
            const page: Output<'reconciliation.results'> = await unwrap(
              bridge['reconciliation.results']({ jobId: rec.jobId, offset, limit: PAGE }),
            );
            for (const r of page.items) answers.set(r.key, r.lookup);
            // Results are cache material too: the Transactions area shows them offline afterwards.
            const found = page.items.flatMap((r) =>
              r.lookup.kind === 'found' ? [r.lookup.transaction] : [],
            );
            if (found.length > 0) await repo.bulkUpsert(rec.profileId, found, fetchedAt);
            offset = page.nextOffset;
          }
        }
        const items = matchLedger(rec.rows, (k) => answers.get(k), detailAmount);
        setReport({ items, summary: summarise(items) });
      } catch (e) {
        setError(e instanceof Error ? e.message : 'The results could not be loaded.');
        finishing.current = null;
      }
    },
    [bridge, db],
  );

  useEffect(() => {
    if (!run) return;
    return bridge.on['reconciliation.progress']((p) => {
      if (p.jobId !== run.jobId) return;
      setProgress(p);
      if (p.state === 'completed' || p.state === 'cancelled') void finish(run);
    });
  }, [bridge, run, finish]);

  const start = useCallback(
    async (ledger: ImportedLedger) => {
      setError(null);
      setReport(null);
      finishing.current = null;
      try {
        const profiles = await unwrap(bridge['profiles.list']());
        const profileId = profiles.activeProfileId;
        if (!profileId) throw new Error('No merchant profile is active. Add or choose one in Settings.');
        const keys = ledgerKeys(ledger.rows).map(lookupKey);
        // Fresh cache hits (by transaction number) need no query.
        cached.current = new Map();
        const now = Date.now();
        const byNo = keys.filter((k) => k.startsWith('tx:'));
        const hits = await db.transactions
          .where('[profileId+transactionNo]')
          .anyOf(byNo.map((k) => [profileId, k.slice(3)]))
          .toArray();
        for (const hit of hits) {
          if (now - Date.parse(hit.fetchedAt) < FRESH_MS)
            cached.current.set(`tx:${hit.transactionNo}`, { kind: 'found', transaction: hit });
        }
        const todo = keys.filter((k) => !cached.current.has(k));
        const createdAt = new Date().toISOString();
        let jobId = `local-${now}`;
        let first: ReconProgress = { state: 'completed', done: keys.length, total: keys.length, failed: 0 };
        if (todo.length > 0) {
          const job = await unwrap(bridge['reconciliation.start']({ keys: todo, label: ledger.label }));
          jobId = job.jobId;
          first = job.progress;
        }
        const rec: ReconRunRecord = {
          jobId,
          profileId,
          label: ledger.label,
          createdAt,
          mapping: ledger.mapping,
          rows: ledger.rows,
          problems: ledger.problems,
        };
        await db.reconRuns.put(rec);
        setRun(rec);
        setProgress(first);
        if (first.state === 'completed') await finish(rec);
      } catch (e) {
        setError(e instanceof Error ? e.message : 'The run could not start.');
      }
    },
    [bridge, db, finish],
  );

  /** Reopens an earlier run (after a restart): resumes it when unfinished, else shows its report. */
  const reopen = useCallback(
    async (jobId: string) => {
      setError(null);
      setReport(null);
      finishing.current = null;
      cached.current = new Map();
      const rec = await db.reconRuns.get(jobId);
      if (!rec) return setError('That run is no longer stored here. Import the ledger again.');
      setRun(rec);
      const jobs = await unwrap(bridge['reconciliation.list']());
      const job = jobs.jobs.find((j) => j.jobId === jobId);
      if (!job) return setError('Main no longer has the answers for that run. Import the ledger again.');
      setProgress(job.progress);
      if (job.progress.state === 'completed' || job.progress.state === 'cancelled') await finish(rec);
    },
    [bridge, db, finish],
  );

  const control = useCallback(
    async (op: 'reconciliation.pause' | 'reconciliation.resume' | 'reconciliation.cancel') => {
      if (!run || run.jobId.startsWith('local-')) return;
      try {
        const job = await unwrap(bridge[op]({ jobId: run.jobId }));
        setProgress(job.progress);
        if (job.progress.state === 'cancelled') await finish(run);
      } catch (e) {
        setError(e instanceof Error ? e.message : 'That did not work.');
      }
    },
    [bridge, run, finish],
  );

  const reset = useCallback(() => {
    setRun(null);
    setProgress(null);
    setReport(null);
    setError(null);
  }, []);

  return {
    run,
    progress,
    report,
    error,
    start,
    reopen,
    reset,
    pause: () => control('reconciliation.pause'),
    resume: () => control('reconciliation.resume'),
    cancel: () => control('reconciliation.cancel'),
  };
}
