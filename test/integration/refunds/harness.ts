import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSortableId } from '../../../shared/domain/ids';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { processIdentity } from '../../../electron/core/adapters/process-identity';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import {
  createRefundService,
  type RefundContext,
  type RefundServiceDeps,
} from '../../../electron/core/services/refunds/service';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import { createFakeLogger } from '../../fakes/logger';

export const DEMO_CONTEXT: RefundContext = {
  profileId: 'demo',
  profileName: 'Demo',
  environment: 'demo',
  baseUrl: 'http://127.0.0.1:0',
  merchantNo: DEMO_MERCHANT.merchantNo,
  storeNo: DEMO_MERCHANT.storeNo,
  operator: 'test operator',
  guardrails: { limits: [] },
};

export function startRefundSandbox(): Promise<RunningSandbox> {
  return startSandbox({ seed: 11, transactions: 200, refundSettleMs: 30, ipnSchedule: [10] });
}

/**
 * A refund service wired to the real gateway over HTTP and the app database in `dir` (a real SQLite
 * file; reopening it is a restart, and two of them on one `dir` are two processes' worth of desks).
 */
export function buildRefunds(
  sandbox: Pick<RunningSandbox, 'baseUrl'>,
  dir = mkdtempSync(join(tmpdir(), 'rd-refunds-')),
  ctx: Partial<RefundContext> = {},
  timeoutMs = 3000,
  extra: Partial<RefundServiceDeps> = {},
  /** The store's clock (leases): a later one sees every other sender's lease as expired. */
  storageNow: () => number = Date.now,
) {
  const log = createFakeLogger();
  // As the app's core does at start: the files of earlier versions are imported (no profiles here).
  const storage = openAppStorage({ dataDir: dir, now: storageNow, log, baseUrlFor: () => undefined });
  const gateway = createGatewayClient({
    http: createFetchHttpClient(),
    clock: { now: Date.now },
    log,
    config: () => ({
      baseUrl: sandbox.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      token: DEMO_MERCHANT.token,
    }),
    timeoutMs,
    retry: { retries: 1, baseDelayMs: 5, maxDelayMs: 10 },
  });
  const store = refundStoreOn(storage.intents);
  const service = createRefundService({
    gatewayFor: () => gateway,
    store,
    clock: { now: Date.now },
    log,
    context: () => ({ ...DEMO_CONTEXT, baseUrl: sandbox.baseUrl, ...ctx }),
    // Every desk built here is for the same merchant account: like the app's profiles for one account.
    belongsTo: (i) => i.merchantNo === DEMO_CONTEXT.merchantNo && i.storeNo === DEMO_CONTEXT.storeNo,
    ownerOf: () => undefined,
    newId: () => newSortableId('RD'),
    sender: processIdentity().sender,
    // Short leases: a killed sender's refund is taken over within a second.
    leaseMs: 600,
    untrusted: storage.untrusted,
    ...extra,
  });
  return { service, storage, store, log, dir, gateway, close: () => storage.close() };
}

/** A successful demo payment with nothing refunded yet. */
export function freshPayment(sandbox: RunningSandbox, used: Set<string>, currency = 'USD') {
  const p = sandbox.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.status === 'success' &&
        x.refunds.length === 0 &&
        x.currency === currency &&
        !used.has(x.transactionNo) &&
        x.amountMinor >= 1000,
    );
  if (!p) throw new Error('no fresh payment in the seed');
  used.add(p.transactionNo);
  return p;
}

/** What every test submit carries besides the payment: the profile (the harness has one), a reason. */
export const reason = {
  profileId: DEMO_CONTEXT.profileId,
  reasonCode: 'customer_request',
  reasonNote: 'test',
  confirmation: {},
};
