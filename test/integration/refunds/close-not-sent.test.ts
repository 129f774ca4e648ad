/**
 * The way out of "unknown": an intent the service still does not list after enough checks over enough
 * time — never less than the floor, 3 checks over 120 minutes — may be closed as not sent: typed
 * confirmation, one more query first, an audit entry with the evidence, and the payment is refundable
 * again. Never when the reference appears. A closed intent is still watched: if the service lists it
 * later, it becomes the refund it was (issue 24).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

/** A desk on a clock the test moves, and a refund of `p` whose outcome is unknown (a 503: nothing happened). */
async function unknownRefund() {
  const clock = { ms: Date.now() };
  const d = buildRefunds(sb, undefined, {}, 3000, { clock: { now: () => clock.ms } });
  const p = freshPayment(sb, used);
  sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
  let intent;
  try {
    intent = await d.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
  } finally {
    sb.resetFaults();
  }
  expect(intent.state).toBe('outcome_unknown'); // one check made already, right after the 503
  return { d, p, intent, clock };
}

describe('close as not sent', () => {
  it('is refused before enough checks over enough time, and without the typed confirmation', async () => {
    const { d, intent } = await unknownRefund();
    await expect(d.service.closeNotSent('demo', intent.id, 'yes')).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(d.service.closeNotSent('demo', intent.id, 'NOT SENT')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        /at least 3 time\(s\) over 120 minute\(s\).*1 check\(s\) reached the service so far, 0 minute.*could pay it twice/,
      ),
    });
    expect((await d.service.get(intent.id))!.state).toBe('outcome_unknown');
  });

  it('after 3 checks over 120 minutes: one more query, closed with the evidence in the audit, the payment refundable again', async () => {
    const { d, p, intent, clock } = await unknownRefund();
    for (let i = 0; i < 2; i += 1) {
      clock.ms += 61 * 60_000;
      const again = await d.service.checkAgain('demo', intent.id);
      expect(again.lastCheck).toMatchObject({ found: false });
    }
    const closed = await d.service.closeNotSent('demo', intent.id, 'not sent');
    expect(closed.state).toBe('refused');
    expect(closed.detail).toMatch(
      /^Closed as not sent by test operator at .* after 4 checks over 122 minute\(s\)/,
    );
    expect(closed.closedNotSentAt).toBe(new Date(clock.ms).toISOString());
    const audit = (await d.service.audit()).find(
      (e) => e.intentId === intent.id && e.outcome === 'closed_not_sent',
    );
    expect(audit?.detail).toMatch(/none with reference RD/);
    const next = await d.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    expect(next.state).toMatch(/accepted|succeeded/);
  });

  it('is refused when the reference appears at the last query: the refund was sent after all', async () => {
    const { d, p, intent, clock } = await unknownRefund();
    for (let i = 0; i < 2; i += 1) {
      clock.ms += 61 * 60_000;
      await d.service.checkAgain('demo', intent.id);
    }
    // Meanwhile the service did apply a refund with this reference (a request that arrived late).
    const query = await d.gateway.queryTransaction({ transactionNo: p.transactionNo });
    const late = {
      refundTransactionNo: '900000000000000777',
      refundReference: intent.id,
      refundAmountMinor: 100,
      currency: p.currency,
      status: 'success' as const,
    };
    Object.assign(d.gateway, {
      queryTransaction: async () => ({ ...query, transaction: { ...query.transaction, refunds: [late] } }),
    });
    await expect(d.service.closeNotSent('demo', intent.id, 'NOT SENT')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        /lists this refund now \(as 900000000000000777\): it was sent, so it was not closed/,
      ),
    });
    expect((await d.service.get(intent.id))!.state).toMatch(/accepted|succeeded/);
    // A refund the service has listed is never closeable this way.
    await expect(d.service.closeNotSent('demo', intent.id, 'NOT SENT')).rejects.toMatchObject({
      code: 'conflict',
    });
  });
});

/** Checks again until the floor is met: 3 checks that reached the service, over 122 minutes. */
async function checkToFloor(
  d: ReturnType<typeof buildRefunds>,
  clock: { ms: number },
  id: string,
): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    clock.ms += 61 * 60_000;
    await d.service.checkAgain('demo', id);
  }
}

describe('the floor of the close policy', () => {
  it('a stored policy below the floor (1 check, 0 minutes) is raised to it, never trusted', async () => {
    const clock = { ms: Date.now() };
    const d = buildRefunds(sb, undefined, {}, 3000, {
      clock: { now: () => clock.ms },
      closePolicy: () => ({ minChecks: 1, minMinutes: 0 }),
    });
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    const intent = await d.service
      .submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: p.currency, ...reason })
      .finally(() => sb.resetFaults());
    expect(intent.state).toBe('outcome_unknown');
    await expect(d.service.closeNotSent('demo', intent.id, 'NOT SENT')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/at least 3 time\(s\) over 120 minute\(s\)/),
    });
    expect((await d.service.get(intent.id))!.state).toBe('outcome_unknown');
  });
});

