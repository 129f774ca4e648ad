/**
 * IPN (webhook) delivery: form-urlencoded POST signed with the merchant token, resent until the
 * listener answers the exact body `success`, at most 8 attempts. The schedule is injectable so tests
 * run in milliseconds; the default spreads the attempts over just under two hours, like the service.
 */
import { signParams } from '../../shared/protocol/signing';
import type { FaultInjector } from './faults';

/** Gaps between attempts 1→2, 2→3, … (ms); the last gap repeats if the list is short. */
export const DEFAULT_IPN_SCHEDULE: readonly number[] = [
  15_000, 60_000, 180_000, 600_000, 1_200_000, 1_800_000, 3_000_000,
];
export const MAX_IPN_ATTEMPTS = 8;

/** One delivery attempt, as shown by the admin endpoint and RunningSandbox.ipnLog(). */
export interface IpnLogEntry {
  /** Same for every attempt of one notification. */
  deliveryId: number;
  kind: 'payment' | 'refund';
  url: string;
  transactionNo: string;
  refundTransactionNo?: string;
  attempt: number;
  /** ISO instant of the attempt. */
  at: string;
  outcome: 'delivered' | 'rejected' | 'error' | 'injected-failure';
  /** True when no further attempt follows (delivered, or the 8th attempt failed). */
  final: boolean;
  httpStatus?: number;
  detail?: string;
  /** The signed fields sent (no secrets: the token never leaves the sandbox). */
  params: Record<string, string>;
}

export interface IpnDispatcher {
  /** Signs and queues one notification. */
  send(
    kind: IpnLogEntry['kind'],
    url: string,
    params: Record<string, string | undefined>,
    token: string,
  ): void;
  log(): IpnLogEntry[];
  /** Resolves once no notification is waiting for an attempt. */
  idle(): Promise<void>;
  close(): void;
}

const LOG_LIMIT = 2_000;
const ATTEMPT_TIMEOUT_MS = 5_000;

export function createIpnDispatcher(opts: {
  schedule?: readonly number[];
  faults: FaultInjector;
  log?: (line: string) => void;
}): IpnDispatcher {
  const schedule = opts.schedule && opts.schedule.length > 0 ? opts.schedule : DEFAULT_IPN_SCHEDULE;
  const entries: IpnLogEntry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const controllers = new Set<AbortController>();
  let inFlight = 0;
  let nextId = 1;
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = (): void => {
    if (inFlight > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const record = (e: IpnLogEntry): void => {
    entries.push(e);
    if (entries.length > LOG_LIMIT) entries.splice(0, entries.length - LOG_LIMIT);
  };

  async function attemptOnce(
    url: string,
    body: string,
  ): Promise<Pick<IpnLogEntry, 'outcome' | 'httpStatus' | 'detail'>> {
    const ctl = new AbortController();
    controllers.add(ctl);
    const timer = setTimeout(() => ctl.abort(), ATTEMPT_TIMEOUT_MS);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: ctl.signal,
      });
      const text = await res.text();
      // Only the exact body `success` acknowledges (shared/protocol/README.md, "IPN").
      return text === 'success'
        ? { outcome: 'delivered', httpStatus: res.status }
        : {
            outcome: 'rejected',
            httpStatus: res.status,
            detail: `answered ${JSON.stringify(text.slice(0, 60))}`,
          };
    } catch (err) {
      return {
        outcome: 'error',
        detail: (err as Error).name === 'AbortError' ? 'timed out or aborted' : (err as Error).message,
      };
    } finally {
      clearTimeout(timer);
      controllers.delete(ctl);
    }
  }

  function deliver(base: Omit<IpnLogEntry, 'attempt' | 'at' | 'outcome' | 'final'>, attempt: number): void {
    if (closed) return;
    inFlight += 1;
    const finish = (result: Pick<IpnLogEntry, 'outcome' | 'httpStatus' | 'detail'>): void => {
      if (closed) return;
      const final = result.outcome === 'delivered' || attempt >= MAX_IPN_ATTEMPTS;
      record({ ...base, attempt, at: new Date().toISOString(), ...result, final });
      if (!final) {
        const gap = schedule[Math.min(attempt - 1, schedule.length - 1)] ?? 0;
        inFlight += 1; // the scheduled retry counts as outstanding work
        later(gap, () => {
          inFlight -= 1;
          deliver(base, attempt + 1);
        });
      } else if (final && result.outcome !== 'delivered') {
        opts.log?.(`sandbox: IPN ${base.deliveryId} to ${base.url} gave up after ${attempt} attempts`);
      }
      inFlight -= 1;
      settleIdle();
    };
    if (opts.faults.roll(opts.faults.config().ipnFailRate)) {
      finish({ outcome: 'injected-failure', detail: 'fault injection: not sent' });
      return;
    }
    void attemptOnce(base.url, new URLSearchParams(base.params).toString()).then(finish);
  }

  return {
    send(kind, url, params, token) {
      if (closed) return;
      const signed = signParams(params, token);
      const base = {
        deliveryId: nextId++,
        kind,
        url,
        transactionNo: signed.transactionNo ?? '',
        ...(signed.refundTransactionNo ? { refundTransactionNo: signed.refundTransactionNo } : {}),
        params: signed,
      };
      const delay = opts.faults.config().ipnDelayMs;
      inFlight += 1;
      later(delay, () => {
        inFlight -= 1;
        deliver(base, 1);
      });
    },
    log: () => entries.map((e) => ({ ...e, params: { ...e.params } })),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const c of controllers) c.abort();
      inFlight = 0;
      settleIdle();
    },
  };
}
