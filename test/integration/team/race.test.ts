/**
 * Desks on several machines race refunds through one team database (issue 26, "Done when": the
 * multi-desk race). Ten desk processes (race-desk.ts: the app core as the browser host and the CLI build
 * it) over two data directories, as two people with their own logins, share one real PostgreSQL; each
 * round every desk is armed with a refund of one of a few payments — full and partial amounts that
 * together exceed what is left — and all are released at once. Desks are killed with SIGKILL at seeded
 * points (while their own refund is out, or at a random moment) and restarted; once, mid-round, the
 * server itself is restarted with `pg_ctl restart -m immediate`. Then fresh resolver desks settle what
 * is left, and the figures are counted from the sandbox's own record of the requests it handled.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresIntentStore } from '../../../electron/core/adapters/postgres/intent-store';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import {
  DEMO_MERCHANT,
  overlappingRefundRequests,
  type RunningSandbox,
  startSandbox,
} from '../../../electron/sandbox/index';
import { startPostgres, type TestCluster } from '../../support/postgres';
import type { RaceDeskConfig } from './race-desk';

/** Another seed reproduces another run: REFUND_DESK_RACE_SEED=<n> npx vitest run test/integration/team/race.test.ts */
const SEED = Number(process.env['REFUND_DESK_RACE_SEED'] ?? 20_261_126);
const PEOPLE = { alice: 'Al1ce-race-pw!', bob: 'B0b-race-pw%' } as const;
/** Per data directory (one person's machine): app desks (background work on) and CLI desks. */
const APP_DESKS = 3;
const CLI_DESKS = 2;
const ROUNDS = 10;
const PAYMENTS = 5;
/** Short leases, so a killed sender's refund is taken over within the run (the app's is 15 s). */
const LEASE_MS = 1500;
/** Each refund request stays at the service this long: two racing requests would be there at once. */
const LATENCY_MS = 150;
const OPEN = ['sending', 'accepted', 'outcome_unknown'];
const MIN_RACING = 8;

/** Seeded choices (who dies when, which amount): the same run every time, bar the scheduler's timing. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Desk {
  cfg: RaceDeskConfig;
  child: ChildProcess;
  ready: boolean;
  exited: boolean;
  waiting: Map<string, (m: Record<string, unknown> | undefined) => void>;
}

/** Sends unless the desk has died (its `exit` may not have been seen yet: then its `next` says so). */
const send = (d: Desk, m: Record<string, unknown>) => {
  if (!d.exited && d.child.connected) d.child.send(m, () => undefined);
};

/** SIGKILL, and resolves once the process is gone; false when it had died already. */
const kill = (d: Desk) =>
  new Promise<boolean>((done) => {
    if (d.exited || !d.child.kill('SIGKILL')) return done(false);
    d.child.once('exit', () => done(true));
  });

/** The next message of `type` from the desk, or undefined once it has died. */
const next = (d: Desk, type: string) =>
  new Promise<Record<string, unknown> | undefined>((done) =>
    d.exited ? done(undefined) : d.waiting.set(type, done),
  );

const live = new Set<ChildProcess>();
function startDesk(cfg: RaceDeskConfig): Desk {
  const child = fork(resolve(import.meta.dirname, 'race-desk.ts'), [JSON.stringify(cfg)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  live.add(child);
  const d: Desk = { cfg, child, ready: false, exited: false, waiting: new Map() };
  child.on('message', (m: Record<string, unknown>) => {
    const w = d.waiting.get(String(m['type']));
    d.waiting.delete(String(m['type']));
    w?.(m);
  });
  child.on('exit', () => {
    d.exited = true;
    live.delete(child);
    for (const w of d.waiting.values()) w(undefined);
    d.waiting.clear();
  });
  void next(d, 'ready').then((m) => (d.ready = m !== undefined));
  return d;
}

let cluster: TestCluster;
let owner: string;
let sb: RunningSandbox;
beforeAll(async () => {
  cluster = await startPostgres();
  owner = await cluster.createDatabase('race');
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PEOPLE)) {
    await cluster.createLogin(login, pw);
    await addPerson({ connectionString: owner }, { login, role: 'maker', limits: [] });
  }
  sb = await startSandbox({ seed: 26, transactions: 300, refundSettleMs: 50 });
  // Slow refunds, and some answers lost after the refund was applied (the desk cannot tell what happened).
  sb.setFaults({ endpoints: { refund: { latencyMs: LATENCY_MS, dropAfterRate: 0.1 } } });
}, 90_000);
afterAll(async () => {
  for (const c of live) c.kill('SIGKILL');
  await sb?.close();
  cluster?.stop();
});

