/**
 * Report items as stored since schema v10 (electron/core/adapters/sqlite/item-codec.ts): whatever is
 * written reads back exactly, the compact form is used only where the service side is the one the
 * transaction gives, and items stored before v10 (plain JSON) read as they always did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeItem, encodeItem } from '../../../electron/core/adapters/sqlite/item-codec';
import { RECON_OUTCOMES, serviceView, type ReconItem, type ServiceSource } from '../../../shared/recon/match';
import { text, transactionArb } from '../recon/arbitraries';
import type { LedgerRow } from '../../../shared/recon/ledger';

const source = fc.constantFrom<ServiceSource>('lookup', 'list', 'cache');

/** An item with a transaction and a service side: made of it (as the engine does), or not. */
const itemArb: fc.Arbitrary<{ item: ReconItem; derived: boolean }> = fc
  .record({
    line: fc.option(fc.integer({ min: 2, max: 1e6 }), { nil: undefined }),
    outcome: fc.constantFrom(...RECON_OUTCOMES),
    transaction: fc.option(transactionArb, { nil: undefined }),
    source,
    fetchedAt: fc.oneof(fc.constant('2025-07-02T00:00:00.000Z'), text),
    service: fc.constantFrom('made', 'changed', 'absent', 'other source'),
    detail: text,
    dayOffset: fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
  })
  .map((r) => {
    const item: ReconItem = { outcome: r.outcome, detail: r.detail, deltas: [] };
    if (r.line !== undefined) item.line = r.line;
    if (r.transaction) item.transaction = r.transaction;
    if (r.dayOffset !== undefined) item.dayOffset = r.dayOffset;
    const base = r.transaction ?? {
      transactionNo: '1',
      amountMinor: 5,
      currency: 'USD' as const,
      status: 'success' as const,
      transactionType: 'payment' as const,
      refunds: [],
    };
    const view = serviceView(base, r.source, r.fetchedAt);
    if (r.service === 'made') item.service = view;
    if (r.service === 'changed') item.service = { ...view, amountMinor: view.amountMinor + 1 };
    if (r.service === 'other source') item.service = { ...view, source: 'elsewhere' as ServiceSource };
    return { item, derived: r.service === 'made' && r.transaction !== undefined };
  });

describe('report items as stored', () => {
  it('read back exactly as written; compact only where the service side is the transaction’s', () => {
    fc.assert(
      fc.property(itemArb, ({ item, derived }) => {
        const stored = encodeItem(item);
        expect(decodeItem(stored)).toStrictEqual(item);
        expect(stored.startsWith('S')).toBe(derived && !item.service!.fetchedAt.includes('\t'));
      }),
      { numRuns: 3000 },
    );
  });

  it('an item stored before v10 (its plain JSON) reads as it always did', () => {
    fc.assert(
      fc.property(itemArb, ({ item }) => {
        expect(decodeItem(JSON.stringify(item))).toStrictEqual(item);
      }),
      { numRuns: 1000 },
    );
  });

  it('an item that refers to its run’s ledger row and listed payment (v12) reads back exactly', () => {
    const row: LedgerRow = { line: 7, transactionNo: '297', amountMinor: 5, currency: 'USD', status: 'paid' };
    fc.assert(
      fc.property(
        itemArb,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 1e6 }),
        ({ item, derived }, withRow, byRef, at) => {
          if (withRow) item.ledger = row;
          // The run's stored records: the row at position 41, the payment at `at` of window 20250601.
          const place = item.transaction && byRef ? `20250601:${at}` : undefined;
          const refs = {
            rowOf: (r: LedgerRow) => (r === row ? 41 : -1),
            listedOf: (t: NonNullable<ReconItem['transaction']>) =>
              t === item.transaction ? place : undefined,
          };
          const referents = {
            row: (k: number) => {
              expect(k).toBe(41);
              return structuredClone(row);
            },
            listed: (w: string, k: number) => {
              expect([w, k]).toEqual(['20250601', at]);
              return structuredClone(item.transaction!);
            },
          };
          const stored = encodeItem(item, refs);
          expect(stored.startsWith('R')).toBe(withRow || place !== undefined);
          if (stored.startsWith('R')) {
            // Neither copy is in the stored text, nor the service side the transaction gives.
            if (withRow) expect(stored).not.toContain('"ledger"');
            if (place) expect(stored).not.toContain('"transaction"');
            if (derived && !item.service!.fetchedAt.includes('\t')) expect(stored).not.toContain('"service"');
          }
          expect(decodeItem(stored, referents)).toStrictEqual(item);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('an item that refers to its run’s records cannot be read without them (never half an item)', () => {
    const row: LedgerRow = { line: 7, transactionNo: '297', amountMinor: 5, currency: 'USD', status: 'paid' };
    const item: ReconItem = { line: 7, outcome: 'matched', ledger: row, detail: '', deltas: [] };
    const stored = encodeItem(item, { rowOf: () => 0, listedOf: () => undefined });
    expect(() => decodeItem(stored)).toThrow(/refers to its run/);
  });

  it('the usual matched row (v12) is stored as its references alone and reads back exactly', () => {
    const tx = {
      transactionNo: '297',
      amountMinor: 5,
      currency: 'USD' as const,
      status: 'success' as const,
      transactionType: 'payment' as const,
      paidAt: '2025-06-02T01:00:00.000Z',
      refunds: [],
    };
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
        source,
        fc.constantFrom('', 'x', 'extra'),
        (byTx, dayOffset, src, change) => {
          const row: LedgerRow = byTx
            ? { line: 9, transactionNo: '297', amountMinor: 5, currency: 'USD', status: 'paid' }
            : { line: 9, reference: 'SO-1', amountMinor: 5, currency: 'USD', status: 'paid' };
          const item: ReconItem = {
            line: 9,
            matchedBy: byTx ? 'transactionNo' : 'reference',
            ledger: row,
            service: serviceView(tx, src, '2025-07-02T00:00:00.000Z'),
            transaction: tx,
            outcome: 'matched',
            detail: '',
            deltas: [],
          };
          if (dayOffset !== undefined) item.dayOffset = dayOffset;
          // Anything more than the usual makes it an R item.
          if (change === 'x') item.detail = 'x';
          if (change === 'extra') item.duplicateOfLine = 3;
          const refs = { rowOf: () => 12, listedOf: () => '20250601:4' };
          const referents = { row: () => structuredClone(row), listed: () => structuredClone(tx) };
          const stored = encodeItem(item, refs);
          expect(stored[0]).toBe(change === '' ? 'M' : 'R');
          expect(decodeItem(stored, referents)).toStrictEqual(item);
        },
      ),
      { numRuns: 300 },
    );
  });
});
