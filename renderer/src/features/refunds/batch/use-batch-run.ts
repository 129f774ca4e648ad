import { useCallback, useEffect, useRef, useState } from 'react';
import type { BatchReport, BatchStatus } from '../../../../../shared/batch/execution';
import type { Input } from '../../../../../shared/ipc/contract';
import { useCache } from '../../../db/owner';
import { errorOf, unwrap, useBridge } from '../../../lib/bridge';

/** The profile's last batch started on this desk, so a batch left running or paused is found again. */
export const LAST_BATCH_KEY = 'refunds.batch.last';

/** While a batch runs, its status is also read every so often: a progress event missed is never a stuck screen. */
const POLL_MS = 2_000;

/** A batch in one of these states sends nothing more: its report is final. */
const ENDED = new Set<BatchStatus['state']>(['finished', 'cancelled', 'rejected', 'expired']);

export type BatchStartFile = Extract<Input<'refunds.batchStart'>, { file: unknown }>;

/**
 * One refund batch executed in main: start (the file again, main runs the dry run itself), progress from
 * `refunds.batchProgress` (and a status read now and then), pause, resume, cancel, and the report once
 * the run has ended. Every call names the profile the screen shows.
 */
export function useBatchRun(profileId: string) {
  const bridge = useBridge();
  const cache = useCache();
  const [status, setStatus] = useState<BatchStatus | null>(null);
  const [report, setReport] = useState<BatchReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<string | null>(null);

  const follow = useCallback((s: BatchStatus) => {
    current.current = s.batchId;
    setStatus(s);
  }, []);

  useEffect(
    () =>
      bridge.on['refunds.batchProgress']((s) => {
        if (s.batchId === current.current) setStatus(s);
      }),
    [bridge],
  );

  // A batch this desk left running or paused (the screen closed, the app restarted): shown again.
  useEffect(() => {
    let live = true;
    void (async () => {
      const id = await cache.setting(profileId, LAST_BATCH_KEY);
      if (typeof id !== 'string' || current.current) return;
      const r = await bridge['refunds.batchStatus']({ profileId, batchId: id });
      if (live && r.ok && !current.current && (r.value.active || r.value.state === 'paused')) follow(r.value);
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bridge, cache, profileId, follow]);

  const batchId = status?.batchId;
  const active = status?.active ?? false;
  useEffect(() => {
    if (!batchId || !active) return;
    const t = setInterval(() => {
      void bridge['refunds.batchStatus']({ profileId, batchId }).then((r) => {
        if (r.ok && r.value.batchId === current.current) setStatus(r.value);
      });
    }, POLL_MS);
    return () => clearInterval(t);
  }, [bridge, profileId, batchId, active]);

  // A run that ended (finished or cancelled) has a report: read once, from main's record.
  const ended = status && !status.active && ENDED.has(status.state);
  useEffect(() => {
    if (!ended || !batchId) return;
    let live = true;
    unwrap(bridge['refunds.batchReport']({ profileId, batchId })).then(
      (r) => live && setReport(r),
      (e: unknown) => live && setError(`The report could not be read: ${errorOf(e).message}`),
    );
    return () => {
      live = false;
    };
  }, [bridge, profileId, batchId, ended]);

  async function act(label: string, call: () => Promise<BatchStatus>): Promise<boolean> {
    setBusy(label);
    setError(null);
    try {
      follow(await call());
      return true;
    } catch (e) {
      setError(errorOf(e).message);
      return false;
    } finally {
      setBusy(null);
    }
  }

  return {
    status,
    report,
    busy,
    error,
    async start(input: Omit<BatchStartFile, 'profileId'>): Promise<boolean> {
      setReport(null);
      return act('Starting', async () => {
        const s = await unwrap(bridge['refunds.batchStart']({ profileId, ...input }));
        await cache.saveSetting(profileId, LAST_BATCH_KEY, s.batchId).catch(() => undefined);
        return s;
      });
    },
    pause: () =>
      batchId && act('Pausing', () => unwrap(bridge['refunds.batchPause']({ profileId, batchId }))),
    resume: () =>
      batchId && act('Resuming', () => unwrap(bridge['refunds.batchStart']({ profileId, batchId }))),
    cancel: () =>
      batchId && act('Cancelling', () => unwrap(bridge['refunds.batchCancel']({ profileId, batchId }))),
    /** Shows a batch's report again (the last one of the profile). */
    open: (id: string) =>
      act('Opening', () => unwrap(bridge['refunds.batchStatus']({ profileId, batchId: id }))),
    reset() {
      current.current = null;
      setStatus(null);
      setReport(null);
      setError(null);
    },
  };
}
