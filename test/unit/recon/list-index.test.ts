/**
 * The run's index of the period's list (listing.ts): which listed payment a ledger key names — by
 * number always, by reference when the list holds that reference once. The map by reference is made
 * only when a key by reference is asked for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listedWithPlaces } from '../../../electron/core/services/reconciliation/listing';
import { listPositions } from '../../../electron/core/services/reconciliation/run';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { ListWindow } from '../../../electron/core/services/reconciliation/run-store';
import type { Transaction } from '../../../shared/domain/transaction';

const payment = (no: string, reference?: string): Transaction => ({
  transactionNo: no,
  ...(reference ? { reference } : {}),
  amountMinor: 1,
  currency: 'USD',
  status: 'success',
  transactionType: 'payment',
  refunds: [],
});
const window = (transactions: Transaction[]): ListWindow & { state: 'listed' } => ({
  startDate: '20250601',
  endDate: '20250615',
  fetchedAt: '2025-07-01T00:00:00.000Z',
  state: 'listed',
  transactions,
});

describe('the list’s index', () => {
  it('names the payment of a number, and of a reference the list holds once (else none)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('1', '2', '3', '4', '5'), { maxLength: 5 }),
        fc.array(fc.option(fc.constantFrom('A', 'B', 'C'), { nil: undefined }), {
          minLength: 5,
          maxLength: 5,
        }),
        (nos, refs) => {
          const txs = nos.map((no, k) => payment(no, refs[k]));
          const { listed, index } = listedWithPlaces([window(txs)]);
          for (const no of ['1', '2', '3', '4', '5', '']) {
            const at = txs.findIndex((t) => t.transactionNo === no);
            expect(index.positionBy(true, no)).toBe(at < 0 ? undefined : at);
            expect(index.position(`tx:${no}`)).toBe(at < 0 ? undefined : at);
          }
          for (const ref of ['A', 'B', 'C', 'D']) {
            const holding = txs.flatMap((t, k) => (t.reference === ref ? [k] : []));
            const want = holding.length === 1 ? holding[0] : undefined;
            expect(index.positionBy(false, ref)).toBe(want);
            expect(index.position(`ref:${ref}`)).toBe(want);
            expect(index.has(`ref:${ref}`)).toBe(want !== undefined);
            if (want !== undefined) expect(listed.transaction(want).reference).toBe(ref);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads no payment’s reference until a key by reference is asked for', () => {
    let reads = 0;
    const counted = (no: string, reference: string): Transaction => {
      const t = payment(no);
      Object.defineProperty(t, 'reference', {
        enumerable: true,
        get: () => {
          reads += 1;
          return reference;
        },
      });
      return t;
    };
    const { index } = listedWithPlaces([window([counted('1', 'A'), counted('2', 'B'), counted('3', 'A')])]);
    expect(index.positionBy(true, '2')).toBe(1);
    expect(index.position('tx:3')).toBe(2);
    expect(reads).toBe(0);
    expect(index.positionBy(false, 'B')).toBe(1);
    expect(index.positionBy(false, 'A')).toBeUndefined();
    // Made once: asking again reads nothing more.
    const after = reads;
    expect(index.position('ref:B')).toBe(1);
    expect(reads).toBe(after);
  });

  it('each row’s listed payment: the index’s answer, whatever the order of rows and list', () => {
    const no = fc.constantFrom('1', '2', '3', '4', '5', '6');
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(no, { maxLength: 4 }), { maxLength: 3 }),
        fc.array(fc.oneof(no, fc.constantFrom('A', 'B')), { maxLength: 20 }),
        fc.boolean(),
        (windows, keys, sorted) => {
          // Windows may repeat a number (the first is kept); rows often follow the list's order.
          const txs = windows.map((nos) => nos.map((n) => payment(n, n === '1' || n === '2' ? 'A' : 'B')));
          const { listed, index, places } = listedWithPlaces(txs.map(window));
          const rows = (sorted ? [...keys].sort() : keys).map(
            (k, i) =>
              ({
                line: i + 2,
                ...(/\d/.test(k) ? { transactionNo: k } : { reference: k }),
                amountMinor: 1,
                currency: 'USD',
                status: 'paid',
              }) as LedgerRow,
          );
          const want = rows.map(
            (r) =>
              (r.transactionNo
                ? index.positionBy(true, r.transactionNo)
                : index.positionBy(false, r.reference!)) ?? -1,
          );
          expect([...listPositions(rows, index, listed)]).toEqual(want);
          expect([...listPositions(rows, index, listed, places.window)]).toEqual(want);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a ledger by number over a list by day (two windows interleaved): each payment found without a probe', () => {
    // Odd numbers in one window, even in the other: the ledger, by number, goes back and forth.
    const nos = Array.from({ length: 40 }, (_, i) => String(1000 + i));
    const { listed, index, places } = listedWithPlaces([
      window(nos.filter((_, i) => i % 2 === 0).map((n) => payment(n))),
      { ...window(nos.filter((_, i) => i % 2 === 1).map((n) => payment(n))), startDate: '20250616' },
    ]);
    let probes = 0;
    const counted = {
      ...index,
      positionBy(byTx: boolean, value: string) {
        probes += 1;
        return index.positionBy(byTx, value);
      },
    };
    const rows = nos.map((n, i) => ({ line: i + 2, transactionNo: n, amountMinor: 1 }) as LedgerRow);
    const positions = [...listPositions(rows, counted, listed, places.window)];
    expect(positions.map((p) => listed.transaction(p).transactionNo)).toEqual(nos);
    // Only the first row of the second window is looked up in the index.
    expect(probes).toBe(1);
  });

  it('keeps each number once — its first payment, refund records left out — with where it is stored', () => {
    const no = fc.constantFrom('1', '2', '3', '4');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(no, fc.boolean()), { maxLength: 5 }), { maxLength: 3 }),
        (spec) => {
          const windows = spec.map((txs, w) => ({
            ...window(
              txs.map(([n, refund]) => ({
                ...payment(n),
                transactionType: refund ? ('refund' as const) : ('payment' as const),
              })),
            ),
            startDate: `2025060${w + 1}`,
            fetchedAt: `2025-07-0${w + 1}T00:00:00.000Z`,
          }));
          const want: Array<{ no: string; w: number; k: number }> = [];
          spec.forEach((txs, w) =>
            txs.forEach(([n, refund], k) => {
              if (!refund && !want.some((x) => x.no === n)) want.push({ no: n, w, k });
            }),
          );
          const { listed, places, index } = listedWithPlaces(windows);
          const all = Array.from({ length: listed.length }, (_, p) => listed.transaction(p));
          expect(all.map((t) => t.transactionNo)).toEqual(want.map((x) => x.no));
          expect(listed.length).toBe(want.length);
          all.forEach((t, p) => {
            expect(t).toBe(windows[want[p]!.w]!.transactions[want[p]!.k]);
            expect(listed.transaction(p)).toBe(t);
            expect(listed.fetchedAt(p)).toBe(windows[want[p]!.w]!.fetchedAt);
            // The list's answer for it, made when asked: found, from the list, fetched with its window.
            expect(listed.answer(p)).toStrictEqual({
              kind: 'found',
              transaction: t,
              source: 'list',
              fetchedAt: windows[want[p]!.w]!.fetchedAt,
            });
            expect(places.windows[places.window[p]!]).toBe(windows[want[p]!.w]!.startDate);
            expect(places.at[p]).toBe(want[p]!.k);
            expect(index.positionBy(true, t.transactionNo)).toBe(p);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
