/**
 * Fault injection. Rates are probabilities in [0, 1] drawn from a seeded stream, so a run is
 * reproducible; 0 and 1 are exact, which is what tests use.
 *
 * Where each fault strikes (README "Fault injection"):
 * - latencyMs, http5xxRate, systemErrorRate (000000), upstreamErrorRate (000080): before the request
 *   is handled — nothing changes.
 * - dropAfterRate, malformedJsonRate: after the request was handled and its changes applied — the
 *   client cannot tell whether it worked (the ambiguous case the app must survive).
 * - answers: after the request was handled and applied — a success answer that says something else
 *   than what happened (another amount, reference or transaction number): the hostile answer a client
 *   must check against its request instead of believing.
 * - hold (FaultInjector.hold): the next request of an endpoint is held on the way, before anything else,
 *   until the test releases it; then it is handled and applied as if it had just arrived, whether or not
 *   its client is still waiting — a request that lands after the client gave up on it.
 */
import { z } from 'zod';
import { createRng, deriveSeed, type Rng } from './prng';

export const ENDPOINTS = [
  'customers',
  'secure-pay',
  'capture',
  'tran-query',
  'refund',
  'trans-list',
] as const;
export type EndpointName = (typeof ENDPOINTS)[number];

export interface EndpointFaults {
  latencyMs: number;
  http5xxRate: number;
  systemErrorRate: number;
  upstreamErrorRate: number;
  malformedJsonRate: number;
  dropAfterRate: number;
}

/** Fields of a success answer's `result` replaced by these values (the request itself is applied as sent). */
export interface AnswerOverride {
  amount?: string;
  currency?: string;
  reference?: string;
  transactionNo?: string;
}

export interface FaultConfig {
  /** Applies to every endpoint… */
  all: Partial<EndpointFaults>;
  /** …unless overridden per endpoint. */
  endpoints: Partial<Record<EndpointName, Partial<EndpointFaults>>>;
  /** Per endpoint: what its success answers say instead of the truth (none when absent). */
  answers?: Partial<Record<EndpointName, AnswerOverride>>;
  /** Added before the first delivery attempt of every IPN. */
  ipnDelayMs: number;
  /** Share of IPN attempts the sandbox fails on purpose (not sent; retried on schedule). */
  ipnFailRate: number;
  /** Share of refunds that settle as `failed` instead of `success`. */
  refundFailRate: number;
}

const rate = z.number().min(0).max(1);
const endpointFaultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(600_000),
    http5xxRate: rate,
    systemErrorRate: rate,
    upstreamErrorRate: rate,
    malformedJsonRate: rate,
    dropAfterRate: rate,
  })
  .partial()
  .strict();

const answerOverrideSchema = z
  .object({
    amount: z.string().max(40),
    currency: z.string().max(8),
    reference: z.string().max(128),
    transactionNo: z.string().max(40),
  })
  .partial()
  .strict();

/** Schema of a runtime update (admin endpoint): any subset of FaultConfig. */
export const faultPatchSchema = z
  .object({
    all: endpointFaultsSchema,
    endpoints: z.partialRecord(z.enum(ENDPOINTS), endpointFaultsSchema),
    answers: z.partialRecord(z.enum(ENDPOINTS), answerOverrideSchema),
    ipnDelayMs: z.number().int().min(0).max(7_200_000),
    ipnFailRate: rate,
    refundFailRate: rate,
  })
  .partial()
  .strict();
export type FaultPatch = z.infer<typeof faultPatchSchema>;

const NO_FAULTS: EndpointFaults = {
  latencyMs: 0,
  http5xxRate: 0,
  systemErrorRate: 0,
  upstreamErrorRate: 0,
  malformedJsonRate: 0,
  dropAfterRate: 0,
};

function emptyConfig(): FaultConfig {
  return { all: {}, endpoints: {}, answers: {}, ipnDelayMs: 0, ipnFailRate: 0, refundFailRate: 0 };
}

