import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Bridge, Output } from '../../../../shared/ipc/contract';
import { useBridge } from '../../lib/bridge';
import { appHealthQuery, appKeys } from '../shell/queries';
import { type Connectivity, OFFLINE_CODES } from './connectivity';
import { transactionKeys } from './queries';

const RECHECK_MS = 30_000;
/** The longest the first probe waits for the page to be idle. */
const FIRST_PROBE_WITHIN_MS = 1_000;
/** The longest the first probe waits for the list's first screen (a cache that answers slowly). */
export const FIRST_SCREEN_WAIT_MS = 2_000;

/** Runs `fn` once the page is idle (at the latest after FIRST_PROBE_WITHIN_MS); returns its cancel. */
function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: FIRST_PROBE_WITHIN_MS });
    return () => cancelIdleCallback(id);
  }
  const t = setTimeout(fn, 0);
  return () => clearTimeout(t);
}

interface Probe {
  offline: boolean;
  online: boolean;
  reason?: string;
}

/** One harmless signed query through main (profiles.testConnection) and what it says about reachability. */
/** Health with the service's answer just seen, as main reports it once it has one. */
function withServiceAnswer(h: Output<'app.health'>, at: string): Output<'app.health'> {
  return {
    ...h,
    checks: [...h.checks, { name: 'service', ok: true, detail: `Last answer ${at}`, lastSuccessAt: at }],
  };
}

async function probe(bridge: Bridge, profileId: string): Promise<Probe> {
  const r = await bridge['profiles.testConnection']({ id: profileId });
  // The host itself not answering counts as offline too.
  if (!r.ok)
    return OFFLINE_CODES.has(r.error.code)
      ? { offline: true, online: false, reason: r.error.message }
      : { offline: false, online: false };
  if (r.value.verdict === 'network') return { offline: true, online: false, reason: r.value.message };
  return { offline: false, online: true };
}

/**
 * Owns the online/offline state for a profile: probes once on mount (profiles.testConnection sends one
 * harmless signed query), learns from every network action's outcome, and re-probes periodically
 * while offline so the banner clears on its own when the service is back.
 */
export function useConnectivityState(profileId: string | undefined): Connectivity {
  const bridge = useBridge();
  const [state, setState] = useState<Connectivity['state']>('unknown');
  const [reason, setReason] = useState<string | undefined>();
  const [isChecking, setChecking] = useState(false);
  const seq = useRef(0);

  const apply = useCallback((verdict: Probe, mine: number) => {
    if (mine !== seq.current) return;
    setChecking(false);
    if (verdict.offline) {
      setState('offline');
      setReason(verdict.reason);
    } else if (verdict.online) {
      // Credentials or service trouble is not "offline": the actions themselves explain it.
      setState('online');
      setReason(undefined);
    }
  }, []);

  const recheck = useCallback(() => {
    if (!profileId) return;
    const mine = ++seq.current;
    setChecking(true);
    void probe(bridge, profileId).then((v) => apply(v, mine));
  }, [bridge, profileId, apply]);

  const client = useQueryClient();
  useEffect(() => {
    if (!profileId) return;
    // Once the list's first screen has been read from the cache and the page is idle, not while the
    // screen is being built: the probe's answer changes nothing on it, and the Demo sandbox generates its
    // data on the first request it gets, CPU the start needs for itself (issue 30). Idle alone came too
    // early: the page idles while IndexedDB opens and answers. Any network action before then reports
    // reachability on its own.
    const firstScreen = transactionKeys.firstPage(profileId);
    const read = () => {
      const status = client.getQueryState(firstScreen)?.status;
      return status === 'success' || status === 'error';
    };
    let started = false;
    let cancelIdle = () => {};
    const start = () => {
      if (started) return;
      started = true;
      stopWatching();
      clearTimeout(cap);
      cancelIdle = whenIdle(() => {
        const mine = ++seq.current;
        void probe(bridge, profileId).then((v) => apply(v, mine));
      });
    };
    const stopWatching = client.getQueryCache().subscribe(() => {
      if (read()) start();
    });
    const cap = setTimeout(start, FIRST_SCREEN_WAIT_MS);
    if (read()) start();
    return () => {
      started = true;
      stopWatching();
      clearTimeout(cap);
      cancelIdle();
    };
  }, [bridge, client, profileId, apply]);

  // The header's health indicator learns reachability from main's own traffic; when this screen sees the
  // service go away or come back, ask for it at once instead of at its next poll. The first verdict
  // being "online" is neither: the health read at start-up (app.bootstrap) already says so.
  const previous = useRef<Connectivity['state']>('unknown');
  useEffect(() => {
    const was = previous.current;
    previous.current = state;
    if (state === 'unknown') return;
    if (was === 'unknown' && state === 'online') {
      // The probe has just reached the service through main, which records it. A health read taken
      // before any contact (app.bootstrap's) says "not contacted yet": it learns the answer here, not
      // from a second round to main at start-up.
      if (profileId)
        client.setQueryData<Output<'app.health'>>(appHealthQuery(bridge, profileId).queryKey, (h) =>
          h && !h.checks.some((c) => c.name === 'service')
            ? withServiceAnswer(h, new Date().toISOString())
            : h,
        );
      return;
    }
    void client.invalidateQueries({ queryKey: appKeys.health });
  }, [state, client, bridge, profileId]);

  useEffect(() => {
    if (state !== 'offline') return;
    const t = setInterval(recheck, RECHECK_MS);
    return () => clearInterval(t);
  }, [state, recheck]);

  const report = useCallback<Connectivity['report']>((outcome) => {
    if (outcome.ok) {
      setState('online');
      setReason(undefined);
    } else if (OFFLINE_CODES.has(outcome.error.code)) {
      setState('offline');
      setReason(outcome.error.message);
    }
  }, []);

  return useMemo(
    () => ({ state, ...(reason ? { reason } : {}), report, recheck, isChecking }),
    [state, reason, report, recheck, isChecking],
  );
}
