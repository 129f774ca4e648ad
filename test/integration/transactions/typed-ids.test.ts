import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { newSortableId } from '../../../shared/domain/ids';
import { createFakeLogger } from '../../fakes/logger';
import { gatewayFor, refundablePayment } from '../gateway/helpers';

/**
 * Ids as people type them, through main's IPC dispatch (contract + look-up) to the embedded sandbox over
 * real HTTP: the same rule as the search box (shared/domain/id-kind.ts).
 */
let core: AppCore;
let profileId: string;

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-typed-ids-')),
    log: createFakeLogger(),
    demo: { transactions: 60 },
    gateway: { timeoutMs: 2_000, retry: { retries: 0 } },
  });
  profileId = core.profiles.profiles.active()!.id;
});
afterAll(async () => {
  await core.close();
});

const lookup = (query: string, candidates?: string[]) =>
  core.dispatch('transactions.lookup', { profileId, query, ...(candidates ? { candidates } : {}) });

describe('typed ids, main against the sandbox', () => {
  it('an 18-digit transaction number typed in groups of four is found', async () => {
    const p = refundablePayment(core.demoSandbox()!);
    const grouped = p.transactionNo.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(grouped).toContain(' ');
    expect(await lookup(grouped)).toMatchObject({
      ok: true,
      value: { kind: 'transactionNo', transaction: { transactionNo: p.transactionNo } },
    });
  });

  it('this desk’s refund reference typed in lower case is found on the payment it belongs to', async () => {
    const sandbox = core.demoSandbox()!;
    const p = refundablePayment(sandbox, 1);
    // A refund sent as this desk sends them: its reference is an RD… intent id, in upper case.
    const reference = newSortableId('RD');
    const sent = await gatewayFor(sandbox).refund({
      transactionNo: p.transactionNo,
      refundAmountMinor: 100,
      currency: p.currency,
      settleCurrency: p.settleCurrency ?? p.currency,
      refundReference: reference,
    });
    expect(await lookup(reference.toLowerCase(), [p.transactionNo])).toMatchObject({
      ok: true,
      value: {
        kind: 'refundReference',
        transaction: { transactionNo: p.transactionNo },
        matchedRefundTransactionNo: sent.refundTransactionNo,
      },
    });
  });

  it('grouped digits with one missing are refused with words that say so, before anything is asked', async () => {
    const p = refundablePayment(core.demoSandbox()!);
    const short = p.transactionNo.slice(0, 17).replace(/(\d{4})(?=\d)/g, '$1 ');
    const r = await lookup(short);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.message).toContain('18 digits');
  });
});
