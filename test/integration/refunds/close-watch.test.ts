/**
 * Issue 24: "Close as not sent" closed a refund that was still on its way, and then it was paid twice.
 * The whole app core (IPC dispatch, the refunds runtime and its background watch, a real SQLite file)
 * against the embedded sandbox over real HTTP. The first refund request is held on the way (it lands
 * only when the test releases it) and the client gives up after 1.5 s; the desk's clock is the test's.
 *
 *   unknown → closing it under the floor is refused, with the reason → at the floor it is closed → a
 *   new refund → the held request lands (both applied at the service) → the watch finds the reference →
 *   the closed intent becomes the refund it was, counted, audited, pushed → a refund that would
 *   over-refund is refused.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AuditEntry, Intent } from '../../../shared/domain/refund-intent';
import { createFakeLogger } from '../../fakes/logger';
import { refundablePayment } from '../gateway/helpers';

const MINUTE = 60_000;
/**
 * The desk's clock starts at the last 08:00 local time that has passed, so the test's two hours stay
 * inside one local day: the day's refund total is counted per local day, and a start at 22:00 would put
 * the first refund in yesterday's total (CI ran it at 22:00 and saw half the total).
 */
function lastMorning(now: number): number {
  const d = new Date(now);
  d.setHours(8, 0, 0, 0);
  if (d.getTime() > now) d.setDate(d.getDate() - 1);
  return d.getTime();
}
const clock = { ms: lastMorning(Date.now()) };
let core: AppCore;
let demoId: string;

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-close-watch-')),
    log: createFakeLogger(),
    now: () => clock.ms,
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
  demoId = core.profiles.profiles.active()!.id;
});
afterAll(() => core.close());

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}

const submit = (transactionNo: string, amountMinor: number) =>
  core.dispatch('refunds.submit', {
    profileId: demoId,
    transactionNo,
    amountMinor,
    currency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: 'close watch test',
    confirmation: {},
  });

/** The next `refunds.updated` push of intent `id` that satisfies `ok`. */
function pushed(id: string, ok: (i: Intent) => boolean): Promise<Intent> {
  return new Promise((resolve) => {
    const off = core.events.subscribe((event, payload) => {
      const i = payload as Intent;
      if (event === 'refunds.updated' && i.id === id && ok(i)) {
        off();
        resolve(i);
      }
    });
  });
}

describe('a refund held on the way, closed as not sent, that lands later', () => {
  it('cannot be closed before the floor; once closed it is watched, found, counted again, and the over-refund is refused', async () => {
    const sandbox = core.demoSandbox()!;
    const p = refundablePayment(sandbox, 0);
    // 4.00 + 4.00 on a 10.00 payment in the issue: two fit, a third does not.
    const part = Math.floor((p.amountMinor * 2) / 5);

    const held = sandbox.hold('refund');
    const first = await call<Intent>('refunds.submit', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      amountMinor: part,
      currency: 'USD',
      reasonCode: 'customer_request',
      reasonNote: 'close watch test',
      confirmation: {},
    });
    await held.arrived;
    expect(first.state).toBe('outcome_unknown'); // timed out; checked once: not listed (still on its way)
    expect(first.lastCheck).toMatchObject({ found: false });

    // At once (1 check, 0 minutes: what the policy allowed): refused, and the reason given.
    const early = await core.dispatch('refunds.closeNotSent', {
      profileId: demoId,
      id: first.id,
      confirmation: 'NOT SENT',
    });
    expect(early).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(
          /at least 3 time\(s\) over 120 minute\(s\).*1 check\(s\) reached the service so far, 0 minute\(s\).*up to 2 hours after it was sent; closing it sooner could pay it twice/,
        ),
      },
    });
    // Still under the floor after 3 checks over 61 minutes.
    clock.ms += 30 * MINUTE;
    await call('refunds.checkAgain', { profileId: demoId, id: first.id });
    clock.ms += 31 * MINUTE;
    await call('refunds.checkAgain', { profileId: demoId, id: first.id });
    expect(
      await core.dispatch('refunds.closeNotSent', {
        profileId: demoId,
        id: first.id,
        confirmation: 'NOT SENT',
      }),
    ).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/3 check\(s\) reached.*61 minute/) },
    });

    // At the floor: closed, and watched from now on.
    clock.ms += 60 * MINUTE;
    const closed = await call<Intent>('refunds.closeNotSent', {
      profileId: demoId,
      id: first.id,
      confirmation: 'NOT SENT',
    });
    expect(closed).toMatchObject({ state: 'refused', closedNotSentAt: new Date(clock.ms).toISOString() });
    expect(closed.detail).toMatch(/keeps asking the service for it until/);

    // The clerk refunds again, as the person believes nothing was sent.
    const second = await call<Intent>('refunds.submit', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      amountMinor: part,
      currency: 'USD',
      reasonCode: 'customer_request',
      reasonNote: 'close watch test, again',
      confirmation: {},
    });
    expect(second.state).toMatch(/accepted|succeeded/);

    // The first request lands at last: the service applies it too.
    await held.release();
    const atService = sandbox.state.payment(p.transactionNo)!.refunds.map((no) => sandbox.state.refund(no)!);
    expect(atService.map((r) => r.refundReference).sort()).toEqual([first.id, second.id].sort());

    // The runtime's watch asks again once its interval has passed, finds the reference and says so.
    const found = pushed(first.id, (i) => i.state === 'accepted' || i.state === 'succeeded');
    clock.ms += 3 * MINUTE;
    const after = await found;
    const sandboxRefund = atService.find((r) => r.refundReference === first.id)!;
    expect(after).toMatchObject({
      closedNotSentAt: closed.closedNotSentAt,
      refundTransactionNo: sandboxRefund.refundTransactionNo,
      detail: expect.stringMatching(/^Closed as not sent at .*, but the service has it: refund \d+ of /),
    });
    const audit = await call<AuditEntry[]>('audit.list', { profileId: demoId });
    expect(audit.find((e) => e.intentId === first.id && e.outcome === 'found_after_close')).toMatchObject({
      refundTransactionNo: sandboxRefund.refundTransactionNo,
    });

    // Counted again: in the day's total and in what remains.
    const preview = await call<{ remainingMinor: number; todayTotalMinor: number }>('refunds.preview', {
      profileId: demoId,
      transactionNo: p.transactionNo,
    });
    expect(preview.todayTotalMinor).toBe(2 * part);
    expect(preview.remainingMinor).toBe(p.amountMinor - 2 * part);

    // A refund that would over-refund is refused; nothing was sent.
    expect(await submit(p.transactionNo, part)).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/remains refundable.*Nothing was sent/) },
    });
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toHaveLength(2);
  });
});
