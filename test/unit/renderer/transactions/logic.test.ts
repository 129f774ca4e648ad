import type { Currency } from '../../../../shared/domain/currencies';
import { describe, expect, it } from 'vitest';
import {
  COLUMNS,
  COLUMN_IDS,
  exportColumns,
  visibleColumns,
} from '../../../../renderer/src/features/transactions/columns';
import {
  EMPTY_FILTER,
  applyFilter,
  filterProblems,
  amountCurrency,
  isFilterActive,
  parseAmountBound,
} from '../../../../renderer/src/features/transactions/filters';
import { haystackOf, toListRow } from '../../../../renderer/src/db/list-row';
import { sortRows } from '../../../../renderer/src/features/transactions/sorting';
import { totalsByCurrency } from '../../../../renderer/src/features/transactions/totals';
import { DEFAULT_VIEW, parseViewState } from '../../../../renderer/src/features/transactions/view-state';
import { writeCsv } from '../../../../shared/csv/writer';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import {
  refundBlocker,
  refundedState,
  remainingRefundableMinor,
} from '../../../../shared/domain/transaction';
import { makeTx } from '../db/helpers';

const row = (over: Parameters<typeof makeTx>[0] = {}) =>
  toListRow({ ...makeTx(over), profileId: 'p', fetchedAt: '2025-01-01T00:00:00.000Z' });

describe('list rows', () => {
  it('derives the same numbers for a row without refunds as the domain helpers do, for every status and type', () => {
    for (const status of ['success', 'closed', 'failed', 'pending'] as const)
      for (const transactionType of ['payment', 'refund', 'unknown'] as const) {
        const tx = { ...makeTx({ status, amountMinor: 1234, refunds: [] }), transactionType };
        const r = toListRow({ ...tx, profileId: 'p', fetchedAt: 't' });
        const remaining = remainingRefundableMinor(tx);
        expect(r.refundedMinor).toBe(tx.amountMinor - remaining);
        expect(r.remainingMinor).toBe(status === 'success' && !refundBlocker(tx) ? remaining : 0);
        expect(r.refunded).toBe(refundedState(tx));
        expect(haystackOf(r)).toBe(`${tx.transactionNo} ${tx.reference ?? ''}`.toLowerCase());
      }
  });

  it('decorates the row it is given instead of copying it (one object per cached row)', () => {
    const tx = { ...makeTx({ refunds: [] }), profileId: 'p', fetchedAt: 't' };
    expect(toListRow(tx)).toBe(tx);
  });
});

// Id kinds: the one table in test/unit/shared/id-kind.test.ts.

