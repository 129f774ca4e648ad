import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { IntentStore } from '../../../electron/core/services/engine/port';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';

/**
 * How the SQLite store asks, checked without a clock: a refund decision must cost the same with ten
 * intents in the file as with a hundred thousand, and each statement must be prepared once.
 *
 * - Every query an intent operation runs seeks the index it pins (payment, day, state, reference, id):
 *   none walks every intent of a kind or scans the table. Without statistics SQLite otherwise prefers the
 *   (kind, created_at) list index to skip sorting a handful of rows.
 * - No statement binds a kind or a state: the partial indexes name them, and SQLite re-prepares a
 *   statement on every run whose bound parameter it compared against a partial index's WHERE.
 */
function recordingStore(): { store: IntentStore; db: Database; sql: Set<string> } {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'rd-plans-')), 'refund-desk.db'), MIGRATIONS);
  const sql = new Set<string>();
  for (const m of ['run', 'get', 'all'] as const) {
    const f = db[m].bind(db) as (s: string, ...p: unknown[]) => unknown;
    (db as unknown as Record<string, unknown>)[m] = (s: string, ...p: unknown[]) => {
      sql.add(s.replace(/\s+/g, ' ').trim());
      return f(s, ...p);
    };
  }
  return { store: createSqliteIntentStore(db, { now: Date.now }), db, sql };
}

const account = {
  environment: 'vendor-sandbox' as const,
  baseUrl: 'https://x',
  merchantNo: '200043',
  storeNo: '300014',
};

async function everyOperation(store: IntentStore): Promise<void> {
  const refunds = refundStoreOn(store);
  const at = '2026-11-26T10:00:00.000Z';
  await refunds.decide({ account, transactionNo: '1', currency: 'USD' }, async (tx) => {
    await tx.forPayment('200043', '300014', '1');
    await tx.dayTotal('200043', '300014', 'USD', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z');
    await tx.insertSending(
      {
        ...account,
        id: 'RD1',
        profileId: 'p',
        profileName: 'P',
        transactionNo: '1',
        amountMinor: 100,
        currency: 'USD',
        settleCurrency: 'USD',
        reasonCode: 'other',
        reasonNote: '',
        operator: 'o',
        createdAt: at,
      },
      { holder: 'h:1', ms: 15_000 },
      at,
    );
  });
  await store.renewLease('RD1', 'h:1', 15_000);
  await refunds.transition('RD1', ['sending'], 'accepted', { refundTransactionNo: '9' }, { at, type: 'x' });
  await refunds.noteCheck('RD1', { at, found: true, reached: true, note: 'n' });
  await refunds.unfinished();
  await refunds.orphans();
  await refunds.forPayment('200043', '300014', '1');
  await store.byTransaction('payment', '200043', '1');
  await store.decide([], (tx) => tx.byReference('payment', '200043', 'R1'));
  await store.get('RD1');
}

describe('the SQLite intent store asks the database well', () => {
  it('no query walks every intent of a kind or scans the table', async () => {
    const { store, db, sql } = recordingStore();
    await everyOperation(store);
    const reads = [...sql].filter((s) => /^SELECT .* FROM intents\b/.test(s));
    expect(reads.length).toBeGreaterThanOrEqual(7);
    for (const s of reads) {
      const plan = db
        .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${s}`)
        .map((r) => r.detail)
        .join(' | ');
      expect(plan, s).toMatch(/^SEARCH intents USING (COVERING )?INDEX /);
      expect(plan, s).not.toMatch(/intents_list \(kind=\?\)$/);
    }
    db.close();
  });

  it('binds no kind and no state (a partial index names them: bound, the statement is re-prepared on every run)', async () => {
    const { store, db, sql } = recordingStore();
    await everyOperation(store);
    const onIntents = [...sql].filter((s) => /\bintents\b/.test(s) && !/^INSERT INTO intents /.test(s));
    expect(onIntents.length).toBeGreaterThan(8);
    // In a WHERE (a SET may bind the new state: no index is chosen by it).
    for (const s of onIntents.filter((q) => q.includes(' WHERE ')))
      expect(s.slice(s.indexOf(' WHERE ')), s).not.toMatch(/\b(kind|state)\s*(=|<>|IN)\s*\(?\s*\?/);
    db.close();
  });
});
