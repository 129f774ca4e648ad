/**
 * Report items as stored since schema v10 (electron/core/adapters/sqlite/item-codec.ts): whatever is
 * written reads back exactly, the compact form is used only where the service side is the one the
 * transaction gives, and items stored before v10 (plain JSON) read as they always did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeItem,
  decodePage,
  encodeItem,
  encodePage,
  PageEncoder,
  pageTexts,
} from '../../../electron/core/adapters/sqlite/item-codec';
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

  it('a page of items (v13) reads back exactly from any position: usual rows after the first shortened, put by reference the same', () => {
    const tx = (n: number) => ({
      transactionNo: String(297000 + n),
      amountMinor: 5 + n,
      currency: 'USD' as const,
      status: 'success' as const,
      transactionType: 'payment' as const,
      paidAt: '2025-06-02T01:00:00.000Z',
      refunds: [],
    });
    /** Item k of a page: the usual matched row (of ledger row `row`), or now and then another kind. */
    const entryArb = fc.record({
      row: fc.integer({ min: 0, max: 3000 }),
      src: source,
      fetchedAt: fc.constantFrom('2025-07-02T00:00:00.000Z', '2025-07-03T00:00:00.000Z'),
      dayOffset: fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
      kind: fc.constantFrom('usual', 'usual', 'usual', 'mismatch', 'own'),
    });
    fc.assert(
      fc.property(
        fc.array(entryArb, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        (entries, consecutive, a, b) => {
          const rows = new Map<LedgerRow, number>();
          const txs = new Map<unknown, string>();
          const items = entries.map((e, k): ReconItem => {
            // Mostly the ledger's next row, as a report is made; else anywhere.
            const at = consecutive ? k : e.row;
            const ledger: LedgerRow = {
              line: at + 2,
              transactionNo: String(297000 + at),
              amountMinor: 5 + at,
              currency: 'USD',
              status: 'paid',
            };
            rows.set(ledger, at);
            const transaction = tx(at);
            txs.set(transaction, `20250601:${at}`);
            const item: ReconItem = {
              line: ledger.line,
              matchedBy: 'transactionNo',
              ledger,
              service: serviceView(transaction, e.src, e.fetchedAt),
              transaction,
              outcome: e.kind === 'mismatch' ? 'amount_mismatch' : 'matched',
              detail: e.kind === 'mismatch' ? 'differs' : '',
              deltas: [],
            };
            if (e.kind === 'own') delete item.transaction;
            if (e.dayOffset !== undefined) item.dayOffset = e.dayOffset;
            return item;
          });
          const refs = {
            rowOf: (r: LedgerRow) => rows.get(r) ?? -1,
            listedOf: (t: unknown) => txs.get(t),
          };
          const byRow = new Map([...rows].map(([r, i]) => [i, r]));
          const byAt = new Map([...txs].map(([t, p]) => [p, t]));
          const referents = {
            row: (i: number) => structuredClone(byRow.get(i)!),
            listed: (w: string, i: number) => structuredClone(byAt.get(`${w}:${i}`)) as ReturnType<typeof tx>,
          };
          const { data, unmatched } = encodePage(items, 0, items.length, refs);
          const texts = JSON.parse(data) as string[];
          expect(unmatched).toEqual(items.flatMap((it, k) => (it.outcome === 'matched' ? [] : [k])));
          // Each entry made whole is what encodeItem writes; the usual row after another of the same
          // source and fetch time is shortened.
          expect(pageTexts(texts)).toEqual(items.map((it) => encodeItem(it, refs)));
          texts.forEach((t, k) => {
            const prev = items.slice(0, k).findLast((_, j) => /^[Mm]/.test(texts[j]!));
            const same =
              prev !== undefined &&
              prev.service!.source === items[k]!.service?.source &&
              prev.service!.fetchedAt === items[k]!.service?.fetchedAt;
            if (/^[Mm]/.test(t)) expect(t[0]).toBe(same ? 'm' : 'M');
          });
          const from = a % items.length;
          const to = from + (b % (items.length - from + 1));
          expect(decodePage(texts, from, to, referents)).toStrictEqual(items.slice(from, to));
          // The page written item by item, the usual rows answered by the list put by reference
          // (their items never made, as a run does): the very same page.
          const page = new PageEncoder(refs);
          items.forEach((it, k) => {
            if (entries[k]!.kind === 'usual' && entries[k]!.src === 'list')
              page.addUsual(
                it.service!.fetchedAt,
                rows.get(it.ledger!)!,
                txs.get(it.transaction)!,
                it.dayOffset,
              );
            else page.add(it);
          });
          expect(page.count).toBe(items.length);
          expect(page.end()).toEqual({ data, unmatched });
          expect(page.count).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a fetch time with a tab is never stored compact, before or after ones without (property)', () => {
    const tx = {
      transactionNo: '297',
      amountMinor: 5,
      currency: 'USD' as const,
      status: 'success' as const,
      transactionType: 'payment' as const,
      refunds: [],
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('2025-07-02', '2025-07-02\t1', '\t', '2025-07-03', ''), { minLength: 1 }),
        (fetched) => {
          for (const f of fetched) {
            const item: ReconItem = {
              outcome: 'matched',
              service: serviceView(tx, 'list', f),
              transaction: tx,
              detail: '',
              deltas: [],
            };
            const stored = encodeItem(item);
            expect(stored[0]).toBe(f.includes('\t') ? '{' : 'S');
            expect(decodeItem(stored)).toStrictEqual(item);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a service side that differs from the transaction’s in any way is stored whole (property)', () => {
    fc.assert(
      fc.property(
        transactionArb,
        source,
        fc.constantFrom('reference', 'createdAt', 'paidAt', 'refundedMinor', 'status', 'extra'),
        fc.constantFrom('undefined', 'other', 'delete'),
        (transaction, src, key, how) => {
          const made = serviceView(transaction, src, '2025-07-02T00:00:00.000Z');
          const service = { ...made } as Record<string, unknown>;
          if (how === 'delete') delete service[key];
          else service[key] = how === 'undefined' ? undefined : 'other';
          const item = {
            outcome: 'matched',
            service,
            transaction,
            detail: '',
            deltas: [],
          } as unknown as ReconItem;
          const same =
            Object.keys(service).length === Object.keys(made).length &&
            Object.entries(made).every(([k, v]) => service[k] === v);
          const stored = encodeItem(item);
          expect(stored[0]).toBe(same ? 'S' : '{');
          // What JSON keeps of it (a property set to undefined is left out) reads back.
          expect(decodeItem(stored)).toStrictEqual(JSON.parse(JSON.stringify(item)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a shortened item is never read out of its page', () => {
    expect(() => decodeItem('m\t20250601:3\t0')).toThrow(/in its page only/);
    expect(() => pageTexts(['m\t20250601:3\t0'])).toThrow(/damaged/);
  });
});
