import type { Currency } from '../../../shared/domain/currencies';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { rejectionError } from '../../../electron/core/services/gateway/errors';
import { openDatabase, translate } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../../electron/core/adapters/sqlite/intent-store';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

const atService = (txNo: string) => sb.state.snapshot().refunds.filter((r) => r.transactionNo === txNo);
const newDir = () => mkdtempSync(join(tmpdir(), 'rd-shared-'));
/** One refund of `amountMinor` of payment `p` through `desk`. */
const submit = (
  desk: ReturnType<typeof buildRefunds>,
  p: { transactionNo: string; currency: Currency },
  amountMinor: number,
) => desk.service.submit({ transactionNo: p.transactionNo, amountMinor, currency: p.currency, ...reason });

describe('one database shared by several desks (app profiles, CLI runs)', () => {
  it('an unresolved refund from one desk blocks another desk for the same merchant account', async () => {
    const dir = newDir();
    const app = buildRefunds(sb, dir, { profileId: 'P-app' });
    const cli = buildRefunds(sb, dir, { profileId: 'cli:200043:300014' });
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    try {
      expect((await submit(app, p, 100)).state).toBe('outcome_unknown');
    } finally {
      sb.resetFaults();
    }
    await expect(submit(cli, p, 100)).rejects.toMatchObject({ code: 'conflict' });
    expect(atService(p.transactionNo)).toHaveLength(0);
  });

  it('an accepted refund from one desk counts against what another desk may refund', async () => {
    const dir = newDir();
    const a = buildRefunds(sb, dir, { profileId: 'P-one' });
    const b = buildRefunds(sb, dir, { profileId: 'P-two' });
    const p = freshPayment(sb, used);
    await submit(a, p, p.amountMinor - 100);
    await expect(submit(b, p, 101)).rejects.toMatchObject({
      code: 'conflict',
      details: { remainingMinor: 100 },
    });
    expect((await submit(b, p, 100)).state).toBe('accepted');
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
    await Promise.allSettled(desks.map((d) => submit(d, p, half)));
    expect(atService(p.transactionNo)).toHaveLength(1);
  });
});

describe('one transaction decides, guarded transitions settle', () => {
  it("a refund accepted by another desk after this desk's fresh query is still counted", async () => {
    const dir = newDir();
    const a = buildRefunds(sb, dir, { profileId: 'A' });
    const b = buildRefunds(sb, dir, { profileId: 'B' });
    const p = freshPayment(sb, used);
    // B's fresh query is answered with what the service said BEFORE A's refund: the race the old
    // design lost (the query was taken outside the lock, and A's refund was counted nowhere).
    const stale = await b.gateway.queryTransaction({ transactionNo: p.transactionNo });
    await submit(a, p, p.amountMinor);
    await new Promise((r) => setTimeout(r, 100)); // A's refund settles: it is final, and still counts
    Object.assign(b.gateway, { queryTransaction: async () => stale });
    await expect(submit(b, p, 100)).rejects.toMatchObject({
      code: 'conflict',
      details: { remainingMinor: 0, moneyMoved: 'no' },
    });
    expect(atService(p.transactionNo)).toHaveLength(1);
  });

  it('a resolver never turns a live sender\'s refund into "unknown"; the sender\'s rejection is kept', async () => {
    const dir = newDir();
    const sender = buildRefunds(sb, dir, {}, 5000);
    const resolver = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    // The service takes its time, then refuses the refund outright (000023, a bad value).
    Object.assign(sender.gateway, {
      refund: async () => {
        await new Promise((r) => setTimeout(r, 400));
        throw rejectionError('refund', '000023', 'refundAmount is not valid');
      },
    });
    try {
      const sending = submit(sender, p, 100);
      await new Promise((r) => setTimeout(r, 150));
      const [inFlight] = await resolver.service.list();
      expect(inFlight!.state).toBe('sending');
      // Another window's start-up resume and a Check again while the sender is still waiting.
      await resolver.service.resumeAll();
      expect((await resolver.service.checkAgain('demo', inFlight!.id)).state).toBe('sending');
      expect((await sending).state).toBe('rejected');
    } finally {
      sb.resetFaults();
    }
    expect((await resolver.service.list())[0]!.state).toBe('rejected');
  });

  it("the sender's late answer still applies after a resolver marked its refund unknown", async () => {
    const dir = newDir();
    const p = freshPayment(sb, used);
    // The sender's lease has run out as the resolver sees it (its clock is a minute ahead): as if the
    // sender had hung or its machine had gone away.
    const sender = buildRefunds(sb, dir, {}, 5000, { sender: 'this-host-does-not-exist:1' });
    const resolver = buildRefunds(sb, dir, {}, 3000, {}, () => Date.now() + 60_000);
    sb.setFaults({ endpoints: { refund: { latencyMs: 400 } } });
    try {
      const sending = submit(sender, p, 100);
      await new Promise((r) => setTimeout(r, 150));
      const [inFlight] = await resolver.service.list();
      const checked = await resolver.service.checkAgain('demo', inFlight!.id);
      expect(checked.state).toBe('outcome_unknown');
      expect(checked.lastCheck?.found).toBe(false);
      expect((await sending).state).toMatch(/accepted|succeeded/);
    } finally {
      sb.resetFaults();
    }
    const events = (await resolver.store.get((await resolver.service.list())[0]!.id))!;
    expect(events.refundTransactionNo).toMatch(/^\d+$/);
    expect(atService(p.transactionNo)).toHaveLength(1);
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
    const intent = await submit(mixed, p, 100);
    expect(intent.state).toBe('rejected');
    expect((await submit(live, p, 100)).state).toBe('accepted');
  });

  it('concurrent follow-ups of one refund record its final status once', async () => {
    const dir = newDir();
    const d = buildRefunds(sb, dir);
    const other = buildRefunds(sb, dir);
    const p = freshPayment(sb, used);
    const intent = await submit(d, p, 100);
    await new Promise((r) => setTimeout(r, 100)); // the sandbox settles refunds after 30 ms
    await Promise.all([
      d.service.track(),
      other.service.track(),
      d.service.checkAgain('demo', intent.id),
      other.service.checkAgain('demo', intent.id),
      d.service.track(),
    ]);
    expect((await d.service.get(intent.id))?.state).toBe('succeeded');
    expect(
      (await d.service.audit()).filter((e) => e.intentId === intent.id && e.outcome === 'succeeded'),
    ).toHaveLength(1);
  });
});

