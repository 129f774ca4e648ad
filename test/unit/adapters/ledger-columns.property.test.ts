/**
 * A run's ledger rows as stored since schema v12, smaller since v13 (electron/core/adapters/sqlite/ledger-columns.ts):
 * every chunk reads back exactly as handed over (absent fields absent, empty strings empty), entries
 * that are not plain ledger rows are kept as their JSON, and a chunk an earlier version stored (the
 * JSON of its rows) reads as it always did — through the store, as a run reads its ledger.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import {
  decodeLedgerChunk,
  encodeLedgerColumns,
} from '../../../electron/core/adapters/sqlite/ledger-columns';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { RunFacts } from '../../../shared/recon/run';
import { text } from '../recon/arbitraries';

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const rowArb: fc.Arbitrary<LedgerRow> = fc
  .record({
    line: fc.integer({ min: 2, max: 2_000_000 }),
    transactionNo: opt(fc.stringMatching(/^\d{1,32}$/)),
    reference: opt(text),
    amountMinor: fc.integer({ min: -1e12, max: 1e12 }),
    currency: fc.constantFrom('USD', 'CNY', 'JPY'),
    date: opt(text),
    day: opt(fc.constantFrom('2025-06-01', '2025-06-30')),
    status: fc.constantFrom('paid', 'refunded', 'unpaid', 'other'),
    statusText: opt(fc.oneof(fc.constantFrom('Paid', 'Refunded', ''), text)),
    refundedMinor: opt(fc.integer({ min: 0, max: 1e9 })),
    keyNote: opt(text),
  })
  .map((r) => {
    // As the importer makes them: optional fields absent, not undefined.
    const row = { ...r } as Record<string, unknown>;
    for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
    return row as LedgerRow;
  });

describe('ledger rows stored as columns', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('encode → decode gives every row back exactly', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (rows) => {
        const stored = encodeLedgerColumns(rows);
        expect(stored?.startsWith('{')).toBe(true);
        expect(decodeLedgerChunk(stored!)).toStrictEqual(rows);
      }),
      { numRuns: 500 },
    );
  });

  it('the usual rows (day = date, a period’s dates, no refunds or notes) are written compactly (v13), read back exactly', () => {
    const usual = fc
      .record({
        row: rowArb,
        date: opt(fc.constantFrom('2025-06-01', '2025-06-02', '2025-06-30')),
        refunded: fc.boolean(),
      })
      .map(({ row, date, refunded }) => {
        const { date: _d, day: _y, refundedMinor: _r, keyNote: _k, ...rest } = row;
        const r: LedgerRow = { ...rest };
        if (date !== undefined) {
          r.date = date;
          r.day = date;
        }
        if (refunded && row.refundedMinor !== undefined) r.refundedMinor = row.refundedMinor;
        return r;
      });
    fc.assert(
      fc.property(fc.array(usual, { maxLength: 40 }), (rows) => {
        const stored = encodeLedgerColumns(rows)!;
        const c = JSON.parse(stored) as Record<string, unknown>;
        expect(c['day']).toBe('date');
        expect(c['date']).toHaveProperty('d');
        expect('kn' in c).toBe(false);
        expect('rf' in c).toBe(rows.some((r) => r.refundedMinor !== undefined));
        expect(decodeLedgerChunk(stored)).toStrictEqual(rows);
      }),
      { numRuns: 300 },
    );
  });

  it('a chunk as schema v12 wrote it (every column an array) reads as before', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 30 }), (rows) => {
        const dict = (values: Array<string | undefined>) => {
          const d = [...new Set(values.filter((v) => v !== undefined))];
          return { d, i: values.map((v) => (v === undefined ? -1 : d.indexOf(v))) };
        };
        const v12 = JSON.stringify({
          n: rows.length,
          line: rows.map((r) => r.line),
          no: rows.map((r) => r.transactionNo ?? null),
          ref: rows.map((r) => r.reference ?? null),
          amt: rows.map((r) => r.amountMinor),
          cur: dict(rows.map((r) => r.currency)),
          date: rows.map((r) => r.date ?? null),
          day: rows.map((r) => r.day ?? null),
          st: dict(rows.map((r) => r.status)),
          stx: dict(rows.map((r) => r.statusText)),
          rf: rows.map((r) => r.refundedMinor ?? null),
          kn: rows.map((r) => r.keyNote ?? null),
        });
        expect(decodeLedgerChunk(v12)).toStrictEqual(rows);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the text a plain walk writes: each column in row order, each dictionary in first-seen order', () => {
    // The reference: every column built by map over the rows, dictionaries by first appearance.
    const dict = (values: Array<string | undefined>) => {
      const d = [...new Set(values.filter((v) => v !== undefined))];
      return { d, i: values.map((v) => (v === undefined ? -1 : d.indexOf(v))) };
    };
    const reference = (rows: LedgerRow[]) => {
      const c: Record<string, unknown> = {
        n: rows.length,
        line: rows.map((r) => r.line),
        no: rows.map((r) => r.transactionNo ?? null),
        ref: rows.map((r) => r.reference ?? null),
        amt: rows.map((r) => r.amountMinor),
        cur: dict(rows.map((r) => r.currency)),
        date: dict(rows.map((r) => r.date)),
        day: rows.every((r) => r.day === r.date) ? 'date' : dict(rows.map((r) => r.day)),
        st: dict(rows.map((r) => r.status)),
        stx: dict(rows.map((r) => r.statusText)),
      };
      if (rows.some((r) => r.refundedMinor !== undefined)) c['rf'] = rows.map((r) => r.refundedMinor ?? null);
      if (rows.some((r) => r.keyNote !== undefined)) c['kn'] = rows.map((r) => r.keyNote ?? null);
      return JSON.stringify(c);
    };
    // Days that are mostly their dates, so both the 'date' form and a day column (from any row) occur.
    const dayish = fc
      .tuple(rowArb, fc.nat(5))
      .map(([r, k]) => (k > 0 && r.date !== undefined ? { ...r, day: r.date } : r));
    fc.assert(
      fc.property(fc.array(dayish, { maxLength: 40 }), (rows) => {
        expect(encodeLedgerColumns(rows)).toBe(reference(rows));
      }),
      { numRuns: 1000 },
    );
  });

  it('entries that are not plain ledger rows are not put in columns (kept as their JSON)', () => {
    const row: LedgerRow = { line: 2, transactionNo: '1', amountMinor: 1, currency: 'USD', status: 'paid' };
    expect(encodeLedgerColumns([row, { ...row, extra: 1 }])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, amountMinor: '1' }])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, reference: undefined }])).toBeUndefined();
    expect(encodeLedgerColumns([row, null])).toBeUndefined();
    // Whatever the key, a field the layout has no column for; a known one that is not its type.
    expect(encodeLedgerColumns([row, { ...row, '': 'x' }])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, refundedMinor: undefined }])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, refundedMinor: '5' }])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, day: 20250601 }])).toBeUndefined();
    expect(encodeLedgerColumns([row, Object.assign(Object.create(null) as object, row)])).toBeUndefined();
    expect(encodeLedgerColumns([row, [row]])).toBeUndefined();
    expect(encodeLedgerColumns([row, { ...row, refundedMinor: 5, keyNote: 'n' }])).toBeDefined();
  });

  it('the store writes columns and reads them, and reads chunks stored as JSON by earlier versions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-ledger-columns-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(rowArb, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        (chunks, earlier) => {
          n += 1;
          const runId = `RC${n}`;
          runs.create({ runId, profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);
          chunks.forEach((rows, i) => {
            if (!earlier[i]) return void runs.addInput(runId, 'row', rows);
            // An earlier version's chunk: the JSON of its rows.
            db.run(
              "INSERT INTO recon_inputs (job_id, seq, kind, count, data) VALUES (?, ?, 'row', ?, ?)",
              runId,
              i,
              rows.length,
              JSON.stringify(rows),
            );
          });
          const stored = db.all<{ data: string }>(
            'SELECT data FROM recon_inputs WHERE job_id = ? ORDER BY seq',
            runId,
          );
          stored.forEach((r, i) => expect(r.data[0]).toBe(earlier[i] ? '[' : '{'));
          // As stored (a store that was not handed them: a restart), and as handed in this process.
          expect(createSqliteRunStore(db).readInput(runId).rows).toStrictEqual(chunks.flat());
          expect(runs.readInput(runId).rows).toStrictEqual(chunks.flat());
        },
      ),
      { numRuns: 80 },
    );
    db.close();
  });
});
