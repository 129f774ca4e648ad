/**
 * A run's report items stored in pages (schema v13, electron/core/adapters/sqlite/recon-run-store.ts):
 * read back exactly whatever the offset and size of the page asked for, counted, and the close's
 * exceptions read from them; and the ledger a run was handed in this process is given to it as handed,
 * while the stored copy stays what a restart reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../../electron/core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore, ITEMS_PER_PAGE } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { ItemRefs } from '../../../electron/core/services/reconciliation/run-store';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { ReconItem } from '../../../shared/recon/match';
import type { RunFacts } from '../../../shared/recon/run';
import type { ReconSummary } from '../../../shared/recon/summary';

const row = (i: number): LedgerRow => ({
  line: i + 2,
  transactionNo: String(1000 + i),
  amountMinor: 100 + i,
  currency: 'USD',
  status: 'paid',
});

/** Item `i`: most matched, every 97th an amount mismatch, every 500th a payment the ledger lacks. */
function item(i: number, rows: readonly LedgerRow[]): ReconItem {
  if (i % 500 === 499)
    return { outcome: 'missing_in_ledger', detail: `payment ${i} is not in the ledger`, deltas: [] };
  const ledger = rows[i]!;
  const base = { line: ledger.line, matchedBy: 'transactionNo' as const, ledger, dayOffset: 0 };
  return i % 97 === 3
    ? {
        ...base,
        outcome: 'amount_mismatch',
        detail: `Ledger has ${i}.00 USD.`,
        deltas: [{ currency: 'USD', amountMinor: i }],
      }
    : { ...base, outcome: 'matched', detail: '', deltas: [] };
}

