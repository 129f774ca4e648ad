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
 * app core over IPC: profiles.save → refunds runtime → closePolicy), never below the floor of 3 checks
 * over 120 minutes (a policy below it cannot be saved), and a save that gives only the limits keeps
 * that policy. The desk's clock is the test's.
 */
const clock = { ms: Date.now() };
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
    now: () => clock.ms,
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
  demoId = core.profiles.profiles.active()!.id;
});
afterAll(() => core.close());

/** Saves the Demo profile as the Settings form does, with these guardrails. */
function saveDemoAnswer(guardrails: unknown) {
  const p = core.profiles.profiles.get(demoId);
  return core.dispatch('profiles.save', {
    id: p.id,
    name: p.name,
    environment: p.environment,
    merchantNo: p.merchantNo,
    storeNo: p.storeNo,
    ipnEnabled: p.ipnEnabled,
    guardrails,
  });
}
async function saveDemo(guardrails: unknown) {
  const r = await saveDemoAnswer(guardrails);
  if (!r.ok) throw new Error(`profiles.save: ${r.error.message}`);
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

/** Checks an intent again `times` times, `minutes` apart on the desk's clock. */
async function checkAgain(id: string, times: number, minutes: number) {
  for (let i = 0; i < times; i += 1) {
    clock.ms += minutes * 60_000;
    await call('refunds.checkAgain', { profileId: demoId, id });
  }
}

describe('close as not sent: the profile’s own policy, never below the floor', () => {
  it('with the defaults (3 checks over 120 minutes) an intent checked once cannot be closed', async () => {
    const intent = await unknownRefund();
    expect(await close(intent.id)).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/at least 3 time\(s\) over 120 minute\(s\)/),
      },
    });
  });

  it('a policy below the floor (1 check over 0 minutes) cannot be saved, and says why', async () => {
    const r = await saveDemoAnswer({ limits: [], unknownClose: { minChecks: 1, minMinutes: 0 } });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(
          /At least 3 checks: .*At least 120 minutes \(2 hours\): the payment service keeps working on a request for up to 2 hours/,
        ),
      },
    });
    expect(core.profiles.profiles.get(demoId).guardrails?.unknownClose).not.toEqual({
      minChecks: 1,
      minMinutes: 0,
    });
  });

  it('at the floor, the intent is closed once checked 3 times over 120 minutes', async () => {
    await saveDemo({ limits: [], unknownClose: { minChecks: 3, minMinutes: 120 } });
    const intent = await unknownRefund();
    await checkAgain(intent.id, 1, 60);
    expect(await close(intent.id)).toMatchObject({ ok: false });
    await checkAgain(intent.id, 1, 61);
    expect(await close(intent.id)).toMatchObject({ ok: true, value: { id: intent.id, state: 'refused' } });
  });

  it('saving only the limits keeps the policy; a stricter policy is then enforced', async () => {
    await saveDemo({ limits: [], unknownClose: { minChecks: 3, minMinutes: 120 } });
    await saveDemo({ limits: [{ currency: 'USD', maxSingleMinor: 100_000 }] });
    expect(core.profiles.profiles.get(demoId).guardrails).toEqual({
      limits: [{ currency: 'USD', maxSingleMinor: 100_000 }],
      unknownClose: { minChecks: 3, minMinutes: 120 },
    });
    const kept = await unknownRefund();
    await checkAgain(kept.id, 2, 61);
    expect(await close(kept.id)).toMatchObject({ ok: true });

    await saveDemo({ limits: [], unknownClose: { minChecks: 6, minMinutes: 120 } });
    const strict = await unknownRefund();
    await checkAgain(strict.id, 2, 61);
    expect(await close(strict.id)).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/at least 6 time\(s\) over 120 minute\(s\)/),
      },
    });
  });
});
