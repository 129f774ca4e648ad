/**
 * The payment-service sandbox: a local simulator of the Yuansfer/Pockyt merchant API (its protocol:
 * shared/protocol/README.md),
 * started in-process by the app's Demo profile and by tests, or standalone via `npm run sandbox`.
 * Plain Node (node:http) — it never imports Electron.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MERCHANTS } from './catalog';
import type { SandboxContext } from './context';
import { type EndpointName, FaultInjector, type FaultConfig, type HeldRequest } from './faults';
import { createIdFactory } from './ids';
import { createIpnDispatcher, type IpnLogEntry } from './ipn';
import { completePayment, closeExpired, type PaymentOutcome } from './payments';
import { createPersister, loadData, type Persister } from './persistence';
import { createRefundRequestLog, type RefundRequestEntry } from './refund-requests';
import { createRefundEngine } from './refunds';
import { generateSeed } from './seed';
import { createSandboxServer } from './server';
import { Store } from './store';
import type { Merchant, PaymentRecord, RefundRecord, SandboxData } from './types';

export { DEMO_MERCHANT, MERCHANTS, VENDORS, VENDOR_CURRENCIES } from './catalog';
export { CARD_3DS, CARD_DECLINED, CARD_SUCCESS } from './cards';
export {
  ENDPOINTS,
  type EndpointFaults,
  type EndpointName,
  type FaultConfig,
  type FaultPatch,
  type HeldRequest,
} from './faults';
export { DEFAULT_IPN_SCHEDULE, MAX_IPN_ATTEMPTS, type IpnLogEntry } from './ipn';
export { overlappingRefundRequests, type RefundRequestEntry } from './refund-requests';
export { generateSeed, seedAnchor } from './seed';
export type {
  CustomerRecord,
  Merchant,
  PaymentRecord,
  RefundRecord,
  SandboxData,
  VaultRecord,
} from './types';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the sandbox is for this machine only. */
  host?: string;
  /** Seed of the generated data, ids and fault decisions (default 42). */
  seed?: number;
  /** Seeded payments when no data file exists yet (default 2000). */
  transactions?: number;
  /** Persist state here (atomic writes); an existing file is loaded instead of seeding. */
  dataFile?: string;
  /** Value of the `x-sandbox-admin` header for /__admin/ (default: random). */
  adminSecret?: string;
  faults?: Partial<FaultConfig>;
  /** Gaps between IPN attempts (ms); default just under two hours for 8 attempts. Tests compress it. */
  ipnSchedule?: number[];
  /** How long a refund stays `pending` (default 5000 ms). */
  refundSettleMs?: number;
  /** Share of refunds that settle `failed` (default 0). Same as faults.refundFailRate. */
  refundFailRate?: number;
  /** Clock for record times, timeouts and the seed window (default Date.now). */
  now?: () => number;
  /** One line per request (method, path, ret_code, duration) and notable events. Default: silent. */
  log?: (line: string) => void;
}

export interface RunningSandbox {
  /** `http://host:port`, no trailing slash. */
  baseUrl: string;
  port: number;
  adminSecret: string;
  merchants: ReadonlyArray<{ merchantNo: string; storeNos: string[]; token: string }>;
  /** Stops listening, cancels pending IPNs and settlements, and flushes the data file. */
  close(): Promise<void>;
  /** Every IPN delivery attempt so far. */
  ipnLog(): IpnLogEntry[];
  /** Resolves once no IPN is waiting for an attempt. */
  ipnIdle(): Promise<void>;
  faults(): FaultConfig;
  setFaults(patch: Partial<FaultConfig>): FaultConfig;
  resetFaults(): FaultConfig;
  /**
   * Holds the next request to `endpoint` on the way until released, then handles (applies) it as if it
   * had just arrived — a request that lands after its client gave up (faults.ts, hold).
   */
  hold(endpoint: EndpointName): HeldRequest;
  /**
   * Every refund request handled since start (copies), with arrival and answer times: count overlaps
   * with overlappingRefundRequests, refusals over the remainder with `overRemainder`. Not persisted.
   */
  refundRequests(): RefundRequestEntry[];
  /** Read-only views of the state (copies). */
  state: {
    counts(): { payments: number; refunds: number; customers: number; vaults: number };
    payment(transactionNo: string): PaymentRecord | undefined;
    refund(refundTransactionNo: string): RefundRecord | undefined;
    snapshot(): SandboxData;
  };
  /** Plays the payer for an open payment (e.g. terminal=YIP). False when it was not open. */
  completePayment(transactionNo: string, outcome: PaymentOutcome): boolean;
  /** Writes the data file now (no-op without dataFile). */
  flush(): Promise<void>;
}

