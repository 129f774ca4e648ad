/**
 * What main tells the screen about closing an unknown refund as not sent, before anybody types: when it
 * becomes possible under the intent's profile policy (the resolver's own rule), and, once closed, who
 * closed it and when — over the real gateway, the real SQLite journal and a clock the test moves.
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

describe('close as not sent, as the screen sees it', () => {
  it('says when it becomes possible and how many checks are missing, then who closed it', async () => {
    const clock = { ms: Date.now() };
    const ctx = { operator: 'Ana Lima' };
    const d = buildRefunds(sb, undefined, ctx, 3000, { clock: { now: () => clock.ms } });
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
    expect(intent.state).toBe('outcome_unknown');
    const possibleAt = new Date(Date.parse(intent.createdAt) + 120 * 60_000).toISOString();
    // The defaults raised to the floor: 3 checks that reached the service, over 120 minutes. One check
    // was made right after the 503.
    expect((await d.service.view(intent)).close).toEqual({
      possibleAt,
      checksNeeded: 2,
      minChecks: 3,
      minMinutes: 120,
    });
    expect(
      (await d.service.views(await d.service.list())).find((i) => i.id === intent.id)?.close?.checksNeeded,
    ).toBe(2);

    for (const left of [1, 0]) {
      clock.ms += 61 * 60_000;
      const again = await d.service.checkAgain('demo', intent.id);
      expect((await d.service.view(again)).close).toMatchObject({ possibleAt, checksNeeded: left });
    }

    // Closed by another person than the one who sent it: the screen and the audit name the closer.
    ctx.operator = 'Bo Chen';
    const closed = await d.service.closeNotSent('demo', intent.id, 'NOT SENT');
    const view = await d.service.view(closed);
    expect(view.close).toBeUndefined();
    expect(view.closedNotSent).toEqual({ by: 'Bo Chen', at: expect.any(String), checks: 4 });
    expect(Date.parse(view.closedNotSent!.at)).toBe(clock.ms);
    const entry = (await d.service.audit()).find(
      (e) => e.intentId === intent.id && e.outcome === 'closed_not_sent',
    );
    expect(entry?.operator).toBe('Bo Chen');
    expect(
      (await d.service.views(await d.service.list())).find((i) => i.id === intent.id)?.closedNotSent?.by,
    ).toBe('Bo Chen');
    d.close();
  });

  it('follows the profile’s own policy as main enforces it (never below the floor), and says nothing for a refund that is not unknown', async () => {
    const clock = { ms: Date.now() };
    let policy = { minChecks: 1, minMinutes: 0 };
    const d = buildRefunds(sb, undefined, {}, 3000, {
      clock: { now: () => clock.ms },
      closePolicy: () => policy,
    });
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
    // A stored policy below the floor is raised, as the resolver raises it.
    expect((await d.service.view(intent)).close).toEqual({
      possibleAt: new Date(Date.parse(intent.createdAt) + 120 * 60_000).toISOString(),
      checksNeeded: 2,
      minChecks: 3,
      minMinutes: 120,
    });
    policy = { minChecks: 5, minMinutes: 240 };
    expect((await d.service.view(intent)).close).toEqual({
      possibleAt: new Date(Date.parse(intent.createdAt) + 240 * 60_000).toISOString(),
      checksNeeded: 4,
      minChecks: 5,
      minMinutes: 240,
    });
    const fine = await d.service.submit({
      transactionNo: freshPayment(sb, used).transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    expect(await d.service.view(fine)).toEqual(fine);
    d.close();
  });
});