describe('a refund closed as not sent stays watched', () => {
  it('is asked about on its interval (not sooner), by Check again at once, and no longer after a week', async () => {
    const { d, intent, clock } = await unknownRefund();
    await checkToFloor(d, clock, intent.id);
    const closed = await d.service.closeNotSent('demo', intent.id, 'NOT SENT');
    const checks = closed.checks;
    // Just closed (the last query was made when closing): not due yet.
    expect(await d.service.watchClosed()).toEqual([]);
    clock.ms += 3 * 60_000;
    const [watched] = await d.service.watchClosed();
    expect(watched).toMatchObject({ id: intent.id, state: 'refused', checks: checks + 1 });
    expect(watched!.lastCheck?.note).toMatch(/^Closed as not sent; still not listed: .* Watched until /);
    // Check again (or `check-refund`) on a closed refund asks the service now, whatever the interval.
    const again = await d.service.checkAgain('demo', intent.id);
    expect(again).toMatchObject({ state: 'refused', checks: checks + 2 });
    // After a week it is no longer watched.
    clock.ms += 7 * 24 * 60 * 60_000;
    expect(await d.service.watchClosed()).toEqual([]);
  });

  it('listed by the next refund’s fresh query: that refund is refused with the news, the closed one becomes the refund it was', async () => {
    const clock = { ms: Date.now() };
    // The client gives up after 1.5 s; the request is held on the way and lands when released.
    const d = buildRefunds(sb, undefined, {}, 1_500, { clock: { now: () => clock.ms } });
    const p = freshPayment(sb, used);
    const held = sb.hold('refund');
    const first = await d.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 300,
      currency: p.currency,
      ...reason,
    });
    expect(first.state).toBe('outcome_unknown');
    await checkToFloor(d, clock, first.id);
    await d.service.closeNotSent('demo', first.id, 'NOT SENT');
    await held.release();

    const retry = { transactionNo: p.transactionNo, amountMinor: 300, currency: p.currency, ...reason };
    await expect(d.service.submit(retry)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        new RegExp(
          `Refund ${first.id} of 3\\.00 USD, closed as not sent at .*, is listed by the service after all \\(as refund \\d+\\): that money was refunded\\..*Nothing was sent\\.$`,
        ),
      ),
      details: { moneyMoved: 'no', foundAfterClose: true },
    });
    const found = (await d.service.get(first.id))!;
    expect(found.state).toMatch(/accepted|succeeded/);
    expect(found.closedNotSentAt).toBeDefined();
    expect(sb.state.payment(p.transactionNo)!.refunds).toHaveLength(1);
    // Made knowing it, a further refund is decided as usual, the found one counted.
    const next = await d.service.submit(retry);
    expect(next.state).toMatch(/accepted|succeeded/);
    const preview = await d.service.preview('demo', p.transactionNo);
    expect(preview.remainingMinor).toBe(p.amountMinor - 600);
  });

  it('listed, but not as sent: unknown again, the payment blocked, and it can never be closed again', async () => {
    const { d, p, intent, clock } = await unknownRefund();
    await checkToFloor(d, clock, intent.id);
    await d.service.closeNotSent('demo', intent.id, 'NOT SENT');
    const query = await d.gateway.queryTransaction({ transactionNo: p.transactionNo });
    const other = {
      refundTransactionNo: '900000000000000888',
      refundReference: intent.id,
      refundAmountMinor: 999, // sent: 100
      currency: p.currency,
      status: 'success' as const,
    };
    Object.assign(d.gateway, {
      queryTransaction: async () => ({ ...query, transaction: { ...query.transaction, refunds: [other] } }),
    });
    clock.ms += 3 * 60_000;
    const [watched] = await d.service.watchClosed();
    expect(watched).toMatchObject({
      id: intent.id,
      state: 'outcome_unknown',
      detail: expect.stringMatching(
        /but the service lists refund 900000000000000888 .* for 9\.99 USD \(sent: 1\.00 USD\)/,
      ),
    });
    expect(
      (await d.service.audit()).find((e) => e.intentId === intent.id && e.outcome === 'found_after_close'),
    ).toBeDefined();
    await expect(
      d.service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: p.currency, ...reason }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/still unresolved/) });
    await expect(d.service.closeNotSent('demo', intent.id, 'NOT SENT')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/has listed this refund/),
    });
  });
});
