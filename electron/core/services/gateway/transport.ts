import { UnsupportedCurrencyError } from '../../../../shared/domain/currencies';
import { AppError } from '../../../../shared/domain/errors';
import { envelopeSchema, type WireEnvelope } from '../../../../shared/protocol/wire';
import { parseWireJson } from '../../../../shared/protocol/wire-json';
import { RET } from '../../../../shared/protocol/ret-codes';
import { signParams } from '../../../../shared/protocol/signing';
import type { Clock, Logger } from '../ports';
import type { AttemptReport } from './adaptive-limit';
import {
  ENDPOINTS,
  type EndpointName,
  notSent,
  outcomeUnknown,
  readFailure,
  rejectionError,
  unsupportedCurrency,
} from './errors';
import { type HttpClient, TOO_LARGE, TransportError } from './http-port';

/** Where and as whom to call. Resolved per call, so switching profiles switches everything. */
export interface GatewayConfig {
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
  /** Used only to sign; never sent, never logged. */
  token: string;
  /** Partners calling for a sub-merchant (signed like every other field). */
  merGroupNo?: string;
}

export interface RetryPolicy {
  /** Extra attempts for reads after the first (writes never retry). */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface TransportDeps {
  http: HttpClient;
  clock: Clock;
  log: Logger;
  config: () => GatewayConfig | Promise<GatewayConfig>;
  /** Per attempt (a write's single attempt gets all of it). */
  timeoutMs?: number;
  /**
   * Total time one read may take, across its attempts and the waits between them. Each attempt gets
   * what is left (at most `timeoutMs`), so a hanging or trickling service cannot stretch a lookup to
   * attempts × timeout. Writes are sent once and are bounded by `timeoutMs` alone.
   */
  readBudgetMs?: number;
  retry?: Partial<RetryPolicy>;
  /** [0, 1) source for jitter; injected so tests are deterministic. */
  random?: () => number;
  /** Waits between retries; injected so unit tests do not sleep. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told after every call whether the service answered at all (any envelope) or could not be reached. */
  onReachability?: (reachable: boolean, detail?: string) => void;
}

/**
 * The stated time budget (README "Security model", SECURITY.md): one attempt waits at most 15 s for a
 * complete answer (headers and body); one read — a lookup, a refresh, the query before a refund —
 * gives up after 20 s in total, retries and backoff included, with a `timeout` error.
 */
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_READ_BUDGET_MS = 20_000;
export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 300, maxDelayMs: 3_000 };

/** Values as the wire wants them: strings only; empty and absent values are left out entirely. */
export type WireParams = Record<string, string | number | undefined | null>;

const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Exponential backoff with "equal jitter": half the step fixed, half random, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

function toWire(params: WireParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    const s = typeof v === 'number' ? String(v) : v;
    if (s !== '') out[k] = s;
  }
  return out;
}

type Attempt =
  | { kind: 'envelope'; envelope: WireEnvelope }
  | { kind: 'transport'; phase: 'before-send' | 'unknown'; code?: string }
  | { kind: 'timeout' }
  | { kind: 'http'; status: number }
  /** An answer that cannot be read; `maxBytes` when it was refused for being larger than that. */
  | { kind: 'body'; maxBytes?: number };

/**
 * What an attempt says about the service's load: any envelope is an answer, 5xx and silence overload.
 * A request that provably never left this machine (nothing listening, no such host) says nothing about
 * load: pausing cannot help an address nobody answers at, and it would only delay the run's own
 * "the service cannot be reached" stop.
 */
function attemptOutcome(a: Attempt): AttemptReport['outcome'] {
  if (a.kind === 'envelope') return 'answered';
  if (a.kind === 'transport' && a.phase === 'before-send') return 'other';
  if (a.kind === 'timeout' || a.kind === 'transport' || (a.kind === 'http' && a.status >= 500))
    return 'overloaded';
  return 'other';
}

