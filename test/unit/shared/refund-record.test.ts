import { describe, expect, it } from 'vitest';
import { REFUND_RECORD_COLUMNS } from '../../../shared/csv/exports/refunds';
import { writeCsv } from '../../../shared/csv/writer';
import {
  filterRecord,
  mergeRefundRecord,
  recordStatus,
  type RecordFilters,
} from '../../../shared/domain/refund-record';
import {
  refundBlocker,
  refundedState,
  type RefundRecord,
  type Transaction,
} from '../../../shared/domain/transaction';
import type { IntentView } from '../../../shared/ipc/contract/refunds';
import { toTransaction } from '../../../shared/protocol/wire';

const intent = (over: Partial<IntentView> = {}): IntentView => ({
  id: 'RD01',
  profileId: 'p1',
  profileName: 'Shop',
  environment: 'demo',
  baseUrl: 'http://127.0.0.1:1',
  merchantNo: 'M',
  storeNo: 'S',
  transactionNo: '300000000000000001',
  amountMinor: 250,
  currency: 'USD' as const,
  settleCurrency: 'USD' as const,
  reasonCode: 'customer_request',
  reasonNote: '',
  operator: 'ana',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:01.000Z',
  state: 'accepted',
  refundTransactionNo: '900000000000000001',
  checks: 0,
  attempts: 1,
  ...over,
});

const refund = (over: Partial<RefundRecord> = {}): RefundRecord => ({
  refundTransactionNo: '900000000000000002',
  refundAmountMinor: 1000,
  currency: 'USD' as const,
  status: 'success',
  createdAt: '2026-11-18T08:00:00.000Z',
  ...over,
});

const payment = (refunds: RefundRecord[], over: Partial<Transaction> = {}) => ({
  profileId: 'p1',
  transactionNo: '300000000000000001',
  amountMinor: 5000,
  currency: 'USD' as const,
  status: 'success' as const,
  transactionType: 'payment' as const,
  refunds,
  ...over,
});

const ALL: RecordFilters = {
  status: 'all',
  currency: 'all',
  origin: 'all',
  fromIso: '',
  toIso: '',
  text: '',
};

describe('the whole refund record', () => {
  it("with every profile listed, another profile's refund acts for and exports as its own profile", () => {
    const theirs = intent({
      id: 'RD09',
      profileId: 'p2',
      profileName: 'Other shop',
      transactionNo: '300000000000000009',
    });
    const rows = mergeRefundRecord([intent(), theirs], [payment([refund()])], 'p1', 'Shop');
    const other = rows.find((r) => r.key === 'RD09');
    expect(other).toMatchObject({ profileId: 'p2', profileName: 'Other shop' });
    // A refund only the service lists belongs to the profile whose cache holds its payment.
    expect(rows.find((r) => !r.madeHere)).toMatchObject({ profileId: 'p1', profileName: 'Shop' });
    const csv = writeCsv(REFUND_RECORD_COLUMNS, rows);
    expect(csv.split('\n')[0]).toContain('Made here,Profile,');
    expect(csv).toContain(',yes,Other shop,');
  });

  it('shows a refund made elsewhere and one made here once each, marking only ours "made here"', () => {
    const ours = refund({
      refundTransactionNo: '900000000000000001',
      refundReference: 'RD01',
      refundAmountMinor: 250,
    });
    const elsewhere = refund();
    const rows = mergeRefundRecord([intent()], [payment([elsewhere, ours])], 'p1');
    expect(rows).toHaveLength(2);
    const here = rows.find((r) => r.madeHere);
    expect(here).toMatchObject({
      key: 'RD01',
      refundTransactionNo: '900000000000000001',
      serviceStatus: 'success',
    });
    expect(rows.find((r) => !r.madeHere)).toMatchObject({
      key: 'service:900000000000000002',
      amountMinor: 1000,
      at: '2026-11-18T08:00:00.000Z',
    });
  });

  it('matches an intent by the refund number it was accepted with when the service dropped the reference', () => {
    const listed = refund({ refundTransactionNo: '900000000000000001', refundAmountMinor: 250 });
    const rows = mergeRefundRecord([intent()], [payment([listed])], 'p1');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.madeHere).toBe(true);
  });

  it('keeps intents the service does not list yet (sending, unknown, refused) as their own rows', () => {
    const rows = mergeRefundRecord(
      [intent({ id: 'RD02', state: 'outcome_unknown', refundTransactionNo: undefined })],
      [payment([])],
      'p1',
    );
    expect(rows).toEqual([expect.objectContaining({ key: 'RD02', madeHere: true, refundReference: 'RD02' })]);
    expect(recordStatus(rows[0]!)).toBe('unknown');
  });

  it("shows only the profile's own cached payments (main already scoped the intents)", () => {
    const rows = mergeRefundRecord(
      [],
      [
        payment([refund()], { profileId: 'p2' } as Partial<Transaction>),
        payment([refund({ refundTransactionNo: '7' })]),
      ],
      'p1',
    );
    expect(rows.map((r) => r.key)).toEqual(['service:7']);
  });

  it('keeps each refund in its own currency and sorts amounts within a currency only', () => {
    const rows = mergeRefundRecord(
      [],
      [
        payment([
          refund({ refundTransactionNo: 'a', refundAmountMinor: 6000, currency: 'JPY' as const }),
          refund({ refundTransactionNo: 'b', refundAmountMinor: 500 }),
          refund({ refundTransactionNo: 'c', refundAmountMinor: 100 }),
        ]),
      ],
      'p1',
    );
    expect(rows.find((r) => r.refundTransactionNo === 'a')).toMatchObject({
      currency: 'JPY' as const,
      amountMinor: 6000,
    });
    const sorted = filterRecord(rows, ALL, { by: 'amount', dir: 'asc' });
    expect(sorted.map((r) => r.refundTransactionNo)).toEqual(['a', 'c', 'b']);
  });

  it('filters by status, origin, dates (rows without a date only without bounds) and text', () => {
    const rows = mergeRefundRecord(
      [
        intent({
          id: 'RD09',
          state: 'outcome_unknown',
          refundTransactionNo: undefined,
          createdAt: '2026-11-22T00:00:00.000Z',
        }),
      ],
      [
        payment([
          refund(),
          refund({ refundTransactionNo: 'nodate', createdAt: undefined, status: 'pending' }),
        ]),
      ],
      'p1',
    );
    const keys = (f: Partial<RecordFilters>) =>
      filterRecord(rows, { ...ALL, ...f }, { by: 'at', dir: 'asc' }).map((r) => r.key);
    expect(keys({ status: 'unknown' })).toEqual(['RD09']);
    expect(keys({ status: 'pending' })).toEqual(['service:nodate']);
    expect(keys({ origin: 'elsewhere' })).toHaveLength(2);
    expect(keys({ fromIso: '2026-11-19T00:00:00.000Z' })).toEqual(['RD09']);
    expect(keys({ toIso: '2026-11-19T00:00:00.000Z' })).toEqual(['service:900000000000000002']);
    expect(keys({ text: 'nodate' })).toEqual(['service:nodate']);
    expect(filterRecord(rows, ALL, { by: 'at', dir: 'desc' })[0]?.key).toBe('RD09');
  });

  it('an accepted intent the service already lists as success is completed', () => {
    const listed = refund({ refundTransactionNo: '900000000000000001', refundReference: 'RD01' });
    const [row] = mergeRefundRecord([intent()], [payment([listed])], 'p1');
    expect(recordStatus(row!)).toBe('completed');
    expect(recordStatus({ intent: intent() })).toBe('pending');
  });

  it('exports made here / elsewhere with words', () => {
    const rows = mergeRefundRecord([intent()], [payment([refund()])], 'p1');
    const csv = writeCsv(REFUND_RECORD_COLUMNS, rows);
    expect(csv.split('\n')[0]).toContain('Made here');
    expect(csv).toMatch(/,yes,/);
    expect(csv).toMatch(/,no,/);
  });
});

