import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/main/sandbox/index';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

const atService = (txNo: string) => sb.state.snapshot().refunds.filter((r) => r.transactionNo === txNo);
const newDir = () => mkdtempSync(join(tmpdir(), 'rd-shared-'));

describe('one journal shared by several desks (app profiles, CLI runs)', () => {
  it('an unresolved refund from one desk blocks another desk for the same merchant account', async () => {
    const dir = newDir();
    const app = buildRefunds(sb, dir, { profileId: 'P-app' });
    const cli = buildRefunds(sb, dir, { profileId: 'cli:200043:300014' });
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    try {
      expect(
        (
          await app.service.submit({
            transactionNo: p.transactionNo,
            amountMinor: 100,
            currency: p.currency,
            ...reason,
          })
        ).state,
      ).toBe('outcome_unknown');
    } finally {
      sb.resetFaults();
    }
    await expect(
      cli.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
        ...reason,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(atService(p.transactionNo)).toHaveLength(0);
  });

  it('an accepted refund from one desk counts against what another desk may refund', async () => {
    const dir = newDir();
    const a = buildRefunds(sb, dir, { profileId: 'P-one' });
    const b = buildRefunds(sb, dir, { profileId: 'P-two' });
    const p = freshPayment(sb, used);
    await a.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: p.amountMinor - 100,
      currency: p.currency,
      ...reason,
    });
    await expect(
      b.service.submit({ transactionNo: p.transactionNo, amountMinor: 101, currency: p.currency, ...reason }),
    ).rejects.toMatchObject({ code: 'conflict', details: { remainingMinor: 100 } });
    expect(
      (
        await b.service.submit({
          transactionNo: p.transactionNo,
          amountMinor: 100,
          currency: p.currency,
          ...reason,
        })
      ).state,
    ).toBe('accepted');
  });

  it('concurrent submits from two desks on one payment give at most the amount', async () => {
    const dir = newDir();
    const desks = [
      buildRefunds(sb, dir, { profileId: 'A' }),
      buildRefunds(sb, dir, { profileId: 'B' }),
      buildRefunds(sb, dir, { profileId: 'C' }),
    ];
    const p = freshPayment(sb, used);
    const half = Math.ceil(p.amountMinor / 2) + 1;
    await Promise.allSettled(
      desks.map((d) =>
        d.service.submit({
          transactionNo: p.transactionNo,
          amountMinor: half,
          currency: p.currency,
          ...reason,
        }),
      ),
    );
    expect(atService(p.transactionNo)).toHaveLength(1);
  });
});

describe('damage and failures that must not free a payment', () => {
  it('a damaged `sent` line after restart means unknown (resolved by query), never "nothing was sent"', async () => {
    const dir = newDir();
    const first = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    await first.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    first.close();
    // Keep only the `created` line intact; damage the `sent` line; drop the rest (as if the host died).
    const file = join(dir, 'refund-journal.jsonl');
    const [created, sent] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${created}\n${sent!.replace('"sent"', '"sEnt"')}\n`);
    const restarted = buildRefunds(sb, dir);
    expect(restarted.service.journalProblems()).toHaveLength(1);
    const [resumed] = await restarted.service.resumeAll();
    expect(resumed).toMatchObject({
      state: expect.stringMatching(/accepted|succeeded/),
      lastCheck: { found: true },
    });
  });

  it('a damaged `created` line: the `sent` line alone still describes the refund', async () => {
    const dir = newDir();
    const first = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    const intent = await first.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    first.close();
    const file = join(dir, 'refund-journal.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0]!.replace('"created"', '"crEated"'), ...lines.slice(1)].join('\n'));
    const restarted = buildRefunds(sb, dir);
    expect(restarted.service.get(intent.id)).toMatchObject({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      state: 'accepted',
    });
  });

  it('a refund provably never sent (connection refused) is rejected, and does not block the payment', async () => {
    const dir = newDir();
    // A port nobody listens on: connection refused before any byte of the request left.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const dead = buildRefunds({ baseUrl: `http://127.0.0.1:${port}` } as RunningSandbox, dir);
    const live = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    // Pre-checks pass against the live service, then the refund itself goes to the closed port.
    const mixed = buildRefunds(sb, dir);
    Object.assign(mixed.gateway, { refund: dead.gateway.refund });
    const intent = await mixed.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    expect(intent.state).toBe('rejected');
    expect(
      (
        await live.service.submit({
          transactionNo: p.transactionNo,
          amountMinor: 100,
          currency: p.currency,
          ...reason,
        })
      ).state,
    ).toBe('accepted');
  });

  it('concurrent follow-ups of one refund record its final status once', async () => {
    const dir = newDir();
    const d = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    const intent = await d.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    await new Promise((r) => setTimeout(r, 100)); // the sandbox settles refunds after 30 ms
    await Promise.all([
      d.service.track(),
      d.service.track(),
      d.service.checkAgain(intent.id),
      d.service.track(),
    ]);
    expect(d.service.get(intent.id)?.state).toBe('succeeded');
    expect(
      d.service.audit().filter((e) => e.intentId === intent.id && e.outcome === 'succeeded'),
    ).toHaveLength(1);
    d.close();
    appendFileSync(join(dir, 'noop'), '');
    expect(buildRefunds(sb, dir).service.journalProblems()).toEqual([]);
  });
});
