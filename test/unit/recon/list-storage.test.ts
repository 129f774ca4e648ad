/**
 * The period's list as stored by a run (schema v10: columns, ./list-columns.ts): every window reads
 * back exactly as written, and a run whose list an earlier version stored (whole transactions as JSON)
 * still reads it — a re-check from it gives the same report as from the same list stored today.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { decodeListColumns, encodeListColumns } from '../../../electron/core/adapters/sqlite/list-columns';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { ListWindow } from '../../../electron/core/services/reconciliation/run-store';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import { isKnownCurrency } from '../../../shared/domain/currencies';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import { reportCsv } from '../../../shared/recon/export';
import type { LedgerRow } from '../../../shared/recon/ledger';
import { listWindows, type ReconOptions } from '../../../shared/recon/period';
import { transactionArb } from './arbitraries';
import { serviceView, type ReconItem } from '../../../shared/recon/match';
import { encodeItem, pageTexts } from '../../../electron/core/adapters/sqlite/item-codec';
import type { RunFacts } from '../../../shared/recon/run';

const log = { info() {}, warn() {}, error() {} };
/** Today's schema (v14: windows packed, ./list-packed.ts). */
const LATEST = MIGRATIONS.at(-1)!.version;

/** A listed window as v10–v13 stored it: layout 'columns', the JSON of its arrays (./list-columns.ts). */
function saveAsColumns(db: ReturnType<typeof openDatabase>, runId: string, w: ListWindow): void {
  if (w.state !== 'listed') throw new Error('listed windows only');
  db.run(
    `INSERT INTO recon_windows (job_id, start_date, end_date, fetched_at, state, data, layout)
     VALUES (?, ?, ?, ?, 'listed', ?, 'columns')`,
    runId,
    w.startDate,
    w.endDate,
    w.fetchedAt,
    encodeListColumns(w.transactions),
  );
}

/** The stored texts of the (one) run's report items, in order, from its pages (schema v13), made whole. */
const storedItems = (db: ReturnType<typeof openDatabase>) =>
  db
    .all<{ data: string }>('SELECT data FROM recon_item_pages ORDER BY job_id, first_seq')
    .flatMap((p) => pageTexts(JSON.parse(p.data) as string[]).map((data) => ({ data })));

