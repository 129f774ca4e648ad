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
  isFilterActive,
  parseAmountBound,
} from '../../../../renderer/src/features/transactions/filters';
import { classifyQuery, queryKeysFor } from '../../../../renderer/src/features/transactions/id-kind';
import { toListRow } from '../../../../renderer/src/features/transactions/list-row';
import { sortRows } from '../../../../renderer/src/features/transactions/sorting';
import { totalsByCurrency } from '../../../../renderer/src/features/transactions/totals';
import { DEFAULT_VIEW, parseViewState } from '../../../../renderer/src/features/transactions/view-state';
import { writeCsv } from '../../../../shared/csv/writer';
import { makeTx } from '../db/helpers';

const row = (over: Parameters<typeof makeTx>[0] = {}) =>
  toListRow({ ...makeTx(over), profileId: 'p', fetchedAt: '2025-01-01T00:00:00.000Z' });

describe('id kind detection', () => {
  it('tells service numbers from references and rejects what cannot be either', () => {
    expect(classifyQuery(' 297553638300708562 ')).toEqual({
      shape: 'service-number',
      text: '297553638300708562',
    });
    expect(classifyQuery('INV-20250101-000001').shape).toBe('reference');
    expect(classifyQuery('').shape).toBe('empty');
    expect(classifyQuery('12345').shape).toBe('invalid');
    expect(classifyQuery('has space').shape).toBe('invalid');
    expect(queryKeysFor(classifyQuery('297553638300708562'))).toEqual([
      'transactionNo',
      'refundTransactionNo',
    ]);
    expect(queryKeysFor(classifyQuery('ORDER-1'))).toEqual(['reference']);
  });
});

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
  it('filters by status, currency, vendor, text and amounts in each row’s own currency', () => {
    expect(applyFilter(rows, { ...EMPTY_FILTER, statuses: ['success'] })).toHaveLength(2);
    expect(applyFilter(rows, { ...EMPTY_FILTER, currencies: ['JPY'], vendors: ['paypay'] })).toHaveLength(2);
    expect(applyFilter(rows, { ...EMPTY_FILTER, text: 'b-2' }).map((r) => r.reference)).toEqual(['B-2']);
    // 10.50 USD and 1000 JPY ≥ 10; 12 JPY ≥ 10 too; ≤ 11 keeps 10.50 USD only (1000 JPY is 1000).
    expect(
      applyFilter(rows, { ...EMPTY_FILTER, minAmount: '10', maxAmount: '11' }).map((r) => r.reference),
    ).toEqual(['A-1']);
    expect(applyFilter(rows, { ...EMPTY_FILTER, minAmount: '1000' }).map((r) => r.reference)).toEqual([
      'B-2',
    ]);
  });
  it('filters by local date range, inclusive of both days', () => {
    const local = (iso: string) => {
      const d = new Date(iso);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    const f = {
      ...EMPTY_FILTER,
      fromDate: local('2025-03-03T12:00:00.000Z'),
      toDate: local('2025-03-05T12:00:00.000Z'),
    };
    expect(applyFilter(rows, f).map((r) => r.reference)).toEqual(['B-2', 'C-3']);
  });
  it('parses amount bounds exactly and reports bad input', () => {
    expect(parseAmountBound('12.3')).toBe(123000);
    expect(parseAmountBound('')).toBeUndefined();
    expect(parseAmountBound('1e3')).toBeNull();
    expect(filterProblems({ ...EMPTY_FILTER, minAmount: 'x' })).toHaveLength(1);
    expect(filterProblems({ ...EMPTY_FILTER, minAmount: '5', maxAmount: '1' })).toEqual([
      'The minimum amount is above the maximum.',
    ]);
    expect(isFilterActive(EMPTY_FILTER)).toBe(false);
    // A bad bound is ignored rather than hiding every row.
    expect(applyFilter(rows, { ...EMPTY_FILTER, minAmount: 'abc' })).toHaveLength(3);
  });
});

describe('totals', () => {
  it('sums per currency in minor units, never across currencies', () => {
    const rows = [
      row({ currency: 'USD', amountMinor: 10 }),
      row({
        currency: 'USD',
        amountMinor: 20,
        refunds: [
          { refundTransactionNo: '1'.repeat(18), refundAmountMinor: 5, currency: 'USD', status: 'success' },
        ],
      }),
      row({ currency: 'KRW', amountMinor: 1400 }),
    ];
    expect(totalsByCurrency(rows)).toEqual([
      { currency: 'USD', count: 2, amountMinor: 30, refundedMinor: 5 },
      { currency: 'KRW', count: 1, amountMinor: 1400, refundedMinor: 0 },
    ]);
  });
});

describe('sorting and export', () => {
  it('sorts by amount across currencies by value, missing values last, ties by transactionNo', () => {
    const a = row({ currency: 'USD', amountMinor: 1000, reference: 'a' }); // 10.00
    const b = row({ currency: 'JPY', amountMinor: 500, reference: 'b' }); // 500
    const c = row({ currency: 'USD', amountMinor: 1, reference: 'c', createdAt: undefined });
    expect(sortRows([a, b, c], [{ id: 'amount', desc: true }], COLUMNS).map((r) => r.reference)).toEqual([
      'b',
      'a',
      'c',
    ]);
    expect(sortRows([a, b, c], [{ id: 'createdAt', desc: true }], COLUMNS).at(-1)?.reference).toBe('c');
    expect(sortRows([a, b, c], [{ id: 'createdAt', desc: false }], COLUMNS).at(-1)?.reference).toBe('c');
  });
  it('exports visible columns with ids as ="…", plain decimals, a currency and a timezone column', () => {
    const r = row({
      transactionNo: '297553638300708562',
      reference: '=cmd',
      currency: 'JPY',
      amountMinor: 1500,
    });
    const cols = exportColumns(
      visibleColumns([
        'currency',
        'vendor',
        'paidAt',
        'fetchedAt',
        'settleCurrency',
        'createdAt',
        'refunded',
        'remaining',
        'status',
      ]),
    );
    const csv = writeCsv(cols, [r]);
    expect(csv.startsWith('\uFEFFtransactionNo,reference,amount,currency,timezone\r\n')).toBe(true);
    // RFC 4180 quoting of the ="…" wrapper: the cell reads ="297553638300708562" once parsed.
    expect(csv).toContain('"=""297553638300708562""",\'=cmd,1500,JPY,UTC\r\n');
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