it(`${2 * (APP_DESKS + CLI_DESKS)} desks on 2 data directories, one PostgreSQL, kill -9 and a server crash: no two requests for a payment at the service at once, none refused there for exceeding what is left, nothing lost`, async () => {
  const random = rng(SEED);
  console.log(`[team race] seed ${SEED} (REFUND_DESK_RACE_SEED=${SEED} reproduces this run's choices)`);
  const payments = sb.state
    .snapshot()
    .payments.filter(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.currency === 'USD' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 2000,
    )
    .slice(0, PAYMENTS);
  expect(payments).toHaveLength(PAYMENTS);
  const ours = new Set(payments.map((p) => p.transactionNo));

  const dirs = [mkdtempSync(join(tmpdir(), 'rd-race-alice-')), mkdtempSync(join(tmpdir(), 'rd-race-bob-'))];
  const logins = Object.entries(PEOPLE);
  const configs: RaceDeskConfig[] = dirs.flatMap((dataDir, m) =>
    Array.from({ length: APP_DESKS + CLI_DESKS }, (_, k) => ({
      host: k < APP_DESKS ? ('browser' as const) : ('cli' as const),
      dataDir,
      databaseUrl: cluster.loginUrl(logins[m]![0], logins[m]![1], 'race'),
      deskId: `desk-${m + 1}-${k + 1}`,
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      token: DEMO_MERCHANT.token,
      leaseMs: LEASE_MS,
    })),
  );
  const t0 = Date.now();
  const desks = configs.map(startDesk);
  const until = Date.now() + 90_000;
  while (!desks.every((d) => d.ready) && Date.now() < until) {
    expect(desks.filter((d) => d.exited)).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(desks.every((d) => d.ready)).toBe(true);
  const tReady = Date.now();

  // The test's own connection: which process is sending right now (pool: it survives the server restart).
  const db = new pg.Pool({ connectionString: owner, max: 2 });
  db.on('error', () => undefined);
  /** The pids of the processes sending a refund right now (their intents' `host:pid`). */
  const sendingPids = async (): Promise<number[]> => {
    try {
      const r = await db.query<{ sender: string }>(
        `SELECT sender FROM refund_desk.intents WHERE state = 'sending' AND sender IS NOT NULL`,
      );
      return r.rows.map((x) => Number(x.sender.split(':').pop()));
    } catch {
      return []; // the server is restarting
    }
  };

  const tally = {
    rounds: 0,
    attempts: 0,
    outcomes: {} as Record<string, number>,
    kills: 0,
    killsWhileSending: 0,
    restarts: 0,
    serverRestarts: 0,
    fewest: Infinity,
  };
  // Mostly partial refunds, so a payment is refunded several times before nothing is left.
  /** The killed come back (a restart resumes what they left) and race again once they are up. */
  const restartExited = () =>
    desks.forEach((d, i) => {
      if (!d.exited) return;
      desks[i] = startDesk(d.cfg);
      tally.restarts += 1;
    });
  const fractions = [1, 0.5, 0.3, 0.2, 0.1, 0.05];
  // The server crashes in one round of the middle; a desk dies in every other round, alternately one
  // whose refund is out right now and one at a random moment.
  const serverRound = 3 + Math.floor(random() * (ROUNDS - 6));
  let killRounds = 0;
  let owedWhileSending = false;
  for (let round = 0; round < ROUNDS; round += 1) {
    // At least 8 desks in every round: restarted ones are waited for when too few are up.
    const upBy = Date.now() + 60_000;
    while (desks.filter((d) => d.ready && !d.exited).length < MIN_RACING && Date.now() < upBy) {
      restartExited(); // one that could not start (the server was down) tries again
      await new Promise((r) => setTimeout(r, 50));
    }
    const racing = desks.filter((d) => d.ready && !d.exited);
    tally.fewest = Math.min(tally.fewest, racing.length);
    // Armed one by one, released together: the barrier.
    const armed = racing.map((d, i) => {
      const p = payments[(round + i) % PAYMENTS]!;
      const amountMinor = Math.max(
        1,
        Math.floor(p.amountMinor * fractions[Math.floor(random() * fractions.length)]!),
      );
      send(d, { type: 'arm', transactionNo: p.transactionNo, amountMinor });
      return next(d, 'armed');
    });
    await Promise.all(armed);
    const results = racing.map((d) => next(d, 'result'));
    for (const d of racing) send(d, { type: 'go' });
    tally.rounds += 1;
    tally.attempts += racing.length;

    // A kill while sending that found nobody sending is owed to the next round.
    let answered = 0;
    for (const r of results) void r.then(() => (answered += 1));
    const killRound = (round % 2 === 0 || owedWhileSending) && round !== serverRound;
    const whileSending = killRound && (owedWhileSending || killRounds++ % 2 === 0);
    owedWhileSending = false;
    const pick = random();
    const delay = Math.floor(random() * (whileSending ? 120 : 400));
    let chaos: Promise<void> = Promise.resolve();
    if (round === serverRound) {
      chaos = new Promise((r) => setTimeout(r, 20 + delay / 2)).then(() => {
        cluster.restart('immediate');
        tally.serverRestarts += 1;
      });
    } else if (killRound) {
      chaos = (async () => {
        let victim: Desk | undefined = racing[Math.floor(pick * racing.length)];
        if (whileSending) {
          victim = undefined;
          while (!victim && answered < racing.length) {
            const pids = await sendingPids();
            const senders = racing.filter((d) => !d.exited && pids.includes(d.child.pid!));
            victim = senders[Math.floor(pick * senders.length)];
            if (!victim) await new Promise((r) => setTimeout(r, 10));
          }
          if (!victim) return void (owedWhileSending = true); // nobody sent this round
        }
        await new Promise((r) => setTimeout(r, delay));
        if (await kill(victim!)) {
          tally.kills += 1;
          if (whileSending) tally.killsWhileSending += 1;
        }
      })();
    }
    const outcomes = await Promise.all(results);
    await chaos;
    for (const o of outcomes) {
      const k = o ? String(o['outcome']) : 'killed';
      tally.outcomes[k] = (tally.outcomes[k] ?? 0) + 1;
    }
    restartExited();
  }
  await db.end();
  const tRounds = Date.now();

  // Settle: the desks go away; fresh resolvers (one per data directory, background work on) take over
  // every expired lease, and each refund still open is checked again, as a person would.
  await Promise.all(desks.map(kill));
  const resolvers = dirs.map((dataDir, m) =>
    startDesk({ ...configs[m * (APP_DESKS + CLI_DESKS)]!, deskId: `resolver-${m + 1}` }),
  );
  const watcher = await openPostgresIntentStore({ connectionString: owner, applicationName: 'race-test' });
  const store = refundStoreOn(watcher.store);
  const ourIntents = async () => (await store.list()).filter((i) => ours.has(i.transactionNo));
  const check = async (ids: string[]) => {
    const r = resolvers.find((d) => d.ready && !d.exited)!;
    const done = next(r, 'checked');
    send(r, { type: 'check', ids });
    await done;
  };
  const settleBy = Date.now() + 45_000;
  while (!resolvers.every((d) => d.ready) && Date.now() < settleBy)
    await new Promise((r) => setTimeout(r, 50));
  for (;;) {
    const inFlight = sb.refundRequests().some((e) => e.answeredAt === undefined);
    const open = (await ourIntents()).filter((i) => OPEN.includes(i.state));
    if (!inFlight && !open.some((i) => i.state !== 'outcome_unknown')) {
      // Every request has been answered: one last look for each refund still unknown.
      await check(open.map((i) => i.id));
      break;
    }
    if (Date.now() > settleBy) break;
    await check(open.map((i) => i.id));
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 200)); // an accepted refund found last settles (50 ms)
  await check((await ourIntents()).filter((i) => i.state === 'accepted').map((i) => i.id));
  await Promise.all(resolvers.map(kill));
  const tSettled = Date.now();

  const intents = await ourIntents();
  const checks = new Map(
    await Promise.all(intents.map(async (i) => [i.id, await watcher.store.checksOf(i.id)] as const)),
  );
  await watcher.close();
  const byId = new Map(intents.map((i) => [i.id, i]));
  const requests = sb.refundRequests().filter((e) => ours.has(e.payment));
  const applied = sb.state.snapshot().refunds.filter((r) => ours.has(r.transactionNo));

  // 1. Never two refund requests for one payment at the service at once.
  const overlaps = overlappingRefundRequests(requests);
  // 2. Never a request the service had to refuse for asking more than was left.
  const refused = requests.filter((e) => e.overRemainder);
  const overRefunded = payments.filter(
    (p) =>
      applied
        .filter((r) => r.transactionNo === p.transactionNo && r.status !== 'failed')
        .reduce((s, r) => s + r.refundAmountMinor, 0) > p.amountMinor,
  );
  // 3. Nothing lost: every request the service received is an intent in the database; every refund it
  // applied is known there as applied, for that amount; nothing called applied that the service lacks…
  const unknownRequests = requests.filter((e) => !e.refundReference || !byId.has(e.refundReference));
  const lostRefunds = applied.filter((r) => {
    const i = r.refundReference ? byId.get(r.refundReference) : undefined;
    return (
      !i ||
      !['accepted', 'succeeded', 'failed'].includes(i.state) ||
      i.amountMinor !== r.refundAmountMinor ||
      i.refundTransactionNo !== r.refundTransactionNo
    );
  });
  const phantom = intents.filter(
    (i) => ['accepted', 'succeeded'].includes(i.state) && !applied.some((r) => r.refundReference === i.id),
  );
  // …and every intent ended settled, or resolved: still unknown only when the service was asked, after
  // every request had been answered, and lists no refund of it (it never arrived: a person closes it).
  const unsettled = intents.filter(
    (i) =>
      i.state === 'sending' ||
      i.state === 'accepted' ||
      (i.state === 'outcome_unknown' && !(checks.get(i.id) ?? []).some((c) => c.reached && !c.found)),
  );
  const states = intents.reduce<Record<string, number>>(
    (m, i) => ((m[i.state] = (m[i.state] ?? 0) + 1), m),
    {},
  );

  console.log(
    `[team race] seed ${SEED}: ${configs.length} desk processes on ${dirs.length} data directories (${APP_DESKS} app + ${CLI_DESKS} CLI each, 2 logins), ` +
      `${PAYMENTS} payments; ${tally.rounds} rounds of ${tally.fewest}+ desks, ${tally.attempts} attempts; kills ${tally.kills} (${tally.killsWhileSending} while sending), ` +
      `restarts ${tally.restarts}, PostgreSQL immediate restarts ${tally.serverRestarts} (round ${serverRound}); ` +
      `desk outcomes ${JSON.stringify(tally.outcomes)}; intents ${JSON.stringify(states)}; ` +
      `service: requests ${requests.length}, applied ${applied.length}, refused ${refused.length}, overlaps ${overlaps.length}, ` +
      `over-refunded payments ${overRefunded.length}; lost: requests without intent ${unknownRequests.length}, ` +
      `applied not known ${lostRefunds.length}, phantom ${phantom.length}, unsettled ${unsettled.length}; ` +
      `seconds: start ${(tReady - t0) / 1000}, rounds ${(tRounds - tReady) / 1000}, settle ${(tSettled - tRounds) / 1000}`,
  );

  expect(overlaps.map(([a, b]) => [a.refundReference, b.refundReference])).toEqual([]);
  expect(refused.map((e) => e.refundReference)).toEqual([]);
  expect(overRefunded.map((p) => p.transactionNo)).toEqual([]);
  expect(unknownRequests.map((e) => e.refundReference)).toEqual([]);
  expect(lostRefunds.map((r) => r.refundReference)).toEqual([]);
  expect(phantom.map((i) => i.id)).toEqual([]);
  expect(unsettled.map((i) => `${i.id} ${i.state}`)).toEqual([]);

  // The run raced for real: every desk took part, desks died mid-refund, the server crashed once,
  // refunds reached the service and desks were refused for one another's.
  expect(tally.kills).toBeGreaterThanOrEqual(3);
  expect(tally.killsWhileSending).toBeGreaterThanOrEqual(1);
  expect(tally.serverRestarts).toBe(1);
  expect(tally.fewest).toBeGreaterThanOrEqual(MIN_RACING);
  expect(requests.length).toBeGreaterThan(PAYMENTS);
  expect(tally.outcomes['conflict:open'] ?? 0).toBeGreaterThan(0);
  expect(tally.outcomes['conflict:remaining'] ?? 0).toBeGreaterThan(0);
}, 170_000);
