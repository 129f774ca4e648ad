import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../../electron/core/adapters/logger';
import { createMemorySecretStore } from '../../electron/core/adapters/node-secret-stores';
import { openPostgresIntentStore } from '../../electron/core/adapters/postgres/intent-store';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import { openTeamStorage } from '../../electron/core/adapters/team-storage';
import { createAppCore } from '../../electron/core/compose';
import type { IntentStore } from '../../electron/core/services/engine/port';
import { startPostgres } from '../support/postgres';
import { type Figure, ms, pct } from './harness';
import { decider, decisions, figure } from './store.bench';

/** Changes measured from desk A to desk B (each a new refund decided, then that refund ended). */
const REFUNDS = 60;
const SILENT = createLogger({ sink: () => {} });

/**
 * A desk as the app builds it (createAppCore over the team storage), whose store's `watch` callback is
 * timed as the core receives it: the store's change feed, then the refunds runtime pushing views to the
 * event bus (what the renderer subscribes to).
 */
async function deskB(
  url: string,
  dataDir: string,
  onWatch: (changed: Array<{ id: string; state: string }>) => void,
) {
  const storage = await openTeamStorage({
    dataDir,
    now: Date.now,
    log: SILENT,
    database: { connectionString: url, deskId: 'bench-desk-b' },
  });
  const watched: IntentStore = {
    ...storage.intents,
    watch: (fn) =>
      storage.intents.watch((changed) => {
        onWatch(changed);
        fn(changed);
      }),
  };
  let doc: Record<string, unknown> = { version: 1, profiles: [], activeProfileId: null };
  return createAppCore(
    {
      host: 'browser',
      name: 'Refund Desk',
      version: 'bench',
      dataDir,
      platform: process.platform,
      clock: { now: Date.now },
      log: SILENT,
      openExternal: async () => undefined,
      settings: { read: () => doc, write: (next) => void (doc = next), quarantine: () => undefined },
      secrets: createMemorySecretStore(),
      storage: { ...storage, intents: watched },
    },
    { demo: false },
  );
}

/**
 * The closing figures of team mode (issue 26): the refund decision on PostgreSQL beside SQLite (same
 * work: engine scope, two reads, insert `sending`, commit; one at a time), and how long a change
 * committed on one desk takes to reach another desk — its store's `watch` (LISTEN/NOTIFY, then the
 * change feed's read) and its event bus (`refunds.updated`, what its screen shows). Both desks are in
 * this process against one server on 127.0.0.1 (fsync on), so the clocks agree; a real team adds its
 * network's round trips.
 */
export async function teamBench(): Promise<Figure[]> {
  const load = loadavg().map((l) => l.toFixed(1));
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-team-'));
  const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
  const cluster = await startPostgres({ durable: true });
  try {
    const url = await cluster.createDatabase('team_bench');
    await migratePostgres({ connectionString: url });
    const sqlite = await decisions(createSqliteIntentStore(db, { now: Date.now }), 'S');
    const pgStore = await openPostgresIntentStore({ connectionString: url, applicationName: 'bench' });
    let postgres: number[];
    try {
      postgres = await decisions(pgStore.store, 'P');
    } finally {
      await pgStore.close();
    }

    // Desk A decides and ends refunds; desk B (another data directory, its own connections) sees them.
    // Keyed by refund and state: a late repeat of an earlier change is never taken for the next one.
    const seen = new Map<string, { watch?: number; bus?: number }>();
    const mark = (r: { id: string; state: string }, k: 'watch' | 'bus') => {
      const s = seen.get(`${r.id}:${r.state}`);
      if (s && s[k] === undefined) s[k] = performance.now();
    };
    const b = await deskB(url, join(dir, 'desk-b'), (changed) => changed.forEach((r) => mark(r, 'watch')));
    b.events.subscribe((event, payload) => {
      if (event === 'refunds.updated') mark(payload as { id: string; state: string }, 'bus');
    });
    const a = await openTeamStorage({
      dataDir: join(dir, 'desk-a'),
      now: Date.now,
      log: SILENT,
      database: { connectionString: url, deskId: 'bench-desk-a' },
    });
    const toWatch: number[] = [];
    const toBus: number[] = [];
    /** Runs one change on desk A; from its commit, waits (≤5 s) until desk B's store and bus saw it. */
    const change = async (key: string, commit: () => Promise<unknown>) => {
      seen.set(key, {});
      await commit();
      const t0 = performance.now();
      const until = Date.now() + 5_000;
      while (Date.now() < until) {
        const s = seen.get(key)!;
        if (s.watch !== undefined && s.bus !== undefined) {
          toWatch.push(s.watch - t0);
          toBus.push(s.bus - t0);
          break;
        }
        await new Promise((r) => setImmediate(r));
      }
      seen.delete(key);
    };
    try {
      const decide = decider(a.intents, 'T');
      for (let i = 0; i < REFUNDS; i += 1) {
        // A new refund on desk A…
        await change(`RDBT${i}:sending`, () => decide(i));
        // …and its end (the service refused it), another change of the same refund.
        await change(`RDBT${i}:rejected`, () =>
          a.intents.transition({
            id: `RDBT${i}`,
            from: ['sending'],
            to: 'rejected',
            patch: { retCode: '000023', retMsg: 'bench' },
            event: { at: new Date().toISOString(), type: 'answer' },
          }),
        );
      }
    } finally {
      await a.close();
      await b.close();
    }
    const sorted = (t: number[]) => [...t].sort((x, y) => x - y);
    const reach = (metric: string, t: number[]): Figure => ({
      bench: 'desk A → desk B',
      metric,
      value: `${ms(pct(sorted(t), 50))} median`,
      note: `p99 ${ms(pct(sorted(t), 99))}; ${t.length} of ${2 * REFUNDS} changes seen within 5 s (new refund, then its end), one at a time`,
    });
    return [
      figure('SQLite (WAL, synchronous=FULL)', sqlite, `N=${sqlite.length}, one at a time`),
      figure('PostgreSQL 127.0.0.1 (fsync on)', postgres, `N=${postgres.length}, one at a time`),
      reach("commit → B's store watch", toWatch),
      reach("commit → B's event bus (refunds.updated)", toBus),
      {
        bench: 'machine',
        metric: 'load average at start (1, 5, 15 min)',
        value: load.join(', '),
        note: `${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')} at end; ${availableParallelism()} CPUs`,
      },
    ];
  } finally {
    db.close();
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
