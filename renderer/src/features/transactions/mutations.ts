import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Transaction } from '../../../../shared/domain/transaction';
import { useCache } from '../../db/owner';
import { BridgeError, useBridge } from '../../lib/bridge';
import { OFFLINE_CODES, useConnectivity } from './connectivity';
import { serviceToday, splitSyncWindows } from './sync-windows';
import { refreshHealth } from '../shell/queries';
import { useBatchJob } from './use-batch-job';

/** True when a reply is for the profile that asked; main names the profile it answered for. */
export function forProfile(reply: { profileId: string }, profileId: string): boolean {
  return reply.profileId === profileId;
}

/** A reply for another profile than the one asked for: never written, said as a conflict. */
function staleReply(): BridgeError {
  return new BridgeError({
    code: 'conflict',
    message: 'The answer was for another profile than the one shown. Nothing was stored; look it up again.',
    retryable: true,
    correlationId: 'renderer',
  });
}

/** Ids per transactions.refresh call: small, so progress moves and Cancel is prompt. */
export const REFRESH_CHUNK = 20;

/**
 * Writes fetched transactions through the cache owner (stored, and merged into the loaded list); an
 * aborted `signal` stops a long write after the chunk being written.
 */
export function useStore(profileId: string) {
  const cache = useCache();
  return useCallback(
    (txs: readonly Transaction[], fetchedAt: string, signal?: AbortSignal) =>
      cache.store(profileId, txs, fetchedAt, signal ? { signal } : {}),
    [cache, profileId],
  );
}

/**
 * Looks one id up at the service and stores the answer. Failures become BridgeError so the search box can word each cause differently.
 */
export function useLookup(profileId: string) {
  const bridge = useBridge();
  const conn = useConnectivity();
  const store = useStore(profileId);
  const client = useQueryClient();
  return useMutation({
    onSettled: () => void refreshHealth(client),
    mutationFn: async ({ query, candidates }: { query: string; candidates?: string[] }) => {
      const r = await bridge['transactions.lookup']({
        profileId,
        query,
        ...(candidates && candidates.length > 0 ? { candidates } : {}),
      });
      conn.report(r.ok ? { ok: true } : { ok: false, error: r.error });
      if (!r.ok) throw new BridgeError(r.error);
      if (!forProfile(r.value, profileId)) throw staleReply();
      await store([r.value.transaction], r.value.fetchedAt);
      return r.value;
    },
  });
}

/** Bulk refresh and sync by date range, sharing one progress bar and Cancel. */
export function useTransactionJobs(profileId: string) {
  const bridge = useBridge();
  const conn = useConnectivity();
  const store = useStore(profileId);
  const jobs = useBatchJob();
  const { run } = jobs;

  const refresh = useCallback(
    (transactionNos: readonly string[]) => {
      const chunks: string[][] = [];
      for (let i = 0; i < transactionNos.length; i += REFRESH_CHUNK)
        chunks.push(transactionNos.slice(i, i + REFRESH_CHUNK));
      return run(
        `Refresh of ${transactionNos.length} transaction${transactionNos.length === 1 ? '' : 's'}`,
        transactionNos.length,
        chunks,
        async (ids, stale) => {
          const r = await bridge['transactions.refresh']({ profileId, transactionNos: ids });
          // The screen moved on (another profile, another area): nothing of this reply is written.
          if (stale() || (r.ok && !forProfile(r.value, profileId)))
            return { done: 0, failed: 0, stop: 'Stopped: the profile changed.' };
          if (!r.ok) {
            conn.report({ ok: false, error: r.error });
            return { done: 0, failed: 0, stop: `Stopped: ${r.error.message}` };
          }
          const fresh = r.value.items.flatMap((it) => (it.ok ? [it.transaction] : []));
          const errors = r.value.items.flatMap((it) => (it.ok ? [] : [it.error]));
          const offline = errors.find((e) => OFFLINE_CODES.has(e.code));
          conn.report(offline ? { ok: false, error: offline } : { ok: true });
          await store(fresh, r.value.fetchedAt);
          return offline && fresh.length === 0
            ? { done: ids.length, failed: errors.length, stop: `Stopped: ${offline.message}` }
            : { done: ids.length, failed: errors.length };
        },
        (j) =>
          j.failed
            ? `Refreshed ${j.done - j.failed} of ${j.total}; ${j.failed} could not be fetched and keep their earlier data.`
            : `Refreshed ${j.done} transactions.`,
      );
    },
    [bridge, conn, run, store, profileId],
  );

  const sync = useCallback(
    (from: string, to: string) => {
      const split = splitSyncWindows(from, to, serviceToday(Date.now()));
      if ('error' in split) return Promise.resolve(split.error);
      let fetched = 0;
      void run(
        `Sync ${from} – ${to} (service days, UTC+8)`,
        split.windows.length,
        split.windows,
        async (w, stale, signal) => {
          const r = await bridge['transactions.sync']({ profileId, ...w });
          if (stale() || (r.ok && !forProfile(r.value, profileId)))
            return { done: 0, failed: 0, stop: 'Stopped: the profile changed.' };
          if (!r.ok) {
            conn.report({ ok: false, error: r.error });
            return { done: 0, failed: 1, stop: `Stopped: ${r.error.message}` };
          }
          conn.report({ ok: true });
          if (!r.value.supported) return { done: 0, failed: 0, stop: r.value.message };
          // A window can hold thousands of payments: Cancel stops its write too, and the window then
          // counts as not done (the rows written so far stay, and show).
          const written = await store(r.value.transactions, r.value.fetchedAt, signal);
          fetched += written.written;
          return { done: written.cancelled ? 0 : 1, failed: 0 };
        },
        () =>
          `Synced ${fetched} transactions from ${split.windows.length} window${split.windows.length === 1 ? '' : 's'}.`,
      );
      return Promise.resolve(undefined);
    },
    [bridge, conn, run, store, profileId],
  );

  return { ...jobs, refresh, sync };
}
