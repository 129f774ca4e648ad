/**
 * The way out of "unknown": an intent the service still does not list after enough checks over enough
 * time may be closed as not sent — typed confirmation, one more query first, an audit entry with the
 * evidence — and the payment is refundable again. Never when the reference appears.
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
        /at least 3 time\(s\) over 30 minute\(s\).*1 check\(s\) reached the service so far, 0 minute/,
      ),
    });
    expect((await d.service.get(intent.id))!.state).toBe('outcome_unknown');
  });

  it('after 3 checks over 30 minutes: one more query, closed with the evidence in the audit, the payment refundable again', async () => {
    const { d, p, intent, clock } = await unknownRefund();
    for (let i = 0; i < 2; i += 1) {
      clock.ms += 16 * 60_000;
      const again = await d.service.checkAgain('demo', intent.id);
      expect(again.lastCheck).toMatchObject({ found: false });
    }
    const closed = await d.service.closeNotSent('demo', intent.id, 'not sent');
    expect(closed.state).toBe('refused');
    expect(closed.detail).toMatch(
      /^Closed as not sent by test operator at .* after 4 checks over 32 minute\(s\)/,
    );
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
      clock.ms += 16 * 60_000;
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