/** The signed-POST machinery shared by every endpoint: sign, send, time out, retry reads, map errors. */
export function createTransport(deps: TransportDeps) {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const readBudgetMs = Math.max(timeoutMs, deps.readBudgetMs ?? DEFAULT_READ_BUDGET_MS);
  // A retry with less time than this left is not worth starting.
  const minAttemptMs = Math.min(1_000, timeoutMs / 4);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...deps.retry };
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? realSleep;

  async function attemptOnce(
    url: string,
    body: string,
    attemptTimeoutMs: number,
    signal: AbortSignal | undefined,
    maxBytes: number,
    write: boolean,
  ): Promise<Attempt> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(new Error('timeout')), attemptTimeoutMs);
    const onCancel = () => ctl.abort(new Error('cancelled'));
    signal?.addEventListener('abort', onCancel, { once: true });
    if (signal?.aborted) onCancel();
    try {
      const res = await deps.http({
        url,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: ctl.signal,
        maxBytes,
        // A write is sent once, so never on a pooled connection that may already be closed.
        ...(write ? { fresh: true } : {}),
      });
      if (res.status < 200 || res.status > 299) return { kind: 'http', status: res.status };
      let json: unknown;
      try {
        // A number the JSON text states more precisely than a double holds is not read as a nearby one.
        json = parseWireJson(res.text);
      } catch {
        return { kind: 'body' };
      }
      const env = envelopeSchema.safeParse(json);
      return env.success ? { kind: 'envelope', envelope: env.data } : { kind: 'body' };
    } catch (e) {
      if (signal?.aborted)
        throw new AppError('cancelled', 'The request was cancelled.', { retryable: false });
      if (ctl.signal.aborted) return { kind: 'timeout' };
      // An answer too large to read is an unreadable answer, not a network failure worth retrying.
      if (e instanceof TransportError && e.causeCode === TOO_LARGE) return { kind: 'body', maxBytes };
      if (e instanceof TransportError)
        return { kind: 'transport', phase: e.phase, ...(e.causeCode ? { code: e.causeCode } : {}) };
      return { kind: 'transport', phase: 'unknown' };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCancel);
    }
  }

  /**
   * Calls one endpoint and returns the envelope of a 000100 answer. Throws AppError for everything
   * else: rejections (with ret_code/ret_msg), read failures after retries, outcome_unknown for writes.
   */
  async function call(
    endpoint: EndpointName,
    params: WireParams,
    opts: { signal?: AbortSignal; onAttempt?: (a: AttemptReport) => void } = {},
  ): Promise<WireEnvelope> {
    const { path, write } = ENDPOINTS[endpoint];
    const cfg = await deps.config();
    if (!cfg.token.trim()) {
      throw new AppError(
        'unauthorized',
        'This profile has no API token yet. Add it in Settings, then try again.',
        { retryable: false },
      );
    }
    const signed = signParams(
      toWire({ ...params, merchantNo: cfg.merchantNo, storeNo: cfg.storeNo, merGroupNo: cfg.merGroupNo }),
      cfg.token,
    );
    const url = `${cfg.baseUrl.replace(/\/+$/, '')}${path}`;
    const body = JSON.stringify(signed);
    const maxAttempts = write ? 1 : 1 + policy.retries;
    const deadline = deps.clock.now() + (write ? timeoutMs : readBudgetMs);
    let last: Attempt = { kind: 'transport', phase: 'unknown' };
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      if (attempt > 0) {
        const wait = backoffDelay(attempt - 1, policy, random);
        if (deadline - deps.clock.now() - wait < minAttemptMs) break; // the budget is spent
        await sleep(wait, opts.signal);
      }
      if (opts.signal?.aborted)
        throw new AppError('cancelled', 'The request was cancelled.', { retryable: false });
      const started = deps.clock.now();
      const attemptTimeoutMs = Math.max(1, Math.min(timeoutMs, deadline - started));
      last = await attemptOnce(url, body, attemptTimeoutMs, opts.signal, ENDPOINTS[endpoint].maxBytes, write);
      const fields = { endpoint, attempt: attempt + 1, ms: deps.clock.now() - started, outcome: last.kind };
      opts.onAttempt?.({ outcome: attemptOutcome(last), ms: fields.ms });
      if (last.kind === 'envelope') {
        deps.onReachability?.(true);
        deps.log.info('gateway.call', { ...fields, retCode: last.envelope.ret_code });
        if (last.envelope.ret_code !== RET.SUCCESS)
          throw rejectionError(endpoint, last.envelope.ret_code, last.envelope.ret_msg ?? undefined);
        return last.envelope;
      }
      deps.log.warn('gateway.call', {
        ...fields,
        ...(last.kind === 'http' ? { httpStatus: last.status } : {}),
        ...(last.kind === 'transport' && last.code ? { code: last.code } : {}),
      });
      // Only transport failures and 5xx are worth another try; a 4xx or unreadable body will not change.
      const retryable =
        last.kind === 'transport' || last.kind === 'timeout' || (last.kind === 'http' && last.status >= 500);
      // Health hears of every such failure at once, not only after the retries ran out.
      if (retryable)
        deps.onReachability?.(
          false,
          last.kind === 'http'
            ? `HTTP ${last.status}`
            : last.kind === 'timeout'
              ? 'no answer in time'
              : 'no connection',
        );
      if (!retryable) break;
    }
    return failWith(endpoint, write, last);
  }

  function failWith(endpoint: EndpointName, write: boolean, last: Attempt): never {
    if (write) {
      if (last.kind === 'transport' && last.phase === 'before-send')
        throw notSent(endpoint, { code: last.code });
      const why =
        last.kind === 'timeout'
          ? 'no answer in time'
          : last.kind === 'transport'
            ? 'the connection dropped'
            : last.kind === 'http'
              ? `HTTP ${last.status}`
              : 'an unreadable answer';
      throw outcomeUnknown(endpoint, why, last.kind === 'http' ? { httpStatus: last.status } : {});
    }
    switch (last.kind) {
      case 'timeout':
        throw readFailure(endpoint, 'timeout', { timeoutMs, budgetMs: readBudgetMs });
      case 'http':
        throw readFailure(endpoint, 'http', { httpStatus: last.status });
      case 'body':
        // Said apart in the details, so a log tells an oversized answer from a garbled one.
        throw readFailure(endpoint, 'body', last.maxBytes ? { tooLarge: true, maxBytes: last.maxBytes } : {});
      default:
        throw readFailure(
          endpoint,
          'network',
          last.kind === 'transport' && last.code ? { code: last.code } : {},
        );
    }
  }

  /** Validates a success envelope's payload; a write whose answer cannot be read has an unknown outcome. */
  function parsePayload<T>(endpoint: EndpointName, parse: () => T): T {
    try {
      return parse();
    } catch (e) {
      deps.log.warn('gateway.result_invalid', { endpoint });
      if (e instanceof UnsupportedCurrencyError && !ENDPOINTS[endpoint].write)
        throw unsupportedCurrency(endpoint, e.currency);
      if (ENDPOINTS[endpoint].write)
        throw outcomeUnknown(endpoint, 'the service said success but its answer was incomplete', {
          ret_code: RET.SUCCESS,
        });
      throw readFailure(endpoint, 'body', { ret_code: RET.SUCCESS });
    }
  }

  return { call, parsePayload };
}
export type Transport = ReturnType<typeof createTransport>;
