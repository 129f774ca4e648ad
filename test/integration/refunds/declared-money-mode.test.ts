import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { DEMO_MERCHANT } from '../../../electron/sandbox/index';
import { createFakeLogger } from '../../fakes/logger';
import { refundablePayment } from '../gateway/helpers';

/**
 * A Custom profile at an address on this computer (here the embedded sandbox's, as a local simulator or
 * a tunnel would be): the whole core over IPC — profiles.save keeps what the person declared, and the
 * refund preview main computes is live money until they declare a simulator.
 */
let core: AppCore;
let taken = 0;

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-declared-mode-')),
    log: createFakeLogger(),
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
});
afterAll(() => core.close());

const local = () => core.demoSandbox()!.baseUrl;
const input = (over: Record<string, unknown>) => ({
  name: 'Local gateway',
  environment: 'custom',
  baseUrl: local(),
  merchantNo: DEMO_MERCHANT.merchantNo,
  storeNo: DEMO_MERCHANT.storeNo,
  ipnEnabled: false,
  ...over,
});
const previewMode = async (profileId: string) => {
  const p = refundablePayment(core.demoSandbox()!, taken++);
  return (await call<{ moneyMode: string }>('refunds.preview', { profileId, transactionNo: p.transactionNo }))
    .moneyMode;
};

describe('a Custom address on this computer: the money mode the person declares', () => {
  it('is live money until declared; a declared simulator is not; the declaration goes with the address', async () => {
    const saved = await call<{ id: string; loopbackMoneyMode?: string; operator?: string }>(
      'profiles.save',
      input({}),
    );
    // No operator name: every confirmation shows the account name main records instead.
    expect(saved.operator).toBe(userInfo().username);
    await call('profiles.setToken', { id: saved.id, token: DEMO_MERCHANT.token });
    expect(saved.loopbackMoneyMode).toBeUndefined();
    expect(await previewMode(saved.id)).toBe('live');

    const declared = await call<{ loopbackMoneyMode?: string }>(
      'profiles.save',
      input({ id: saved.id, loopbackMoneyMode: 'local' }),
    );
    expect(declared.loopbackMoneyMode).toBe('local');
    expect(await previewMode(saved.id)).toBe('local');

    // An edit that does not mention it keeps it while the address stays the same…
    const kept = await call<{ loopbackMoneyMode?: string; operator?: string }>(
      'profiles.save',
      input({ id: saved.id, operatorName: 'Ana' }),
    );
    expect(kept.loopbackMoneyMode).toBe('local');
    expect(kept.operator).toBe('Ana');
    // …and a remote address never carries one.
    const remote = await call<{ loopbackMoneyMode?: string }>(
      'profiles.save',
      input({ id: saved.id, baseUrl: 'https://pay.partner.example.com', loopbackMoneyMode: 'local' }),
    );
    expect(remote.loopbackMoneyMode).toBeUndefined();
  });
});