describe('report items in pages', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dbPath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-item-pages-'));
    dirs.push(dir);
    return join(dir, 'refund-desk.db');
  };
  const create = (runs: ReturnType<typeof createSqliteRunStore>, runId: string) =>
    runs.create({ runId, profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);

  it('re-open exactly (a fresh process) at every page boundary, counted, exceptions from them', async () => {
    const path = dbPath();
    const n = 2 * ITEMS_PER_PAGE + 345;
    const rows = Array.from({ length: n }, (_, i) => row(i));
    const items = Array.from({ length: n }, (_, i) => item(i, rows));
    let db = openDatabase(path, MIGRATIONS);
    let runs = createSqliteRunStore(db);
    create(runs, 'RC1');
    for (let i = 0; i < n; i += 1000) runs.addInput('RC1', 'row', rows.slice(i, i + 1000));
    // The items refer to the run's stored rows (item-codec's R and plain forms in the same pages).
    const refs: ItemRefs = { rowOf: (r) => rows.indexOf(r), listedOf: () => undefined };
    runs.saveResult(
      'RC1',
      { facts: { runId: 'RC1' } as RunFacts, summary: {} as ReconSummary, statement: ['s'], items },
      refs,
    );
    db.close();

    db = openDatabase(path, MIGRATIONS);
    runs = createSqliteRunStore(db);
    // Three rows for 2,345 items, none a row of its own.
    expect(db.all('SELECT first_seq, count FROM recon_item_pages ORDER BY first_seq')).toEqual([
      { first_seq: 0, count: ITEMS_PER_PAGE },
      { first_seq: ITEMS_PER_PAGE, count: ITEMS_PER_PAGE },
      { first_seq: 2 * ITEMS_PER_PAGE, count: 345 },
    ]);
    expect(db.all('SELECT * FROM recon_items')).toEqual([]);
    expect(runs.get('RC1')?.result?.items).toBe(n);
    const P = ITEMS_PER_PAGE;
    for (const offset of [0, 1, P - 2, P - 1, P, P + 1, 2 * P - 1, 2 * P, n - 1, n, n + 5])
      for (const limit of [0, 1, 2, 3, 7, P, P + 1, 2 * P + 1, 10 * P])
        expect(runs.readItems('RC1', offset, limit), `${offset}+${limit}`).toStrictEqual(
          items.slice(offset, offset + limit),
        );
    const all: ReconItem[] = [];
    for (let offset = 0; offset < n; offset += 7) all.push(...runs.readItems('RC1', offset, 7));
    expect(all).toStrictEqual(items);
    const exceptions = await createSqliteCloseStore(db).readExceptionItems('RC1');
    expect(exceptions).toStrictEqual(
      items.flatMap((item, seq) => (item.outcome === 'matched' ? [] : [{ seq, item }])),
    );
    expect(exceptions.length).toBeGreaterThan(20);
    // Saved again (a re-save replaces), then removed: nothing of it stays.
    runs.saveResult('RC1', {
      facts: { runId: 'RC1' } as RunFacts,
      summary: {} as ReconSummary,
      statement: ['s'],
      items: items.slice(0, 3),
    });
    expect(runs.get('RC1')?.result?.items).toBe(3);
    expect(runs.readItems('RC1', 0, 10)).toStrictEqual(items.slice(0, 3));
    runs.remove('RC1');
    expect(db.all('SELECT * FROM recon_item_pages')).toEqual([]);
    db.close();
  });

  it('a result stored as it is made: each page written once full, byte for byte what saving the items at once writes', () => {
    const db = openDatabase(dbPath(), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    const n = 2 * ITEMS_PER_PAGE + 345;
    const rows = Array.from({ length: n }, (_, i) => row(i));
    const items = Array.from({ length: n }, (_, i) => item(i, rows));
    const refs = (): ItemRefs => ({ rowOf: (r) => rows.indexOf(r), listedOf: () => undefined });
    const head = { facts: { runId: 'RC1' } as RunFacts, summary: {} as ReconSummary, statement: ['s'] };
    for (const id of ['RC1', 'RC2']) {
      create(runs, id);
      for (let i = 0; i < n; i += 1000) runs.addInput(id, 'row', rows.slice(i, i + 1000));
    }
    runs.saveResult('RC1', { ...head, items }, refs());
    const pagesWritten: number[] = [];
    const count = runs.saveResultAsMade(
      'RC2',
      (put) => {
        items.forEach((x, i) => {
          // Before each item is put: the pages of the items before it that fill a page are stored.
          pagesWritten.push(
            Number(
              db.get<{ n: number }>("SELECT count(*) AS n FROM recon_item_pages WHERE job_id = 'RC2'")?.n,
            ),
          );
          put(x);
          if (i === n - 1) expect(pagesWritten[i]).toBe(2);
        });
        return head;
      },
      refs(),
    );
    expect(count).toBe(n);
    expect(pagesWritten[ITEMS_PER_PAGE - 1]).toBe(0);
    expect(pagesWritten[ITEMS_PER_PAGE]).toBe(1);
    expect(pagesWritten[2 * ITEMS_PER_PAGE]).toBe(2);
    const pages = (id: string) =>
      db.all(
        'SELECT first_seq, count, unmatched, data FROM recon_item_pages WHERE job_id = ? ORDER BY first_seq',
        id,
      );
    expect(pages('RC2')).toEqual(pages('RC1'));
    expect(runs.get('RC2')?.result).toEqual(runs.get('RC1')?.result);
    expect(runs.readItems('RC2', 0, n)).toStrictEqual(items);
    // A result whose making fails stores nothing of it: the earlier record stays whole.
    expect(() =>
      runs.saveResultAsMade('RC2', (put) => {
        for (const x of items) put(x);
        throw new Error('the report could not be made');
      }),
    ).toThrow('the report could not be made');
    expect(pages('RC2')).toEqual(pages('RC1'));
    db.close();
  });

  it('a run is given the ledger rows it was handed in this process; the stored copy reads the same', () => {
    const path = dbPath();
    const db = openDatabase(path, MIGRATIONS);
    const runs = createSqliteRunStore(db);
    create(runs, 'RC1');
    const rows = Array.from({ length: 12 }, (_, i) => row(i));
    const first = rows.slice(0, 5);
    runs.addInput('RC1', 'row', first);
    runs.addInput('RC1', 'unusable', [{ line: 99, reason: 'no amount' }]);
    runs.addInput('RC1', 'row', rows.slice(5));
    // The caller's array is its own: emptying it after handing it over changes nothing.
    first.length = 0;
    const input = runs.readInput('RC1');
    expect(input.rows).toHaveLength(12);
    input.rows.forEach((r, i) => expect(r).toBe(rows[i]));
    expect(input.unusable).toEqual([{ line: 99, reason: 'no amount' }]);
    // What a restart reads (another store on the file) is the same ledger.
    const other = openDatabase(path, MIGRATIONS);
    expect(createSqliteRunStore(other).readInput('RC1')).toStrictEqual(input);
    other.close();
    // Given once: read again, it is the stored copy.
    const again = runs.readInput('RC1');
    expect(again).toStrictEqual(input);
    expect(again.rows[0]).not.toBe(rows[0]);
    db.close();
  });

  it('rows that the columns would not give back exactly, or another run’s, are read from the store', () => {
    const db = openDatabase(dbPath(), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    create(runs, 'RC1');
    create(runs, 'RC2');
    // Not a plain ledger row: stored as its JSON, and read as stored (not as handed).
    const odd = { ...row(0), note: undefined };
    runs.addInput('RC1', 'row', [odd]);
    const read = runs.readInput('RC1').rows[0];
    expect(read).not.toBe(odd);
    expect(read).toStrictEqual(row(0));
    // One run's rows are kept at a time: RC2's replace RC1's.
    const a = row(1);
    runs.addInput('RC1', 'row', [a]);
    runs.addInput('RC2', 'row', [row(2)]);
    expect(runs.readInput('RC1').rows[1]).not.toBe(a);
    expect(runs.readInput('RC1').rows[1]).toStrictEqual(a);
    db.close();
  });

  it('rows handed over for a run that is not started are let go after a minute (read from the store then)', () => {
    vi.useFakeTimers();
    const db = openDatabase(dbPath(), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    create(runs, 'RC1');
    const a = row(0);
    runs.addInput('RC1', 'row', [a]);
    vi.advanceTimersByTime(59_000);
    const b = row(1);
    // Each chunk restarts the minute.
    runs.addInput('RC1', 'row', [b]);
    vi.advanceTimersByTime(59_000);
    expect(runs.readInput('RC1').rows[1]).toBe(b);
    const c = row(2);
    runs.addInput('RC1', 'row', [c]);
    vi.advanceTimersByTime(61_000);
    const rows = runs.readInput('RC1').rows;
    expect(rows[2]).not.toBe(c);
    expect(rows).toStrictEqual([a, b, c]);
    db.close();
  });
});