describe('filters', () => {
  const rows = [
    row({
      status: 'success',
      currency: 'USD',
      amountMinor: 1050,
      vendor: 'alipay',
      reference: 'A-1',
      createdAt: '2025-03-01T12:00:00.000Z',
    }),
    row({
      status: 'failed',
      currency: 'JPY',
      amountMinor: 1000,
      vendor: 'paypay',
      reference: 'B-2',
      createdAt: '2025-03-03T12:00:00.000Z',
    }),
    row({
      status: 'success',
      currency: 'JPY',
      amountMinor: 12,
      vendor: 'paypay',
      reference: 'C-3',
      createdAt: '2025-03-05T12:00:00.000Z',
    }),
  ];
  const ctx = { zone: 'UTC', cachedCurrencies: ['JPY', 'USD'] };
  it('filters by status, currency, vendor and text', () => {
    expect(applyFilter(rows, { ...EMPTY_FILTER, statuses: ['success'] }, ctx)).toHaveLength(2);
    expect(
      applyFilter(rows, { ...EMPTY_FILTER, currencies: ['JPY'], vendors: ['paypay'] }, ctx),
    ).toHaveLength(2);
    expect(applyFilter(rows, { ...EMPTY_FILTER, text: 'b-2' }, ctx).map((r) => r.reference)).toEqual(['B-2']);
  });
  it('filters amounts only within one currency, in that currency’s units', () => {
    // Several currencies and none chosen: amounts do not compare, so the bounds are not applied.
    expect(applyFilter(rows, { ...EMPTY_FILTER, minAmount: '10' }, ctx)).toHaveLength(3);
    expect(filterProblems({ ...EMPTY_FILTER, minAmount: '10' }, ctx)[0]).toContain('Choose one currency');
    const jpy = { ...EMPTY_FILTER, currencies: ['JPY'] };
    expect(applyFilter(rows, { ...jpy, minAmount: '100' }, ctx).map((r) => r.reference)).toEqual(['B-2']);
    expect(applyFilter(rows, { ...jpy, maxAmount: '12' }, ctx).map((r) => r.reference)).toEqual(['C-3']);
    const usd = { ...EMPTY_FILTER, currencies: ['USD'] };
    expect(applyFilter(rows, { ...usd, minAmount: '10.5', maxAmount: '10.50' }, ctx)).toHaveLength(1);
    expect(applyFilter(rows, { ...usd, minAmount: '10.51' }, ctx)).toHaveLength(0);
    // With one currency cached, no choice is needed.
    expect(amountCurrency(EMPTY_FILTER, { cachedCurrencies: ['USD'] })).toBe('USD');
  });
  it('filters by calendar days in the chosen zone, inclusive of both days', () => {
    const f = { ...EMPTY_FILTER, fromDate: '2025-03-03', toDate: '2025-03-05' };
    expect(applyFilter(rows, f, ctx).map((r) => r.reference)).toEqual(['B-2', 'C-3']);
    // The same days read in other zones: 12:00 UTC is still the same day in UTC−12, the next in UTC+14.
    const days = { ...EMPTY_FILTER, fromDate: '2025-03-04', toDate: '2025-03-05' };
    expect(applyFilter(rows, days, { ...ctx, zone: 'Etc/GMT+12' }).map((r) => r.reference)).toEqual(['C-3']);
    expect(applyFilter(rows, days, { ...ctx, zone: 'Etc/GMT-14' }).map((r) => r.reference)).toEqual(['B-2']);
  });
  it('filters by the derived refund state, beside the service status (a refund record never matches)', () => {
    const refund = (amountMinor: number, currency: Currency = 'USD') => ({
      refundTransactionNo: `3${amountMinor}`,
      refundAmountMinor: amountMinor,
      currency,
      status: 'success' as const,
    });
    const refundRows = [
      row({ reference: 'NONE', amountMinor: 1000 }),
      row({ reference: 'PART', amountMinor: 1000, refunds: [refund(400)] }),
      row({ reference: 'FULL', amountMinor: 1000, refunds: [refund(600), refund(400)] }),
      row({ reference: 'MIXED', amountMinor: 1000, refunds: [refund(60, 'JPY')] }),
      row({ reference: 'REC', amountMinor: 400, transactionType: 'refund' }),
    ];
    const refs = (refunded: string[], extra = {}) =>
      applyFilter(refundRows, { ...EMPTY_FILTER, refunded, ...extra }, ctx).map((r) => r.reference);
    expect(refs(['partially_refunded'])).toEqual(['PART']);
    expect(refs(['refunded'])).toEqual(['FULL']);
    expect(refs(['partially_refunded', 'refunded'])).toEqual(['PART', 'FULL']);
    expect(refs(['not_refunded'])).toEqual(['NONE']);
    expect(refs(['unclear'])).toEqual(['MIXED']);
    // The service's own status is untouched: a fully refunded payment is still "success" to it.
    expect(refs(['refunded'], { statuses: ['success'] })).toEqual(['FULL']);
    expect(isFilterActive({ ...EMPTY_FILTER, refunded: ['refunded'] })).toBe(true);
    expect(refs([])).toHaveLength(5);
  });
  it('parses amount bounds exactly in the currency and reports bad input', () => {
    expect(parseAmountBound('12.3', 'USD')).toBe(1230);
    expect(parseAmountBound('1000', 'JPY')).toBe(1000);
    expect(parseAmountBound('10.5', 'JPY')).toBeNull();
    expect(parseAmountBound('', 'USD')).toBeUndefined();
    expect(parseAmountBound('1e3', 'USD')).toBeNull();
    const usd = { ...EMPTY_FILTER, currencies: ['USD'] };
    expect(filterProblems({ ...usd, minAmount: 'x' }, ctx)).toHaveLength(1);
    expect(filterProblems({ ...usd, minAmount: '5', maxAmount: '1' }, ctx)).toEqual([
      'The minimum amount is above the maximum.',
    ]);
    expect(isFilterActive(EMPTY_FILTER)).toBe(false);
    // A bad bound is ignored rather than hiding every row.
    expect(applyFilter(rows, { ...usd, minAmount: 'abc' }, ctx)).toHaveLength(1);
  });
});

