import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS, type ColumnSpec } from '../../../../renderer/src/features/transactions/columns';
import { type ListRow, toListRow } from '../../../../renderer/src/db/list-row';
import {
  numberOrder,
  sortOrder,
  sortRows,
  type Sorting,
} from '../../../../renderer/src/features/transactions/sorting';
import { radixSortBy } from '../../../../renderer/src/features/transactions/radix';
import { hasKeys, prepareKeys } from '../../../../renderer/src/features/transactions/sort-keys';
import { makeTx } from '../db/helpers';

/**
 * The list's order as it was defined before the radix sort (a comparator over each pair of rows): the
 * reference the typed-array sort must reproduce exactly, for every column and direction.
 */
function compare(a: string | number | undefined, b: string | number | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}
function referenceSort(rows: readonly ListRow[], sorting: Sorting, columns: readonly ColumnSpec[]) {
  const keys = sorting
    .map((s) => ({ spec: columns.find((c) => c.id === s.id), desc: s.desc }))
    .filter((k): k is { spec: ColumnSpec; desc: boolean } => k.spec !== undefined);
  if (keys.length === 0) return rows.slice();
  return rows.slice().sort((x, y) => {
    for (const { spec, desc } of keys) {
      if (spec.sortGroup) {
        const g = compare(spec.sortGroup(x), spec.sortGroup(y));
        if (g !== 0) return g;
      }
      const a = spec.sortValue(x);
      const b = spec.sortValue(y);
      if (a === undefined || b === undefined) {
        const c = compare(a, b);
        if (c !== 0) return c;
        continue;
      }
      const c = compare(a, b);
      if (c !== 0) return desc ? -c : c;
    }
    return x.transactionNo < y.transactionNo ? -1 : x.transactionNo > y.transactionNo ? 1 : 0;
  });
}

const STATUSES = ['success', 'closed', 'failed', 'pending'] as const;
const CURRENCIES = ['USD', 'IDR', 'JPY', 'EUR'] as const;
const VENDORS = ['alipay', 'wechatpay', 'paypal', undefined] as const;
const ISO = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();

const rowArb = fc.record({
  no: fc.integer({ min: 0, max: 50 }),
  status: fc.constantFrom(...STATUSES),
  currency: fc.constantFrom(...CURRENCIES),
  vendor: fc.constantFrom(...VENDORS),
  // Negative amounts never come from the service, but the sort must not depend on it.
  amount: fc.oneof(
    fc.integer({ min: 0, max: 5 }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: -3, max: 3 }),
  ),
  created: fc.option(fc.integer({ min: 0, max: 10 * 86_400_000 }), { nil: undefined }),
  // Rarely an instant in another shape (seconds only): such a column falls back to ranking strings.
  odd: fc.boolean(),
  reference: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
  refunded: fc.integer({ min: 0, max: 3 }),
});

function rowsOf(specs: Array<typeof rowArb extends fc.Arbitrary<infer T> ? T : never>): ListRow[] {
  const seen = new Set<number>();
  return specs
    .filter((s) => !seen.has(s.no) && seen.add(s.no))
    .map((s) => {
      const created = s.created === undefined ? undefined : ISO(s.created);
      return toListRow({
        ...makeTx({
          transactionNo: `29755363830000${String(s.no).padStart(4, '0')}`,
          status: s.status,
          currency: s.currency,
          vendor: s.vendor,
          amountMinor: s.amount,
          reference: s.reference,
          createdAt: created && s.odd ? created.replace('.000Z', 'Z') : created,
          paidAt: created,
          refunds: Array.from({ length: s.refunded }, (_, i) => ({
            refundTransactionNo: `R${s.no}-${i}`,
            refundAmountMinor: 1,
            currency: s.currency,
            status: 'success' as const,
          })),
        }),
        profileId: 'p',
        fetchedAt: ISO(s.no % 3),
      });
    });
}

describe('the list sort (typed keys and a radix sort)', () => {
  it('orders rows exactly as the comparator it replaced, for every column, both directions and pairs of columns', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 40 }),
        fc.array(fc.record({ id: fc.constantFrom(...COLUMNS.map((c) => c.id)), desc: fc.boolean() }), {
          maxLength: 2,
        }),
        fc.integer({ min: 0, max: 1000 }),
        (specs, sorting, shuffle) => {
          const made = rowsOf(specs);
          // Any input order (a list with merged rows appended is not in number order).
          const input = made
            .map((r, i) => ({ r, k: (i * (shuffle | 1)) % 1009 }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.r);
          const want = referenceSort(input, sorting, COLUMNS).map((r) => r.transactionNo);
          expect(sortRows(input, sorting, COLUMNS).map((r) => r.transactionNo)).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keys built a few rows at a time (prepareKeys) give the same order as keys built at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 30 }),
        fc.constantFrom(...COLUMNS.map((c) => c.id)),
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        async (specs, id, desc, slice) => {
          const sliced = rowsOf(specs);
          const whole = sliced.slice();
          let pauses = 0;
          await prepareKeys(
            sliced,
            COLUMNS.filter((c) => c.id === id),
            async () => void (pauses += 1),
            slice,
          );
          expect(
            hasKeys(
              sliced,
              COLUMNS.find((c) => c.id === id)!,
            ),
          ).toBe(true);
          // The number column reuses number order (no slices); the others go a slice at a time.
          if (id !== 'transactionNo' && sliced.length > slice) expect(pauses).toBeGreaterThan(1);
          const order = (rows: ListRow[]) =>
            sortRows(rows, [{ id, desc }], COLUMNS).map((r) => r.transactionNo);
          expect(order(sliced)).toEqual(order(whole));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the held order when nothing is sorted, and puts a merged tail into number order', () => {
    const rows = ['03', '05', '09', '01', '07'].map((no) =>
      toListRow({ ...makeTx({ transactionNo: `9${no}` }), profileId: 'p', fetchedAt: ISO(0) }),
    );
    expect([...sortOrder(rows, [], COLUMNS)]).toEqual([0, 1, 2, 3, 4]);
    expect([...numberOrder(rows)].map((i) => rows[i]!.transactionNo)).toEqual([
      '901',
      '903',
      '905',
      '907',
      '909',
    ]);
  });

  it('radix-sorts stably by full 32-bit keys, either way', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 300 }), (keys) => {
        const key = Uint32Array.from(keys);
        const order = Uint32Array.from(keys.map((_, i) => keys.length - 1 - i));
        const before = [...order];
        const want = [...order].sort((a, b) => key[a]! - key[b]! || before.indexOf(a) - before.indexOf(b));
        radixSortBy(order, key);
        expect([...order]).toEqual(want);
        const down = Uint32Array.from(before);
        radixSortBy(down, key, true);
        expect([...down]).toEqual(
          [...before].sort((a, b) => key[b]! - key[a]! || before.indexOf(a) - before.indexOf(b)),
        );
      }),
    );
  });
});