describe('storage faults are told as they are', () => {
  /** A desk whose store uses a connection the test can reach, to put SQLite itself in a fault state. */
  function deskWithConnection() {
    const dir = newDir();
    const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
    const store = refundStoreOn(createSqliteIntentStore(db, { now: Date.now }));
    return { db, store, desk: buildRefunds(sb, dir, {}, 3000, { store }) };
  }

  it('a read-only database before sending: refused with the cause, nothing sent, nothing recorded', async () => {
    const { db, desk } = deskWithConnection();
    const p = freshPayment(sb, used);
    db.run('PRAGMA query_only = ON'); // SQLite answers SQLITE_READONLY to every write, as on a read-only folder
    await expect(submit(desk, p, 100)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(
        /could not record the refund before sending it: the data folder is read-only.*Nothing was sent/s,
      ),
      details: { moneyMoved: 'no' },
    });
    expect(atService(p.transactionNo)).toHaveLength(0);
    db.run('PRAGMA query_only = OFF');
    expect(await desk.service.list()).toHaveLength(0);
  });

  it('a full disk after the service accepted: "money moved", never "nothing was sent"; the payment stays blocked', async () => {
    const { db, store, desk } = deskWithConnection();
    const p = freshPayment(sb, used);
    // The decision commits; then every later write fails as SQLite does on a full disk (SQLITE_FULL).
    const full = Object.assign(new Error('database or disk is full'), { errcode: 13 });
    const failing = {
      ...store,
      transition: () => {
        throw translate(full, db.path);
      },
    };
    const d = buildRefunds(sb, desk.dir, {}, 3000, { store: failing });
    await expect(submit(d, p, 100)).rejects.toMatchObject({
      code: 'outcome_unknown',
      message: expect.stringMatching(
        /accepted refund \d+, but Refund Desk could not record it \(the disk is full\)/,
      ),
      details: { moneyMoved: 'yes' },
    });
    expect(atService(p.transactionNo)).toHaveLength(1);
    // Still `sending` in the database: a second refund of this payment is refused until it is resolved.
    await expect(submit(desk, p, 100)).rejects.toMatchObject({ code: 'conflict' });
  });
});
