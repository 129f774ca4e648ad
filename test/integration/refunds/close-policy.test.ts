import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { createFakeLogger } from '../../fakes/logger';
import { refundablePayment } from '../gateway/helpers';

/**
 * "Close as not sent" follows the policy of the refund's own profile, as saved in Settings (the whole
 * app core over IPC: profiles.save → refunds runtime → closePolicy), and a save that gives only the
 * limits keeps that policy.
 */
let core: AppCore;
let demoId: string;
let taken = 0;

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-close-policy-')),
    log: createFakeLogger(),
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
  demoId = core.profiles.profiles.active()!.id;
});
afterAll(() => core.close());

/** Saves the Demo profile as the Settings form does, with these guardrails. */
async function saveDemo(guardrails: unknown) {
  const p = core.profiles.profiles.get(demoId);
  await call('profiles.save', {
    id: p.id,
    name: p.name,
    environment: p.environment,
    merchantNo: p.merchantNo,
    storeNo: p.storeNo,
    ipnEnabled: p.ipnEnabled,
    guardrails,
  });
}

/** A refund whose outcome is unknown: the service answered 503, so nothing happened (checked once). */
async function unknownRefund(): Promise<{ id: string; checks: number }> {
  const sandbox = core.demoSandbox()!;
  // An unknown refund leaves its payment untouched at the service: take the next one each time.
  const p = refundablePayment(sandbox, taken++);
  sandbox.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
  try {
    const intent = await call<{ id: string; state: string; checks: number }>('refunds.submit', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      reasonCode: 'customer_request',
      reasonNote: 'close policy test',
      confirmation: {},
    });
    expect(intent.state).toBe('outcome_unknown');
    return intent;
  } finally {
    sandbox.resetFaults();
  }
}

const close = (id: string) =>
  core.dispatch('refunds.closeNotSent', { profileId: demoId, id, confirmation: 'NOT SENT' });

describe('close as not sent: the profile’s own policy', () => {
  it('with the defaults (3 checks over 30 minutes) an intent checked once cannot be closed', async () => {
    const intent = await unknownRefund();
    expect(await close(intent.id)).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/at least 3 time\(s\) over 30 minute\(s\)/) },
    });
  });

  it('a profile policy of 1 check over 0 minutes lets the same intent be closed at once', async () => {
    const intent = await unknownRefund();
    await saveDemo({ limits: [], unknownClose: { minChecks: 1, minMinutes: 0 } });
    expect(await close(intent.id)).toMatchObject({ ok: true, value: { id: intent.id } });
  });

  it('saving only the limits keeps the policy; a stricter policy is then enforced', async () => {
    await saveDemo({ limits: [], unknownClose: { minChecks: 1, minMinutes: 0 } });
    await saveDemo({ limits: [{ currency: 'USD', maxSingleMinor: 100_000 }] });
    expect(core.profiles.profiles.get(demoId).guardrails).toEqual({
      limits: [{ currency: 'USD', maxSingleMinor: 100_000 }],
      unknownClose: { minChecks: 1, minMinutes: 0 },
    });
    const kept = await unknownRefund();
    expect(await close(kept.id)).toMatchObject({ ok: true });

    await saveDemo({ limits: [], unknownClose: { minChecks: 6, minMinutes: 0 } });
    const strict = await unknownRefund();
    expect(await close(strict.id)).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/at least 6 time\(s\) over 0 minute\(s\)/) },
    });
  });
});