/** Merges a patch into a config field by field (endpoint entries merge too). */
export function mergeFaults(base: FaultConfig, patch: Partial<FaultConfig>): FaultConfig {
  const endpoints: FaultConfig['endpoints'] = { ...base.endpoints };
  const answers: FaultConfig['answers'] = { ...base.answers };
  for (const name of ENDPOINTS) {
    const p = patch.endpoints?.[name];
    if (p) endpoints[name] = { ...endpoints[name], ...p };
    const a = patch.answers?.[name];
    if (a) answers[name] = { ...answers[name], ...a };
  }
  return {
    all: { ...base.all, ...patch.all },
    endpoints,
    answers,
    ipnDelayMs: patch.ipnDelayMs ?? base.ipnDelayMs,
    ipnFailRate: patch.ipnFailRate ?? base.ipnFailRate,
    refundFailRate: patch.refundFailRate ?? base.refundFailRate,
  };
}

/** A request held on the way (FaultInjector.hold). */
export interface HeldRequest {
  /** Resolves once a request of the endpoint has been caught by this hold. */
  arrived: Promise<void>;
  /** Lets the request go on; resolves once it has been handled (its changes applied, answer attempted). */
  release(): Promise<void>;
}

interface Gate {
  arrive(): void;
  released: Promise<void>;
  open(): void;
  handled(): void;
  done: Promise<void>;
}

function gate(): { gate: Gate; arrived: Promise<void> } {
  let arrive!: () => void;
  let open!: () => void;
  let handled!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  const released = new Promise<void>((r) => (open = r));
  const done = new Promise<void>((r) => (handled = r));
  return { gate: { arrive, released, open, handled, done }, arrived };
}

export class FaultInjector {
  private current: FaultConfig;
  private readonly rng: Rng;
  /** Holds not yet taken by a request, per endpoint, oldest first. */
  private readonly waiting = new Map<EndpointName, Gate[]>();

  constructor(seed: number, initial: Partial<FaultConfig> = {}) {
    this.rng = createRng(deriveSeed(seed, 'faults'));
    this.current = mergeFaults(emptyConfig(), initial);
  }

  config(): FaultConfig {
    return structuredClone(this.current);
  }

  update(patch: Partial<FaultConfig>): FaultConfig {
    this.current = mergeFaults(this.current, patch);
    return this.config();
  }

  reset(): FaultConfig {
    this.current = emptyConfig();
    return this.config();
  }

  /** The faults in force for one endpoint. */
  forEndpoint(name: EndpointName): EndpointFaults {
    return { ...NO_FAULTS, ...this.current.all, ...this.current.endpoints[name] };
  }

  /** What one endpoint's success answers say instead of the truth, if anything. */
  answerFor(name: EndpointName): AnswerOverride | undefined {
    const a = this.current.answers?.[name];
    return a && Object.keys(a).length > 0 ? { ...a } : undefined;
  }

  /**
   * Holds the next request of `name` on the way until `release()` (then it is handled and applied as if
   * it had just arrived). Not undone by reset(): a held request stays held until released (one still
   * held when the sandbox closes is never applied).
   */
  hold(name: EndpointName): HeldRequest {
    const { gate: g, arrived } = gate();
    this.waiting.set(name, [...(this.waiting.get(name) ?? []), g]);
    return {
      arrived,
      release: () => {
        g.open();
        return g.done;
      },
    };
  }

  /** The server's side: the hold the next request of `name` is caught by, if one waits. */
  takeHold(name: EndpointName): { released: Promise<void>; handled(): void } | undefined {
    const queue = this.waiting.get(name);
    const g = queue?.shift();
    if (!g) return undefined;
    g.arrive();
    return { released: g.released, handled: g.handled };
  }

  /** True with probability `p`; exact at 0 and 1. */
  roll(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.rng() < p;
  }
}