describe('totals', () => {
  const rows = [
    row({ currency: 'USD', amountMinor: 10, status: 'success' }),
    row({
      currency: 'USD',
      amountMinor: 20,
      status: 'success',
      refunds: [
        { refundTransactionNo: '1'.repeat(18), refundAmountMinor: 5, currency: 'USD', status: 'success' },
        { refundTransactionNo: '2'.repeat(18), refundAmountMinor: 3, currency: 'USD', status: 'pending' },
        { refundTransactionNo: '3'.repeat(18), refundAmountMinor: 9, currency: 'USD', status: 'failed' },
      ],
    }),
    row({ currency: 'USD', amountMinor: 1000, status: 'failed' }),
    row({ currency: 'KRW', amountMinor: 1400, status: 'closed' }),
  ];
  it('by default adds up successful payments net of refunds, per currency', () => {
    expect(totalsByCurrency(rows)).toEqual([
      { currency: 'USD', count: 2, grossMinor: 30, refundedMinor: 8, netMinor: 22, shownMinor: 22 },
    ]);
  });
  it('refuses a sum that leaves the safe-integer range instead of rounding it', () => {
    const big = [row({ amountMinor: Number.MAX_SAFE_INTEGER - 1 }), row({ amountMinor: 5 })];
    expect(() => totalsByCurrency(big)).toThrow(/safe integer/);
    // Other currencies' sums are separate: each stays exact.
    const apart = [
      row({ amountMinor: Number.MAX_SAFE_INTEGER - 1 }),
      row({ amountMinor: 5, currency: 'EUR' }),
    ];
    expect(totalsByCurrency(apart).map((t) => t.grossMinor)).toEqual([5, Number.MAX_SAFE_INTEGER - 1]);
  });

  it('can add up successful payments gross, or every status', () => {
    expect(totalsByCurrency(rows, 'gross')[0]).toMatchObject({ count: 2, shownMinor: 30 });
    expect(totalsByCurrency(rows, 'all')).toEqual([
      { currency: 'USD', count: 3, grossMinor: 1030, refundedMinor: 8, netMinor: 1022, shownMinor: 1030 },
      { currency: 'KRW', count: 1, grossMinor: 1400, refundedMinor: 0, netMinor: 1400, shownMinor: 1400 },
    ]);
  });
});