const SWEEP_MS = 15_000;

/** Starts a sandbox and resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const loaded = opts.dataFile ? await loadData(opts.dataFile) : undefined;
  const seed = loaded?.seed ?? opts.seed ?? 42;
  // The day the seeded data is of: the start's, whenever it is generated.
  const startedAt = now();

  let persister: Persister | undefined;
  let built: Store | undefined;
  // Held by a getter (ctx.store and everything else read it through `store()`): a fresh sandbox's data
  // — thousands of payments — is generated on its first use (a request, an accessor, the sweep) rather
  // than before it listens, so a host that starts one (the app's Demo) is ready that much sooner. Nothing
  // can read the store before it is complete: whatever reads it builds it first, synchronously. Pending
  // refunds (seeded or loaded) are taken up again then too.
  const store = (): Store => {
    if (built) return built;
    const data = loaded ?? generateSeed(seed, opts.transactions ?? 2000, startedAt);
    built = new Store(data, () => persister?.schedule());
    if (persister && !loaded) persister.schedule();
    refunds.resumePending();
    return built;
  };
  if (opts.dataFile) persister = createPersister(opts.dataFile, () => store().snapshot(), { log });
  const faults = new FaultInjector(seed, {
    ...opts.faults,
    ...(opts.refundFailRate !== undefined ? { refundFailRate: opts.refundFailRate } : {}),
  });
  const ids = createIdFactory(seed, (id) => store().isTaken(id));
  const ipn = createIpnDispatcher({
    ...(opts.ipnSchedule ? { schedule: opts.ipnSchedule } : {}),
    faults,
    log,
  });
  const merchants: readonly Merchant[] = MERCHANTS;
  const refunds = createRefundEngine({
    get store() {
      return store();
    },
    ids,
    faults,
    ipn,
    merchants,
    now,
    settleMs: opts.refundSettleMs ?? 5_000,
  });
  const refundRequests = createRefundRequestLog();
  let baseUrl = '';
  const ctx: SandboxContext = {
    get store() {
      return store();
    },
    ids,
    faults,
    ipn,
    refunds,
    refundRequests,
    merchants,
    now,
    baseUrl: () => baseUrl,
    log,
  };
  const adminSecret = opts.adminSecret ?? randomBytes(16).toString('hex');
  const server = createSandboxServer(ctx, adminSecret);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;
  const sweeper = setInterval(() => closeExpired(ctx), SWEEP_MS);
  sweeper.unref();

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    port: address.port,
    adminSecret,
    merchants: merchants.map((m) => ({ ...m, storeNos: [...m.storeNos] })),
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        ipn.close();
        refunds.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await persister?.flush();
      })();
      return closing;
    },
    ipnLog: () => ipn.log(),
    ipnIdle: () => ipn.idle(),
    faults: () => faults.config(),
    setFaults: (patch) => faults.update(patch),
    resetFaults: () => faults.reset(),
    hold: (endpoint) => faults.hold(endpoint),
    refundRequests: () => refundRequests.entries(),
    state: {
      counts: () => store().counts(),
      payment: (no) => {
        const p = store().payment(no);
        return p && structuredClone(p);
      },
      refund: (no) => {
        const r = store().refund(no);
        return r && structuredClone(r);
      },
      snapshot: () => structuredClone(store().snapshot()),
    },
    completePayment(transactionNo, outcome) {
      const p = store().payment(transactionNo);
      return p ? completePayment(ctx, p, outcome) : false;
    },
    flush: async () => {
      await persister?.flush();
    },
  };
}
