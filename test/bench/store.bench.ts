import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresIntentStore } from '../../electron/core/adapters/postgres/intent-store';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import type { IntentStore } from '../../electron/core/services/engine/port';
import { refundStoreOn } from '../../electron/core/services/refunds/store';
import { startPostgres } from '../support/postgres';
import { type Figure, ms, pct, sample } from './harness';

const N = 500;
const WARM = 20;
const account = { environment: 'demo' as const, baseUrl: '', merchantNo: '200043', storeNo: '300014' };

/**
 * One refund decision exactly as the refund service makes it (engine scope: payment + daily total; read
 * the payment's intents and the day's total, insert `sending` with a lease; commit), N times on each store,
 * one at a time: the time a person waits between "Refund" and the request leaving.
 */
export async function decisions(store: IntentStore, tag: string, n = N): Promise<number[]> {
  const one = decider(store, tag);
  for (let i = 0; i < WARM; i += 1) await one(-1 - i);
  return sample(n, one);
}

/** One decision of refund `i` (its own payment `<tag><i>`), committed as `sending` when it resolves. */
export function decider(store: IntentStore, tag: string) {
  const refunds = refundStoreOn(store);
  const day = new Date().toISOString().slice(0, 10);
  return (i: number) => {
    const transactionNo = `${tag}${String(i).padStart(12, '0')}`;
    const at = new Date().toISOString();
    return refunds.decide({ account, transactionNo, currency: 'USD' }, async (tx) => {
      await tx.forPayment(account.merchantNo, account.storeNo, transactionNo);
      await tx.dayTotal(
        account.merchantNo,
        account.storeNo,
        'USD',
        `${day}T00:00:00.000Z`,
        `${day}T23:59:59.999Z`,
      );
      return tx.insertSending(
        {
          id: `RDB${tag}${i}`,
          profileId: 'p',
          profileName: 'P',
          ...account,
          transactionNo,
          amountMinor: 100,
          currency: 'USD',
          settleCurrency: 'USD',
          reasonCode: 'other',
          reasonNote: '',
          operator: 'bench',
          createdAt: at,
        },
        { holder: 'bench:1', ms: 15_000 },
        at,
      );
    });
  };
}

export const figure = (metric: string, t: number[], note: string): Figure => ({
  bench: 'refund decision',
  metric,
  value: `${ms(pct(t, 50))} median`,
  note: `p99 ${ms(pct(t, 99))}; ${note}`,
});

/** Decision latency, SQLite file vs PostgreSQL on this machine, in the same run. */
export async function storeBench(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-store-'));
  const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
  // A durable cluster (fsync on, as a real server): each commit is flushed, as SQLite's synchronous=FULL is.
  const cluster = await startPostgres({ durable: true });
  try {
    const sqlite = await decisions(createSqliteIntentStore(db, { now: Date.now }), 'S');
    const url = await cluster.createDatabase('bench');
    await migratePostgres({ connectionString: url });
    const pg = await openPostgresIntentStore({ connectionString: url, applicationName: 'bench' });
    let postgres: number[];
    try {
      postgres = await decisions(pg.store, 'P');
    } finally {
      await pg.close();
    }
    return [
      figure('SQLite (WAL, synchronous=FULL)', sqlite, `N=${N}, one at a time`),
      figure(
        'PostgreSQL 127.0.0.1 (fsync on)',
        postgres,
        `N=${N}, one at a time; 5 round trips (BEGIN+locks, 2 reads, insert, COMMIT)`,
      ),
    ];
  } finally {
    db.close();
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
