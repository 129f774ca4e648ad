import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSortableId } from '../../../shared/domain/ids';
import { openJsonlFile } from '../../../electron/main/adapters/jsonl-file';
import { createFetchHttpClient } from '../../../electron/main/adapters/http-fetch';
import { createGatewayClient } from '../../../electron/main/services/gateway/client';
import { type AuditEntry, createAuditLog } from '../../../electron/main/services/refunds/audit';
import type { IntentEvent } from '../../../electron/main/services/refunds/intent';
import { createIntentJournal } from '../../../electron/main/services/refunds/journal';
import { createRefundService, type RefundContext } from '../../../electron/main/services/refunds/service';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/main/sandbox/index';
import { createFakeLogger } from '../../fakes/logger';

export const DEMO_CONTEXT: RefundContext = {
  profileId: 'demo',
  profileName: 'Demo',
  environment: 'demo',
  merchantNo: DEMO_MERCHANT.merchantNo,
  storeNo: DEMO_MERCHANT.storeNo,
  operator: 'test operator',
  guardrails: { limits: [] },
};

export function startRefundSandbox(): Promise<RunningSandbox> {
  return startSandbox({ seed: 11, transactions: 200, refundSettleMs: 30, ipnSchedule: [10] });
}

/** A refund service wired to the real gateway over HTTP and a journal in `dir` (reopenable = restart). */
export function buildRefunds(
  sandbox: RunningSandbox,
  dir = mkdtempSync(join(tmpdir(), 'rd-refunds-')),
  ctx: Partial<RefundContext> = {},
  timeoutMs = 3000,
) {
  const log = createFakeLogger();
  const journalFile = openJsonlFile<IntentEvent>(join(dir, 'refund-journal.jsonl'));
  const auditFile = openJsonlFile<AuditEntry>(join(dir, 'audit.jsonl'));
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
  const journal = createIntentJournal(journalFile, log);
  const service = createRefundService({
    gatewayFor: () => gateway,
    journal,
    audit: createAuditLog(auditFile),
    clock: { now: Date.now },
    log,
    context: () => ({ ...DEMO_CONTEXT, ...ctx }),
    newId: () => newSortableId('RD'),
  });
  return {
    service,
    journal,
    log,
    dir,
    gateway,
    close: () => {
      journalFile.close();
      auditFile.close();
    },
  };
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

export const reason = { reasonCode: 'customer_request', reasonNote: 'test', confirmation: {} };