describe('sorting and export', () => {
  it('sorts amounts within each currency (never IDR above USD by face value), missing values last', () => {
    const a = row({ currency: 'USD', amountMinor: 1000, reference: 'a' }); // 10.00
    const b = row({ currency: 'IDR', amountMinor: 6_700_000, reference: 'b' });
    const c = row({ currency: 'USD', amountMinor: 9000, reference: 'c', createdAt: undefined });
    const d = row({ currency: 'IDR', amountMinor: 50_000, reference: 'd' });
    expect(sortRows([a, b, c, d], [{ id: 'amount', desc: true }], COLUMNS).map((r) => r.reference)).toEqual([
      'b',
      'd',
      'c',
      'a',
    ]);
    expect(sortRows([a, b, c], [{ id: 'createdAt', desc: true }], COLUMNS).at(-1)?.reference).toBe('c');
    expect(sortRows([a, b, c], [{ id: 'createdAt', desc: false }], COLUMNS).at(-1)?.reference).toBe('c');
  });

  it('orders by the first column, then the next, then by transaction number, whatever the input order', () => {
    const statuses = ['success', 'closed', 'failed'] as const;
    const made = Array.from({ length: 60 }, (_, i) =>
      row({ status: statuses[i % 3], amountMinor: 100 * (i % 4), currency: i % 2 ? 'USD' : 'EUR' }),
    );
    // A fixed shuffle, so the input order differs from every sort order.
    const input = made
      .map((r, i) => ({ r, k: (i * 37) % 61 }))
      .sort((x, y) => x.k - y.k)
      .map((x) => x.r);
    const out = sortRows(
      input,
      [
        { id: 'status', desc: false },
        { id: 'amount', desc: true },
      ],
      COLUMNS,
    );
    expect(new Set(out)).toEqual(new Set(input));
    for (let i = 1; i < out.length; i += 1) {
      const [p, q] = [out[i - 1]!, out[i]!];
      const ps = `${p.status} ${p.refunded ?? ''}`;
      const qs = `${q.status} ${q.refunded ?? ''}`;
      expect(ps <= qs).toBe(true);
      if (ps !== qs) continue;
      expect(p.currency <= q.currency).toBe(true);
      if (p.currency !== q.currency) continue;
      expect(p.amountMinor >= q.amountMinor).toBe(true);
      if (p.amountMinor === q.amountMinor) expect(p.transactionNo < q.transactionNo).toBe(true);
    }
  });
  it('exports visible columns with plain-digit ids, plain decimals, codes beside labels and zoned times', () => {
    const r = row({
      transactionNo: '297553638300708562',
      reference: '=cmd',
      currency: 'JPY',
      amountMinor: 1500,
      status: 'dealing',
      vendor: 'tng',
      createdAt: '2025-03-01T16:30:00.000Z',
    });
    const cols = exportColumns(
      visibleColumns(['paidAt', 'fetchedAt', 'settleCurrency', 'refunded', 'remaining']),
    );
    const csv = writeCsv(cols, [r], { zone: { iana: 'Etc/GMT-8', label: 'UTC+8' } });
    expect(csv.split('\r\n')[0]).toBe(
      '\uFEFFTransaction no.,Reference,Created (UTC+8),Status,Status code,Refund state,Vendor,Vendor code,Amount,Currency',
    );
    expect(csv.split('\r\n')[1]).toBe(
      "297553638300708562,'=cmd,2025-03-02T00:30:00+08:00,Processing,dealing,Not refunded,Touch ’n Go,tng,1500,JPY",
    );
  });
  it('shows no paid time and no refundable amount for a payment that was not paid', () => {
    const failed = row({ status: 'failed', paidAt: '2025-03-01T00:00:00.000Z' });
    const paid = COLUMNS.find((c) => c.id === 'paidAt')!;
    const remaining = COLUMNS.find((c) => c.id === 'remaining')!;
    const f = createFormatters({ theme: 'light', locale: 'en-US', zone: 'utc', dateFormat: 'iso' });
    expect(paid.display(failed, f)).toMatchObject({ none: true, title: 'Not paid' });
    expect(remaining.display(failed, f)).toMatchObject({ none: true });
    expect(paid.csv[0]!.value(failed)).toBeUndefined();
    const ok = row({ status: 'success', paidAt: '2025-03-01T00:00:00.000Z' });
    expect(paid.display(ok, f)).toEqual({ text: '2025-03-01 00:00' });
  });
});

describe('view state', () => {
  it('falls back to defaults for damaged values and drops unknown columns', () => {
    expect(parseViewState('garbage', COLUMN_IDS)).toEqual(DEFAULT_VIEW);
    const v = parseViewState(
      {
        hiddenColumns: ['vendor', 'nope'],
        sorting: [{ id: 'amount', desc: false }],
        filter: { statuses: ['success'] },
      },
      COLUMN_IDS,
    );
    expect(v.hiddenColumns).toEqual(['vendor']);
    expect(v.sorting).toEqual([{ id: 'amount', desc: false }]);
    expect(v.filter.statuses).toEqual(['success']);
    expect(v.filter.text).toBe('');
  });
});
