import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/core/adapters/sqlite/app-storage';
import { type Database, openDatabase as openDb } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { Intent } from '../../../electron/core/services/refunds/intent';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';

/** An intent row as versions before the engine kept it (one table of refunds). */
function insertIntentRow(db: Database, i: Intent, imported = false): void {
  db.run(
    `INSERT INTO intents (id, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
       store_no, transaction_no, amount_minor, currency, settle_currency, reason_code, reason_note, operator,
       created_at, updated_at, checks, attempts, imported)
     VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    i.id,
    i.state,
    i.profileId,
    i.profileName,
    i.environment,
    i.baseUrl,
    i.merchantNo,
    i.storeNo,
    i.transactionNo,
    i.amountMinor,
    i.currency,
    i.settleCurrency ?? '',
    i.reasonCode,
    i.reasonNote,
    i.operator,
    i.createdAt,
    i.updatedAt,
    i.checks,
    i.attempts,
    imported ? 1 : 0,
  );
}
function insertEventRow(db: Database, id: string, e: { at: string; type: string; from: string; to: string }) {
  db.run(
    'INSERT INTO intent_events (intent_id, at, type, from_state, to_state, data) VALUES (?, ?, ?, ?, ?, ?)',
    id,
    e.at,
    e.type,
    e.from,
    e.to,
    '{}',
  );
}

/**
 * Issue 24: refunds closed as not sent stay watched. The migration that adds `closed_not_sent_at` gives
 * intents closed by an earlier version the time of their `closed_not_sent` event, so they are watched
 * too; imported or refused-before-sending intents are not.
 */
const WATCH_VERSION = MIGRATIONS.find((m) => m.sql.includes('closed_not_sent_at'))!.version;

const row = (id: string, over: Partial<Intent> = {}): Intent => ({
  id,
  state: 'refused',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  baseUrl: '',
  merchantNo: '200043',
  storeNo: '300014',
  transactionNo: '297553638300708562',
  amountMinor: 400,
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'customer_request',
  reasonNote: '',
  operator: 'ana',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T12:05:00.000Z',
  checks: 3,
  attempts: 1,
  ...over,
});

describe('the closed-as-not-sent watch migration', () => {
  it('gives intents closed by an earlier version their closing time, and only those', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rd-closed-watch-')), DATABASE_FILE);
    const old = openDb(
      path,
      MIGRATIONS.filter((m) => m.version < WATCH_VERSION),
    );
    old.immediate(() => {
      insertIntentRow(old, row('RD-CLOSED'));
      insertEventRow(old, 'RD-CLOSED', {
        at: '2026-11-24T12:05:00.000Z',
        type: 'closed_not_sent',
        from: 'outcome_unknown',
        to: 'refused',
      });
      insertIntentRow(old, row('RD-IMPORTED'), true); // refused, never sent (older journal)
      insertIntentRow(old, row('RD-DONE', { state: 'succeeded' }));
    });
    old.close();

    // Opened by this version: through the watch's migration and on into the engine's table.
    const db = openDb(path, MIGRATIONS);
    const store = refundStoreOn(createSqliteIntentStore(db, { now: Date.now }));
    expect((await store.get('RD-CLOSED'))!.closedNotSentAt).toBe('2026-11-24T12:05:00.000Z');
    expect((await store.get('RD-IMPORTED'))!.closedNotSentAt).toBeUndefined();
    expect((await store.get('RD-DONE'))!.closedNotSentAt).toBeUndefined();
    // Watched while within the window; a transition away from `refused` ends the watch.
    expect((await store.closedSince('2026-11-24T00:00:00.000Z')).map((i) => i.id)).toEqual(['RD-CLOSED']);
    expect(await store.closedSince('2026-11-24T12:05:00.000Z')).toEqual([]);
    await store.transition(
      'RD-CLOSED',
      ['refused'],
      'accepted',
      { refundTransactionNo: '3001' },
      {
        at: '2026-11-24T13:00:00.000Z',
        type: 'found_after_close',
      },
    );
    expect(await store.get('RD-CLOSED')).toMatchObject({
      state: 'accepted',
      closedNotSentAt: '2026-11-24T12:05:00.000Z',
    });
    expect(await store.closedSince('2026-11-24T00:00:00.000Z')).toEqual([]);
    db.close();
  });
});