describe('the period’s list stored as columns', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'rd-list-columns-'));
    dirs.push(d);
    return d;
  };

  it('encode → decode gives every payment back exactly (absent fields absent, empty strings empty)', () => {
    fc.assert(
      fc.property(fc.array(transactionArb, { maxLength: 30 }), (transactions) => {
        const back = decodeListColumns(encodeListColumns(transactions), isKnownCurrency);
        expect(back).toStrictEqual(transactions);
      }),
      { numRuns: 300 },
    );
  });

  it('payments without refunds share one frozen empty list: not an array each, and never added to', () => {
    fc.assert(
      fc.property(fc.array(transactionArb, { minLength: 2, maxLength: 30 }), (transactions) => {
        const back = decodeListColumns(encodeListColumns(transactions), isKnownCurrency) ?? [];
        const empty = back.filter((t) => t.refunds.length === 0).map((t) => t.refunds);
        for (const list of empty) {
          expect(list).toBe(empty[0]);
          expect(Object.isFrozen(list)).toBe(true);
        }
        // A payment's refunds are its own whenever it has any.
        for (const t of back) if (t.refunds.length > 0) expect(Object.isFrozen(t.refunds)).toBe(false);
      }),
      { numRuns: 100 },
    );
    const none = { ...(fc.sample(transactionArb, 1)[0] as Transaction), refunds: [] };
    const [a, b] = decodeListColumns(encodeListColumns([none, none]), isKnownCurrency) ?? [];
    expect(a!.refunds).toBe(b!.refunds);
    expect(() => (a!.refunds as unknown[]).push({})).toThrow(TypeError);
    expect(b!.refunds).toEqual([]);
  });

  it('saveWindow → readWindows (SQLite) gives every window back exactly, in order, copied windows too', () => {
    const db = openDatabase(join(dataDir(), DATABASE_FILE), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(transactionArb, { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        (lists) => {
          n += 1;
          const runId = `RC${n}`;
          runs.create({ runId, profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);
          const windows: ListWindow[] = lists.map((transactions, i) => ({
            startDate: `202506${String(i + 10)}`,
            endDate: `202506${String(i + 20)}`,
            fetchedAt: `2025-07-0${i + 1}T00:00:00.000Z`,
            state: 'listed',
            transactions,
          }));
          for (const w of [...windows].reverse()) runs.saveWindow(runId, w);
          expect(runs.readWindows(runId)).toStrictEqual(windows);
          runs.create({ runId: `${runId}b`, profileId: 'p1', label: 'again', createdAt: 't' } as RunFacts);
          runs.copyWindows(runId, `${runId}b`);
          expect(runs.readWindows(`${runId}b`)).toStrictEqual(windows);
        },
      ),
      { numRuns: 60 },
    );
    db.close();
  });

  it('a window with a currency this app does not handle is left out (asked again), as before', () => {
    const ok: Transaction = {
      transactionNo: '1',
      amountMinor: 1,
      currency: 'USD',
      status: 'success',
      transactionType: 'payment',
      refunds: [],
    };
    const zarRefund = {
      ...ok,
      refunds: [{ refundTransactionNo: 'R', refundAmountMinor: 1, currency: 'ZAR', status: 'success' }],
    } as unknown as Transaction;
    expect(decodeListColumns(encodeListColumns([ok]), isKnownCurrency)).toEqual([ok]);
    expect(decodeListColumns(encodeListColumns([ok, zarRefund]), isKnownCurrency)).toBeUndefined();
  });

  /** A month with payments of every kind the report tells apart, and a ledger of most of them. */
  function month() {
    const at = (d: number, h = 4) => new Date(Date.UTC(2025, 5, d, h)).toISOString();
    const listed: Transaction[] = [];
    const rows: LedgerRow[] = [];
    for (let i = 0; i < 60; i += 1) {
      const d = 1 + (i % 28);
      const t: Transaction = {
        transactionNo: `29755${String(i).padStart(5, '0')}`,
        ...(i % 3 === 0 ? { reference: `SO-${i}` } : {}),
        amountMinor: 100 + i,
        currency: i % 7 === 0 ? 'JPY' : 'USD',
        ...(i % 11 === 0 ? { settleCurrency: 'USD' as const } : {}),
        status: i % 13 === 0 ? 'closed' : 'success',
        ...(i % 5 === 0 ? { vendor: 'alipay' } : {}),
        transactionType: 'payment',
        createdAt: at(d),
        ...(i % 13 === 0 ? {} : { paidAt: at(d, 5) }),
        ...(i % 4 === 0 ? { cardLast4: '4242' } : {}),
        refunds:
          i % 6 === 0
            ? [{ refundTransactionNo: `R${i}`, refundAmountMinor: 10, currency: 'USD', status: 'success' }]
            : [],
      };
      listed.push(t);
      if (i % 10 === 9) continue; // the ledger lacks it
      rows.push({
        line: rows.length + 2,
        ...(i % 9 === 0 ? { reference: `SO-${i}` } : { transactionNo: t.transactionNo }),
        amountMinor: i % 8 === 0 ? 1 : t.amountMinor,
        currency: t.currency,
        status: 'paid',
        date: at(d).slice(0, 10),
        day: at(d).slice(0, 10),
      });
    }
    return { listed, rows };
  }

  const OPTIONS: ReconOptions = {
    period: { from: '2025-06-01', to: '2025-06-30' },
    days: 'service',
    timeZone: 'UTC',
    dateToleranceDays: 1,
    refundLookbackDays: 30,
  };

  /** The run's windows: every window the period needs, each with the payments created in it. */
  function windowsOf(listed: readonly Transaction[]) {
    const needed = listWindows(OPTIONS);
    return needed.map((w, i) => {
      const from = Date.parse(
        `${w.startDate.slice(0, 4)}-${w.startDate.slice(4, 6)}-${w.startDate.slice(6)}`,
      );
      const next = needed[i + 1];
      const to = next
        ? Date.parse(`${next.startDate.slice(0, 4)}-${next.startDate.slice(4, 6)}-${next.startDate.slice(6)}`)
        : Infinity;
      return {
        ...w,
        fetchedAt: '2025-07-02T00:00:00.000Z',
        transactions: listed.filter((t) => {
          const ms = Date.parse(t.createdAt ?? '') + 8 * 3_600_000;
          return (i === 0 || ms >= from) && ms < to;
        }),
      };
    });
  }

  /**
   * Creates the run (in a database of its own, whose job row is copied into `dir`'s database opened at
   * schema `version`), has `store` write its windows there, then runs it on `dir` opened by today's app
   * (migrating it): no lookups but not-found ones, no list fetched.
   */
  /** Matched rows the runs stored by reference without making their items (saveResultAsMade's putUsual). */
  let usualPuts = 0;
  async function runOn(
    dir: string,
    version: number,
    store: (db: ReturnType<typeof openDatabase>, runId: string) => void,
    /** Told the items as the run made them (what was shown), when they are stored. */
    onSave?: (items: readonly ReconItem[]) => void,
  ) {
    const { rows } = month();
    usualPuts = 0;
    const service = (storage: ReturnType<typeof openAppStorage>) =>
      createReconciliationService({
        runs: storage.runs,
        closing: storage.closing,
        jobs: storage.jobs,
        clock: { now: () => Date.parse('2025-07-03T00:00:00.000Z') },
        log,
        gatewayFor: () => ({
          queryTransaction: () => Promise.reject(new AppError('not_found', 'no such payment')),
          listTransactions: () => Promise.reject(new Error('the list is stored')),
        }),
        profile: () => ({ id: 'p1', name: 'Main' }),
        onProgress: () => undefined,
      });
    const scratchDir = dataDir();
    const scratch = openAppStorage({ dataDir: scratchDir, now: Date.now, log });
    const { runId } = service(scratch).create({
      label: 'june.csv',
      profileId: 'p1',
      file: {
        name: 'june.csv',
        encoding: 'utf-8',
        delimiter: ',',
        dataRows: rows.length,
        decimal: '.',
        dateOrder: 'ymd',
        decimalSource: 'detected',
        dateOrderSource: 'detected',
      },
      mapping: { transactionNo: 'No', reference: 'Ref', amount: 'Amount', currency: 'Ccy', date: 'Date' },
      options: OPTIONS,
    });
    scratch.close();
    const jobs = openDatabase(join(scratchDir, DATABASE_FILE), MIGRATIONS);
    const job = jobs.all('SELECT * FROM recon_jobs')[0]!;
    jobs.close();
    const db = openDatabase(
      join(dir, DATABASE_FILE),
      MIGRATIONS.filter((m) => m.version <= version),
    );
    expect(db.schemaVersion()).toBe(version);
    const cols = Object.keys(job);
    db.run(
      `INSERT INTO recon_jobs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ...cols.map((c) => job[c] as string | number | null),
    );
    store(db, runId);
    db.close();
    const storage = openAppStorage({ dataDir: dir, now: Date.now, log });
    if (onSave) {
      // The run stores its report as it is made (saveResultAsMade): the items as they are put.
      const save = storage.runs.saveResultAsMade.bind(storage.runs);
      storage.runs.saveResultAsMade = (id, write, refs) => {
        const items: ReconItem[] = [];
        const n = save(
          id,
          (put, putUsual) =>
            write(
              (item) => {
                items.push(structuredClone(item));
                put(item);
              },
              // A matched row stored by reference, its item never made: made here as documented
              // (run-store UsualMatchPut), from the run's stored rows and windows, to be what was shown.
              (fetchedAt, row, listed, dayOffset) => {
                usualPuts += 1;
                const ledger = storage.runs.readInput(id).rows[row]!;
                const colon = listed.lastIndexOf(':');
                const w = storage.runs.readWindows(id).find((x) => x.startDate === listed.slice(0, colon));
                const transaction = (w?.state === 'listed' ? w.transactions : [])[
                  Number(listed.slice(colon + 1))
                ]!;
                items.push(
                  structuredClone({
                    line: ledger.line,
                    matchedBy: ledger.transactionNo ? 'transactionNo' : 'reference',
                    ledger,
                    service: serviceView(transaction, 'list', fetchedAt),
                    transaction,
                    ...(dayOffset === undefined ? {} : { dayOffset }),
                    outcome: 'matched',
                    detail: '',
                    deltas: [],
                  } satisfies ReconItem),
                );
                putUsual(fetchedAt, row, listed, dayOffset);
              },
            ),
          refs,
        );
        onSave(items);
        return n;
      };
    }
    const s = service(storage);
    s.addInput(runId, 'row', rows);
    s.start(runId);
    await s.settled(runId);
    const out = {
      report: s.report(runId),
      items: s.items(runId, 0, 1000).items,
      windows: storage.runs.readWindows(runId),
    };
    storage.close();
    return out;
  }

  it('a list an earlier version stored (whole transactions, before v10) is read the same: the same report', async () => {
    const { listed } = month();
    const windows = windowsOf(listed);
    // Today: saveWindow packs them (v14).
    const now = await runOn(dataDir(), LATEST, (db, runId) => {
      const runs = createSqliteRunStore(db);
      for (const w of windows) runs.saveWindow(runId, { ...w, state: 'listed' });
      expect(db.all('SELECT DISTINCT layout FROM recon_windows')).toEqual([{ layout: 'packed' }]);
    });
    // An earlier version: schema v8, each window the JSON of its whole transactions, as main wrote it.
    const before = await runOn(dataDir(), 8, (db, runId) => {
      for (const w of windows)
        db.run(
          `INSERT INTO recon_windows (job_id, start_date, end_date, fetched_at, state, data)
           VALUES (?, ?, ?, ?, 'listed', ?)`,
          runId,
          w.startDate,
          w.endDate,
          w.fetchedAt,
          JSON.stringify(w.transactions),
        );
    });
    // v10–v13: each window the JSON of its columns; the file migrated to v14 on opening.
    const columns = await runOn(dataDir(), 13, (db, runId) => {
      for (const w of windows) saveAsColumns(db, runId, { ...w, state: 'listed' });
    });
    const listedOf = (ws: ListWindow[]) => ws.map((w) => (w.state === 'listed' ? w.transactions : []));
    expect(listedOf(before.windows)).toStrictEqual(windows.map((w) => w.transactions));
    expect(listedOf(columns.windows)).toStrictEqual(windows.map((w) => w.transactions));
    expect(listedOf(now.windows)).toStrictEqual(windows.map((w) => w.transactions));
    expect(columns.report.summary).toEqual(now.report.summary);
    expect(columns.items).toStrictEqual(now.items);
    expect(now.report.summary.counts.missing_in_ledger).toBeGreaterThan(0);
    expect(now.report.summary.counts.amount_mismatch).toBeGreaterThan(0);
    expect(now.report.summary.counts.matched).toBeGreaterThan(0);
    expect(before.report.summary).toEqual(now.report.summary);
    expect(before.items).toStrictEqual(now.items);
    expect(reportCsv(before.items)).toBe(reportCsv(now.items));
  });

  it('a run an earlier version completed (items as plain JSON, schema v8) re-opens line for line', async () => {
    const nowDir = dataDir();
    const now = await runOn(nowDir, LATEST, (db, runId) => {
      const runs = createSqliteRunStore(db);
      for (const w of windowsOf(month().listed)) runs.saveWindow(runId, { ...w, state: 'listed' });
    });
    const today = openDatabase(join(nowDir, DATABASE_FILE), MIGRATIONS);
    const job = today.all('SELECT * FROM recon_jobs')[0]!;
    const stored = storedItems(today);
    today.close();
    // Most items refer to the run's ledger and list today; an earlier version wrote every one as its JSON.
    expect(stored.filter((r) => /^[RM]/.test(r.data)).length).toBeGreaterThan(stored.length / 2);
    const dir = dataDir();
    const old = openDatabase(
      join(dir, DATABASE_FILE),
      MIGRATIONS.filter((m) => m.version <= 8),
    );
    const cols = Object.keys(job);
    old.run(
      `INSERT INTO recon_jobs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ...cols.map((c) => job[c] as string | number | null),
    );
    now.items.forEach((item, seq) =>
      old.run(
        'INSERT INTO recon_items (job_id, seq, line, outcome, data) VALUES (?, ?, ?, ?, ?)',
        String(job['id']),
        seq,
        item.line ?? null,
        item.outcome,
        JSON.stringify(item),
      ),
    );
    old.close();
    const storage = openAppStorage({ dataDir: dir, now: Date.now, log });
    const again = createReconciliationService({
      runs: storage.runs,
      closing: storage.closing,
      jobs: storage.jobs,
      clock: { now: Date.now },
      log,
      gatewayFor: () => {
        throw new Error('a re-opened run asks nothing');
      },
      profile: () => ({ id: 'p1', name: 'Main' }),
      onProgress: () => undefined,
    });
    const runId = String(job['id']);
    expect(again.report(runId).summary).toEqual(now.report.summary);
    const items = again.items(runId, 0, 1000).items;
    expect(items).toStrictEqual(now.items);
    expect(reportCsv(items)).toBe(reportCsv(now.items));
    storage.close();
  });

  /** A fresh app on `dir` (nothing kept from the run's process): the run's record as re-opened. */
  function reopen(dir: string) {
    const storage = openAppStorage({ dataDir: dir, now: Date.now, log });
    const again = createReconciliationService({
      runs: storage.runs,
      closing: storage.closing,
      jobs: storage.jobs,
      clock: { now: Date.now },
      log,
      gatewayFor: () => {
        throw new Error('a re-opened run asks nothing');
      },
      profile: () => ({ id: 'p1', name: 'Main' }),
      onProgress: () => undefined,
    });
    return { storage, again };
  }

  it('items refer to the run’s own ledger rows and listed payments (v12) and re-open as they were shown', async () => {
    const dir = dataDir();
    let shown: readonly ReconItem[] = [];
    const run = await runOn(
      dir,
      LATEST,
      (db, runId) => {
        const runs = createSqliteRunStore(db);
        for (const w of windowsOf(month().listed)) runs.saveWindow(runId, { ...w, state: 'listed' });
      },
      (items) => (shown = items),
    );
    const runId = run.report.run.runId;
    const db = openDatabase(join(dir, DATABASE_FILE), MIGRATIONS);
    const stored = storedItems(db);
    db.close();
    // Every item with a ledger row refers to it; every matched row's payment is one of the list's.
    const withRow = shown.filter((i) => i.ledger).length;
    expect(stored.filter((r) => /^[RM][^\t]*\t[^\t]*\t\d+\t/.test(r.data)).length).toBe(withRow);
    expect(stored.filter((r) => /^[RM][^\t]*\t[^\t]*\t\d*\t\d{8}:\d+\t/.test(r.data)).length).toBeGreaterThan(
      shown.filter((i) => i.outcome === 'matched').length - 1,
    );
    expect(stored.every((r) => !r.data.includes('"ledger"'))).toBe(true);
    // The usual matched row is stored as its references alone — and was never made as an item.
    expect(stored.filter((r) => r.data.startsWith('M')).length).toBeGreaterThan(0);
    expect(usualPuts).toBeGreaterThan(shown.filter((i) => i.outcome === 'matched').length / 2);
    const { storage, again } = reopen(dir);
    // Read in pages that do not line up with anything, as the screen reads them.
    const pages: ReconItem[] = [];
    for (let offset = 0; offset < shown.length; offset += 7)
      pages.push(...again.items(runId, offset, 7).items);
    expect(pages).toStrictEqual(shown);
    expect(reportCsv(pages)).toBe(reportCsv(shown));
    const exceptions = await storage.closing.readExceptionItems(runId);
    expect(exceptions.map((e) => e.item)).toStrictEqual(shown.filter((i) => i.outcome !== 'matched'));
    storage.close();
  });

  it('a run completed at schema v11 (each item with its own copies) re-opens line for line', async () => {
    const nowDir = dataDir();
    let shown: readonly ReconItem[] = [];
    await runOn(
      nowDir,
      LATEST,
      (db, runId) => {
        const runs = createSqliteRunStore(db);
        for (const w of windowsOf(month().listed)) runs.saveWindow(runId, { ...w, state: 'listed' });
      },
      (items) => (shown = items),
    );
    const today = openDatabase(join(nowDir, DATABASE_FILE), MIGRATIONS);
    const job = today.all('SELECT * FROM recon_jobs')[0]!;
    today.close();
    const dir = dataDir();
    const old = openDatabase(
      join(dir, DATABASE_FILE),
      MIGRATIONS.filter((m) => m.version <= 11),
    );
    const cols = Object.keys(job);
    old.run(
      `INSERT INTO recon_jobs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ...cols.map((c) => job[c] as string | number | null),
    );
    // As v10 and v11 stored them: the service side left out where the transaction gives it, else JSON.
    shown.forEach((item, seq) =>
      old.run(
        'INSERT INTO recon_items (job_id, seq, line, outcome, data) VALUES (?, ?, ?, ?, ?)',
        String(job['id']),
        seq,
        item.line ?? null,
        item.outcome,
        encodeItem(item),
      ),
    );
    expect(
      old.all<{ n: number }>("SELECT count(*) AS n FROM recon_items WHERE data LIKE 'S%'")[0]!.n,
    ).toBeGreaterThan(0);
    old.close();
    const runId = String(job['id']);
    const { storage, again } = reopen(dir);
    const items = again.items(runId, 0, 1000).items;
    expect(items).toStrictEqual(shown);
    expect(reportCsv(items)).toBe(reportCsv(shown));
    storage.close();
  });

  it('a run completed at schema v12 (a row per item) re-opens line for line once the file is at v13', async () => {
    const nowDir = dataDir();
    let shown: readonly ReconItem[] = [];
    await runOn(
      nowDir,
      12,
      (db, runId) => {
        // As v12 stored its list: columns.
        for (const w of windowsOf(month().listed)) saveAsColumns(db, runId, { ...w, state: 'listed' });
      },
      (items) => (shown = items),
    );
    // The run's record as v12 wrote it: its job, ledger and list, and each item (the same texts, which
    // refer to that ledger and list) a row of recon_items.
    const today = openDatabase(join(nowDir, DATABASE_FILE), MIGRATIONS);
    const tables = ['recon_jobs', 'recon_inputs', 'recon_windows'].map((t) => ({
      t,
      rows: today.all(`SELECT * FROM ${t}`),
    }));
    const texts = storedItems(today).map((r) => r.data);
    today.close();
    expect(texts.filter((t) => /^[RM]/.test(t)).length).toBeGreaterThan(shown.length / 2);
    const dir = dataDir();
    const v12 = openDatabase(
      join(dir, DATABASE_FILE),
      MIGRATIONS.filter((m) => m.version <= 12),
    );
    for (const { t, rows } of tables)
      for (const r of rows) {
        const cols = Object.keys(r);
        v12.run(
          `INSERT INTO ${t} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
          ...cols.map((c) => r[c] as string | number | null),
        );
      }
    texts.forEach((data, seq) =>
      v12.run(
        'INSERT INTO recon_items (job_id, seq, line, outcome, data) VALUES (?, ?, ?, ?, ?)',
        String(tables[0]!.rows[0]!['id']),
        seq,
        shown[seq]!.line ?? null,
        shown[seq]!.outcome,
        data,
      ),
    );
    v12.close();
    const runId = String(tables[0]!.rows[0]!['id']);
    const { storage, again } = reopen(dir);
    expect(again.report(runId).items).toBe(shown.length);
    const pages: ReconItem[] = [];
    for (let offset = 0; offset < shown.length; offset += 7)
      pages.push(...again.items(runId, offset, 7).items);
    expect(pages).toStrictEqual(shown);
    expect(reportCsv(pages)).toBe(reportCsv(shown));
    const exceptions = await storage.closing.readExceptionItems(runId);
    expect(exceptions).toStrictEqual(
      shown.flatMap((item, seq) => (item.outcome === 'matched' ? [] : [{ seq, item }])),
    );
    storage.close();
    // Migrated, and the run kept as it was stored.
    const after = openDatabase(join(dir, DATABASE_FILE), MIGRATIONS);
    expect(after.schemaVersion()).toBe(LATEST);
    expect(after.all('SELECT * FROM recon_item_pages')).toEqual([]);
    after.close();
  });

  it.each([
    ['stored today (packed)', LATEST],
    ['stored at v12 (columns), the file since migrated', 12],
  ])(
    'once a run is signed its ledger and list, which its items refer to, cannot change: %s',
    async (_, version) => {
      const dir = dataDir();
      const run = await runOn(dir, version, (db, runId) => {
        const runs = createSqliteRunStore(db);
        for (const w of windowsOf(month().listed))
          if (version === LATEST) runs.saveWindow(runId, { ...w, state: 'listed' });
          else saveAsColumns(db, runId, { ...w, state: 'listed' });
      });
      const runId = run.report.run.runId;
      const db = openDatabase(join(dir, DATABASE_FILE), MIGRATIONS);
      // Before the sign-off the rows are the run's to write (a draft's ledger arrives in chunks).
      db.run("UPDATE recon_inputs SET data = data WHERE job_id = ? AND kind = 'row'", runId);
      db.run(
        'INSERT INTO recon_signoffs (run_id, by, at, comment, open_ids, content_hash) VALUES (?, ?, ?, ?, ?, ?)',
        runId,
        'controller',
        '2025-07-04T00:00:00.000Z',
        'ok',
        '[]',
        'a'.repeat(64),
      );
      expect(() => db.run("UPDATE recon_inputs SET data = '[]' WHERE job_id = ?", runId)).toThrow(
        /ledger cannot change/,
      );
      expect(() => db.run('DELETE FROM recon_inputs WHERE job_id = ?', runId)).toThrow(
        /ledger cannot change/,
      );
      expect(() =>
        db.run(
          "INSERT INTO recon_inputs (job_id, seq, kind, count, data) VALUES (?, 999, 'row', 0, '[]')",
          runId,
        ),
      ).toThrow(/ledger cannot change/);
      expect(() => db.run("UPDATE recon_windows SET data = '{}' WHERE job_id = ?", runId)).toThrow(
        /list cannot change/,
      );
      expect(() => db.run('DELETE FROM recon_windows WHERE job_id = ?', runId)).toThrow(/list cannot change/);
      db.close();
    },
  );

  it('schema 13 → 14: a window stored as columns is kept byte for byte and read as before; new ones are packed', () => {
    const dir = dataDir();
    const file = join(dir, DATABASE_FILE);
    const v13 = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version <= 13),
    );
    const runs13 = createSqliteRunStore(v13);
    runs13.create({ runId: 'RC1', profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);
    const [w] = windowsOf(month().listed);
    saveAsColumns(v13, 'RC1', { ...w!, state: 'listed' });
    v13.run(
      `INSERT INTO recon_windows (job_id, start_date, end_date, fetched_at, state, data)
       VALUES ('RC1', '20250699', '20250699', 't', 'unsupported', '"not offered"')`,
    );
    const before = v13.all('SELECT * FROM recon_windows ORDER BY start_date');
    v13.close();
    const db = openDatabase(file, MIGRATIONS);
    expect(db.schemaVersion()).toBe(14);
    expect(db.all('SELECT * FROM recon_windows ORDER BY start_date')).toEqual(before);
    const runs = createSqliteRunStore(db);
    expect(runs.readWindows('RC1')).toStrictEqual([
      { ...w!, state: 'listed' },
      {
        startDate: '20250699',
        endDate: '20250699',
        fetchedAt: 't',
        state: 'unsupported',
        message: 'not offered',
      },
    ]);
    runs.saveWindow('RC1', { ...w!, startDate: '20250700', state: 'listed' });
    expect(
      db.get('SELECT layout, typeof(data) AS type FROM recon_windows WHERE start_date = ?', '20250700'),
    ).toEqual({ layout: 'packed', type: 'blob' });
    // The signed run's list stays unchangeable on the table made again.
    db.run(
      'INSERT INTO recon_signoffs (run_id, by, at, comment, open_ids, content_hash) VALUES (?, ?, ?, ?, ?, ?)',
      'RC1',
      'controller',
      '2025-07-04T00:00:00.000Z',
      'ok',
      '[]',
      'a'.repeat(64),
    );
    expect(() => db.run('DELETE FROM recon_windows WHERE job_id = ?', 'RC1')).toThrow(/list cannot change/);
    db.close();
  });
});
