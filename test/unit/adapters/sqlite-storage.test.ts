import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE, openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { openDatabase, StorageError } from '../../../electron/core/adapters/sqlite/database';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { createRefundService } from '../../../electron/core/services/refunds/service';
import { createFakeLogger } from '../../fakes/logger';

const dir = () => mkdtempSync(join(tmpdir(), 'rd-sqlite-'));
const pragma = (db: ReturnType<typeof openDatabase>, name: string) =>
  Object.values(db.get(`PRAGMA ${name}`)!)[0];

describe('the app database', () => {
  it('opens in WAL mode with synchronous=FULL and foreign keys on, at the latest schema', () => {
    const db = openDatabase(join(dir(), DATABASE_FILE), MIGRATIONS);
    expect(pragma(db, 'journal_mode')).toBe('wal');
    expect(pragma(db, 'synchronous')).toBe(2); // FULL
    expect(pragma(db, 'foreign_keys')).toBe(1);
    expect(db.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    db.close();
  });

  // Every version a migration starts from (numbers reserved for other branches may be missing).
  it.each(MIGRATIONS.map((_, i) => [i === 0 ? 0 : MIGRATIONS[i - 1]!.version, i] as const))(
    'migrates from schema %i to the latest, keeping the data',
    (from, applied) => {
      const path = join(dir(), DATABASE_FILE);
      const old = openDatabase(path, MIGRATIONS.slice(0, applied));
      expect(old.schemaVersion()).toBe(from);
      // v1 to v6 kept the refunds' audit in their own shape; v7 gave it a kind.
      if (from >= 1 && from <= 6)
        old.immediate(() =>
          old.run(
            `INSERT INTO audit (at, outcome, operator, profile_id, profile_name, environment, intent_id, transaction_no,
             amount_minor, currency, reason_code, reason_note) VALUES ('t', 'refused', 'o', 'p', 'P', 'demo', '', '1', 5, 'USD', 'x', '')`,
          ),
        );
      if (from >= 7)
        old.immediate(() =>
          old.run(
            `INSERT INTO audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
             transaction_no, amount_minor, currency) VALUES ('refund', 't', 'refused', 'o', 'p', 'P', 'demo', '', '1', 5, 'USD')`,
          ),
        );
      if (from >= 2)
        old.immediate(() => {
          old.run(
            `INSERT INTO recon_jobs (id, profile_id, label, created_at, keys) VALUES ('RC1', 'p', 'old.csv', 't', '["tx:1"]')`,
          );
          old.run(`INSERT INTO recon_results (job_id, key, data) VALUES ('RC1', 'tx:1', '{}')`);
        });
      // v4 to v6 kept the payments' audit log in a table of its own.
      const paymentAudit = from >= 4 && from <= 6;
      if (paymentAudit)
        old.immediate(() =>
          old.run(
            `INSERT INTO payment_audit (at, operator, profile_id, profile_name, environment, action, outcome, subject_id)
             VALUES ('t', 'o', 'p', 'P', 'demo', 'customer.register', 'registered', 'CU1')`,
          ),
        );
      old.close();
      const db = openDatabase(path, MIGRATIONS);
      expect(db.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
      // v7 keeps one audit log with a kind: the refunds' entries and the payments' both land there.
      expect(db.all(`SELECT amount_minor FROM audit WHERE kind = 'refund'`)).toEqual(
        from >= 1 ? [{ amount_minor: 5 }] : [],
      );
      expect(db.all(`SELECT subject_id, data FROM audit WHERE kind = 'payment'`)).toEqual(
        paymentAudit ? [{ subject_id: 'CU1', data: JSON.stringify({ action: 'customer.register' }) }] : [],
      );
      // Reconciliation jobs of earlier versions keep their answers; they have no record (no facts).
      expect(db.all('SELECT id, facts, started FROM recon_jobs')).toEqual(
        from >= 2 ? [{ id: 'RC1', facts: null, started: 1 }] : [],
      );
      expect(db.all('SELECT key FROM recon_results')).toHaveLength(from >= 2 ? 1 : 0);
      // Every table of the latest schema exists, and the per-kind tables of v4 are gone.
      const tables = db
        .all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        .map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          'intents',
          'intent_events',
          'audit',
          'ipn_events',
          'recon_jobs',
          'recon_results',
          'recon_inputs',
          'recon_windows',
          'recon_items',
          'recon_item_pages',
          'import_problems',
          'meta',
          'customers',
          'payment_methods',
          'payment_notes',
          'payment_lookups',
        ]),
      );
      for (const gone of ['payment_intents', 'payment_events', 'payment_audit', 'intents_v5'])
        expect(tables).not.toContain(gone);
      // The newest tables take rows.
      db.immediate(() =>
        db.run(
          `INSERT INTO audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id, data)
           VALUES ('payment', 't', 'created', 'o', 'p', 'P', 'demo', 'PY1', '{"action":"payment.link"}')`,
        ),
      );
      expect(db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit WHERE kind = 'payment'`)!.n).toBe(
        paymentAudit ? 2 : 1,
      );
      // Notes on a payment are append-only.
      db.immediate(() =>
        db.run(
          `INSERT INTO payment_notes (id, profile_id, environment, merchant_no, store_no, transaction_no, at, operator, text)
           VALUES ('NT1', 'p', 'demo', 'm', 's', '1', 't', 'o', 'called')`,
        ),
      );
      expect(() => db.immediate(() => db.run(`UPDATE payment_notes SET text = 'x'`))).toThrow(/append-only/);
      expect(() => db.immediate(() => db.run(`DELETE FROM payment_notes`))).toThrow(/append-only/);
      db.close();
    },
  );

  it('a failed migration changes nothing and says so', () => {
    const path = join(dir(), DATABASE_FILE);
    openDatabase(path, MIGRATIONS.slice(0, 1)).close();
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      { version: 2, sql: 'CREATE TABLE ok (x INTEGER);\nCREATE TABLE broken (' },
    ];
    expect(() => openDatabase(path, broken)).toThrow(
      /could not update its database to schema 2.*Nothing was changed/,
    );
    const db = openDatabase(path, MIGRATIONS.slice(0, 1));
    expect(db.schemaVersion()).toBe(1);
    expect(db.all(`SELECT name FROM sqlite_master WHERE name = 'ok'`)).toHaveLength(0);
    db.close();
  });

  it('a new file another process is still setting up: the switch to WAL waits for it instead of failing "busy"', async () => {
    // Processes starting at once on a new data directory: one holds the new file's write lock before it
    // is in WAL mode, so SQLite answers the others' switch SQLITE_BUSY at once (no busy handler there).
    const path = join(dir(), DATABASE_FILE);
    new DatabaseSync(path).close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(process.argv[1]);
         db.exec('BEGIN IMMEDIATE');
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 500);`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((locked) => holder.stdout.once('data', locked));
    const db = openDatabase(path, MIGRATIONS);
    expect(pragma(db, 'journal_mode')).toBe('wal');
    expect(db.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    db.close();
    await new Promise((exited) => holder.once('exit', exited));
  });

  it('a database from a newer version is refused untouched', () => {
    const path = join(dir(), DATABASE_FILE);
    const raw = new DatabaseSync(path);
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path, MIGRATIONS)).toThrow(StorageError);
    expect(() => openDatabase(path, MIGRATIONS)).toThrow(/written by a newer version \(schema 99/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a damaged file: health names it and what to do, refunds are refused before any network, nothing is overwritten', async () => {
    const d = dir();
    const garbage = Buffer.from('SQLite format 3\0'.padEnd(4096, '\u0007'));
    writeFileSync(join(d, DATABASE_FILE), garbage);
    const storage = openAppStorage({ dataDir: d, now: Date.now, log: createFakeLogger() });
    expect(storage.untrusted()).toMatch(/database/);
    expect(storage.problems()[0]).toMatchObject({
      name: 'database',
      detail: expect.stringMatching(/Refunds are paused/),
    });
    let asked = 0;
    const service = createRefundService({
      gatewayFor: () => {
        asked += 1;
        throw new Error('must not be reached');
      },
      store: refundStoreOn(storage.intents),
      clock: { now: Date.now },
      log: createFakeLogger(),
      context: () => ({
        profileId: 'p',
        profileName: 'P',
        environment: 'demo',
        baseUrl: '',
        merchantNo: '1',
        storeNo: '2',
        operator: 'o',
        guardrails: { limits: [] },
      }),
      newId: () => 'RDX',
      sender: 'h:1',
      untrusted: storage.untrusted,
    });
    await expect(
      service.submit({
        profileId: 'p',
        transactionNo: '1',
        amountMinor: 1,
        currency: 'USD',
        reasonCode: 'other',
        reasonNote: 'x',
        confirmation: {},
      }),
    ).rejects.toMatchObject({ code: 'unavailable', details: { moneyMoved: 'no' } });
    expect(asked).toBe(0);
    expect(readFileSync(join(d, DATABASE_FILE)).equals(garbage)).toBe(true);
    // IPNs are not acknowledged while nothing can be recorded (the service resends them).
    await expect(
      storage.recordIpn(
        { profileId: 'p', kind: 'payment', transactionNo: '1', status: 'success', receivedAt: 't' },
        'k',
      ),
    ).rejects.toThrow();
  });

  it('IPN dedup keys survive a restart', async () => {
    const d = dir();
    const event = {
      profileId: 'p',
      kind: 'payment' as const,
      transactionNo: '1',
      status: 'success',
      receivedAt: 't',
    };
    const first = openAppStorage({ dataDir: d, now: Date.now, log: createFakeLogger() });
    expect(await first.recordIpn(event, 'p|payment|1||success')).toBe('recorded');
    first.close();
    const second = openAppStorage({ dataDir: d, now: Date.now, log: createFakeLogger() });
    expect(await second.recordIpn(event, 'p|payment|1||success')).toBe('duplicate');
    second.close();
  });
});

describe('trouble reaches the person', () => {
  it('a damaged database turns health Degraded with the reason, through the app core', async () => {
    const { createNodeCore } = await import('../../../electron/hosts/node-core');
    const d = dir();
    writeFileSync(join(d, DATABASE_FILE), Buffer.from('not a database at all'.padEnd(8192, '#')));
    const core = await createNodeCore({ host: 'browser', dataDir: d, demo: false, log: createFakeLogger() });
    try {
      const health = await core.dispatch('app.health', undefined);
      expect(health).toMatchObject({ ok: true, value: { status: 'degraded' } });
      const checks = (health as { value: { checks: { name: string; ok: boolean; detail?: string }[] } }).value
        .checks;
      expect(checks.find((c) => c.name === 'database')).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/database .*Refunds are paused/s),
      });
    } finally {
      await core.close();
    }
  });
});