describe('derived refund state', () => {
  it('is partial, full or none from same-currency success and pending refunds', () => {
    expect(refundedState(payment([]))).toBe('not_refunded');
    expect(refundedState(payment([refund()]))).toBe('partially_refunded');
    expect(refundedState(payment([refund({ refundAmountMinor: 5000, status: 'pending' })]))).toBe('refunded');
    expect(refundedState(payment([refund({ status: 'failed', refundAmountMinor: 5000 })]))).toBe(
      'not_refunded',
    );
  });
  it('says nothing about "how much" when a refund is in another currency', () => {
    expect(refundedState(payment([refund({ currency: 'JPY' as const, refundAmountMinor: 60 })]))).toBe(
      'unclear',
    );
  });
  it('a refund record has no refunded state', () => {
    expect(refundedState(payment([], { transactionType: 'refund' }))).toBeUndefined();
  });
});

describe('card last 4 from tran-query', () => {
  const wire = (extra: Record<string, unknown>) =>
    toTransaction({
      transactionNo: '1',
      amount: '1.00',
      currency: 'USD' as const,
      status: 'success',
      ...extra,
    });
  it('keeps cardLast4 or the last four digits of a masked number, and nothing else', () => {
    expect(wire({ cardLast4: '1111' }).cardLast4).toBe('1111');
    expect(wire({ cardNumber: '411111******1111' }).cardLast4).toBe('1111');
    expect(wire({ cardNumber: '4111111111111111' }).cardLast4).toBeUndefined();
    expect(wire({ cardLast4: '11a1' }).cardLast4).toBeUndefined();
    expect(wire({ cardLast4: { x: 1 } }).cardLast4).toBeUndefined();
    expect(wire({}).cardLast4).toBeUndefined();
  });
});

describe('the record type from tran-query: only what the service calls a payment is refundable', () => {
  const wire = (extra: Record<string, unknown>) =>
    toTransaction({ transactionNo: '1', amount: '1.00', currency: 'USD', status: 'success', ...extra });
  it('keeps payment and refund, and makes anything else unknown rather than a payment', () => {
    expect(wire({ transactionType: 'payment' }).transactionType).toBe('payment');
    expect(wire({ transactionType: 'refund' }).transactionType).toBe('refund');
    expect(wire({ transactionType: 'REFUND' }).transactionType).toBe('refund');
    for (const odd of [
      {},
      { transactionType: '' },
      { transactionType: 'chargeback' },
      { transactionType: null },
    ])
      expect(wire(odd).transactionType).toBe('unknown');
  });
  it('an unknown record is not refundable, says why, and has no refunded state', () => {
    const tx = wire({ transactionType: 'chargeback' });
    expect(refundBlocker(tx)).toMatch(/did not say that this record is a payment/);
    expect(refundedState(tx)).toBeUndefined();
    expect(refundBlocker(wire({ transactionType: 'payment' }))).toBeUndefined();
  });
});
