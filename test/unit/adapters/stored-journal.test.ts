import { paymentStoreOn } from '../../../electron/core/services/payments/store';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE, openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { RunFacts } from '../../../shared/recon/run';
import type { Transaction } from '../../../shared/domain/transaction';
import { auditEntrySchema, intentSchema } from '../../../shared/domain/refund-intent';
import { paymentAuditEntrySchema } from '../../../shared/ipc/contract/payments';
import { createFakeLogger } from '../../fakes/logger';

/**
 * Earlier versions wrote journal values today's closed types do not admit: an environment left empty
 * by the import of the old files, a currency this app does not handle (they took any three letters).
 * Written here as those versions did, at schema 4 (refunds and payments in tables of their own), and
 * then opened by this version, which migrates them.
 */
function databaseOfEarlierVersions(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-stored-'));
  const db = openDatabase(join(dataDir, DATABASE_FILE), MIGRATIONS.slice(0, 4));
  db.immediate(() => {
    for (const id of ['RD1', 'RD2', 'RD3'])
      db.run(
        `INSERT INTO intents (id, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
           store_no, transaction_no, amount_minor, currency, settle_currency, reason_code, reason_note,
           operator, created_at, updated_at, attempts)
         VALUES (?, 1, 'rejected', 'p1', 'Main', 'demo', 'http://127.0.0.1:1', '200043', '300014',
           '297553638300708562', 500, 'USD', 'USD', 'other', 'x', 'o', ?, '2026-01-05T00:00:00.000Z', 1)`,
        id,
        `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
      );
    db.run(`UPDATE intents SET currency = 'ZAR', settle_currency = 'ZAR' WHERE id = 'RD2'`);
    db.run(`UPDATE intents SET environment = '' WHERE id = 'RD3'`);
    db.run(
      `INSERT INTO audit (at, outcome, operator, profile_id, profile_name, environment, intent_id,
         transaction_no, amount_minor, currency, reason_code, reason_note)
       VALUES ('2026-01-01T00:00:00.000Z', 'refused', 'o', 'p1', '', '', '', '1', 5, 'USD', '', ''),
              ('2026-01-02T00:00:00.000Z', 'refused', 'o', 'p1', '', 'demo', '', '1', 5, 'ZAR', '', '')`,
    );
    db.run(
      `INSERT INTO payment_audit (at, operator, profile_id, profile_name, environment, action, outcome, subject_id, amount_minor, currency)
       VALUES ('t1', 'o', 'p1', 'Main', 'sandbox', 'payment.link', 'refused', 'PM1', 100, 'USD'),
              ('t2', 'o', 'p1', 'Main', 'demo', 'payment.link', 'refused', 'PM2', 100, 'ZAR')`,
    );
  });
  db.close();
  return dataDir;
}

describe('journal records of earlier versions', () => {
  it('read into the closed types: an unkept environment as "unrecorded", a foreign currency left out and named by health', async () => {
    const log = createFakeLogger();
    const storage = openAppStorage({ dataDir: databaseOfEarlierVersions(), now: () => 0, log });

    const intents = await refundStoreOn(storage.intents).list();
    expect(intents.map((i) => [i.id, i.environment, i.currency])).toEqual([
      ['RD3', 'unrecorded', 'USD'],
      ['RD1', 'demo', 'USD'],
    ]);
    // What the dispatcher checks every reply against: the list no longer fails as a whole.
    for (const i of intents) expect(intentSchema.safeParse(i).error).toBeUndefined();

    const audit = await refundStoreOn(storage.intents).audit.list();
    expect(audit.map((e) => [e.environment, e.currency])).toEqual([['unrecorded', 'USD']]);
    for (const e of audit) expect(auditEntrySchema.safeParse(e).error).toBeUndefined();

    const payments = await paymentStoreOn(storage.intents, storage.customers).audit.list();
    expect(payments.map((e) => [e.subjectId, e.environment])).toEqual([['PM1', 'unrecorded']]);
    for (const e of payments) expect(paymentAuditEntrySchema.safeParse(e).error).toBeUndefined();

    // Left out is not damage: refunds go on, and health says what is not listed and why.
    expect(storage.untrusted()).toBeUndefined();
    const problem = storage.problems().find((p) => p.name === 'journal-currency');
    expect(problem?.detail).toMatch(/3 record\(s\)/);
    expect(problem?.detail).toContain('intents:RD2');
    expect(problem?.detail).toContain('ZAR');
    storage.close();
  });

  it('a reconciliation stored by an earlier version asks again for a list window or cached answer in such a currency', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'rd-stored-')), DATABASE_FILE), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    runs.create({ runId: 'RC1', profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);
    const payment = (transactionNo: string): Transaction => ({
      transactionNo,
      amountMinor: 100,
      currency: 'USD',
      status: 'success',
      transactionType: 'payment',
      refunds: [],
    });
    // What an earlier version stored: it took any currency the service named.
    const zar = { ...payment('2'), currency: 'ZAR' } as unknown as Transaction;
    const window = (startDate: string, transactions: Transaction[]) =>
      ({ startDate, endDate: startDate, fetchedAt: 't', state: 'listed', transactions }) as const;
    runs.saveWindow('RC1', window('20250601', [payment('1')]));
    runs.saveWindow('RC1', window('20250616', [payment('3'), zar]));
    runs.addInput('RC1', 'cached', [
      { key: 'tx:1', transaction: payment('1'), fetchedAt: 't' },
      { key: 'tx:2', transaction: zar, fetchedAt: 't' },
    ]);
    expect(runs.readWindows('RC1').map((w) => w.startDate)).toEqual(['20250601']);
    expect(runs.readInput('RC1').cached.map((c) => c.key)).toEqual(['tx:1']);
    db.close();
  });
});
