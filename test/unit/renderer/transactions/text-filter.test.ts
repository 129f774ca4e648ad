import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../../../renderer/src/features/transactions/columns';
import { haystackOf, type ListRow, toListRow } from '../../../../renderer/src/db/list-row';
import {
  applyFilter,
  compileFilter,
  EMPTY_FILTER,
  type FilterContext,
  filterMask,
  pickRows,
  type TransactionFilter,
} from '../../../../renderer/src/features/transactions/filters';
import { sortOrder, sortRows, type Sorting } from '../../../../renderer/src/features/transactions/sorting';
import {
  hasTextIndex,
  prepareText,
  textIndex,
  textMatches,
} from '../../../../renderer/src/features/transactions/text-index';
import { makeTx } from '../db/helpers';

/**
 * The id filter through the rows' text index (text-index.ts) against its plain definition: a row
 * passes when its haystack contains the trimmed, lower-cased text, and every other criterion holds.
 */

const CTX: FilterContext = { zone: 'UTC', cachedCurrencies: ['USD', 'JPY'], locale: 'en-US' };
// Few letters, so that needles drawn from them often match; the separator and non-Latin-1 text too.
const CHARS = ['a', 'B', '1', '-', ' ', '\n', 'é', '字'];
const textArb = fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((cs) => cs.join(''));

const rowArb = fc.record({
  reference: fc.option(textArb, { nil: undefined }),
  refunds: fc.array(fc.option(textArb, { nil: undefined }), { maxLength: 2 }),
  status: fc.constantFrom('success', 'failed'),
  currency: fc.constantFrom('USD', 'JPY'),
  amount: fc.integer({ min: 0, max: 2000 }),
});

function rowsOf(specs: ReadonlyArray<typeof rowArb extends fc.Arbitrary<infer T> ? T : never>): ListRow[] {
  return specs.map((s, i) =>
    toListRow({
      ...makeTx({
        transactionNo: `29755363830000${String(i).padStart(4, '0')}`,
        reference: s.reference,
        status: s.status as 'success' | 'failed',
        currency: s.currency as 'USD' | 'JPY',
        amountMinor: s.amount,
        refunds: s.refunds.map((ref, k) => ({
          refundTransactionNo: `R${i}-${k}`,
          refundReference: ref,
          refundAmountMinor: 1,
          currency: s.currency as 'USD' | 'JPY',
          status: 'success' as const,
        })),
      }),
      profileId: 'p',
      fetchedAt: '2025-01-01T00:00:00.000Z',
    }),
  );
}

/** The filter as it was defined before the index: one predicate per row. */
const plain = (rows: readonly ListRow[], f: TransactionFilter) => rows.filter(compileFilter(f, CTX));

const filterArb = fc.record({
  text: fc.oneof(textArb, fc.constantFrom('', '  a ', 'b-', '29755363830000', '\n', 'a\nb', 'a\n2975')),
  statuses: fc.constantFrom([], ['success']),
  currencies: fc.constantFrom([], ['JPY']),
  minAmount: fc.constantFrom('', '5'),
});
const filterOf = (x: typeof filterArb extends fc.Arbitrary<infer T> ? T : never): TransactionFilter => ({
  ...EMPTY_FILTER,
  ...x,
  statuses: [...x.statuses],
  currencies: [...x.currencies],
});

describe('the id filter through the text index', () => {
  it('marks exactly the rows whose text contains the needle, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 40 }),
        textArb,
        fc.integer({ min: 1, max: 7 }),
        async (specs, raw, slice) => {
          const rows = rowsOf(specs);
          await prepareText(rows, () => Promise.resolve(), slice);
          const needle = raw.trim().toLowerCase();
          const mask = new Uint8Array(rows.length);
          if (!textMatches(textIndex(rows), needle, mask)) {
            // Only a needle that is empty or holds the separator is left to the caller.
            expect(needle === '' || needle.includes('\n')).toBe(true);
            return;
          }
          expect([...mask]).toEqual(rows.map((r) => (haystackOf(r).includes(needle) ? 1 : 0)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('lets through the same rows as the plain per-row filter, with every other criterion', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), filterArb, (specs, x) => {
        const rows = rowsOf(specs);
        const f = filterOf(x);
        const mask = filterMask(rows, f, CTX);
        const got = mask ? rows.filter((_, i) => mask[i]) : rows;
        expect(got.map((r) => r.transactionNo)).toEqual(plain(rows, f).map((r) => r.transactionNo));
      }),
      { numRuns: 400 },
    );
  });

  it('filtering the sorted order gives the sort of the filtered rows (same rows, same order)', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 40 }),
        filterArb,
        fc.constantFrom<Sorting>([], [{ id: 'amount', desc: true }], [{ id: 'reference', desc: false }]),
        (specs, x, sorting) => {
          const rows = rowsOf(specs);
          const f = filterOf(x);
          const shown = pickRows(rows, sortOrder(rows, sorting, COLUMNS), filterMask(rows, f, CTX));
          const want = sortRows(applyFilter(rows, f, CTX), sorting, COLUMNS);
          expect(shown.map((r) => r.transactionNo)).toEqual(want.map((r) => r.transactionNo));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches a text holding a line break within one row only, never across two rows', () => {
    const rows = rowsOf([
      { reference: 'a\nb', refunds: [], status: 'success', currency: 'USD', amount: 1 },
      { reference: 'a', refunds: ['b'], status: 'success', currency: 'USD', amount: 1 },
      { reference: 'c', refunds: [], status: 'success', currency: 'USD', amount: 1 },
    ]);
    expect([...filterMask(rows, { ...EMPTY_FILTER, text: 'A\nB' }, CTX)!]).toEqual([1, 0, 0]);
    // Row 1's text ends with "b"; row 2's starts with its number: joined, they would hold "b\n2975…".
    expect([...filterMask(rows, { ...EMPTY_FILTER, text: 'b\n29755363830000' }, CTX)!]).toEqual([0, 0, 0]);
  });

  it("finds a payment by its refunds' numbers and references, in any case", () => {
    const rows = rowsOf([
      { reference: 'INV-1', refunds: ['Ret-7'], status: 'success', currency: 'USD', amount: 1 },
      { reference: 'INV-2', refunds: [], status: 'success', currency: 'USD', amount: 1 },
    ]);
    expect([...filterMask(rows, { ...EMPTY_FILTER, text: 'ret-7' }, CTX)!]).toEqual([1, 0]);
    expect([...filterMask(rows, { ...EMPTY_FILTER, text: 'r0-0' }, CTX)!]).toEqual([1, 0]);
    expect([...filterMask(rows, { ...EMPTY_FILTER, text: ' inv-2 ' }, CTX)!]).toEqual([0, 1]);
  });

  it('is kept per list: rows merged into a new list are searched, the old list keeps its index', async () => {
    const rows = rowsOf([{ reference: 'inv-1', refunds: [], status: 'success', currency: 'USD', amount: 1 }]);
    expect(hasTextIndex(rows)).toBe(false);
    await prepareText(rows, () => Promise.resolve());
    expect(hasTextIndex(rows)).toBe(true);
    const more = [
      ...rows,
      ...rowsOf([{ reference: 'inv-12', refunds: [], status: 'success', currency: 'USD', amount: 1 }]),
    ];
    expect(hasTextIndex(more)).toBe(false);
    const mask = filterMask(more, { ...EMPTY_FILTER, text: 'INV-1' }, CTX);
    expect([...mask!]).toEqual([1, 1]);
    expect(hasTextIndex(more)).toBe(true);
  });
});
