import { describe, expect, it } from 'vitest';
import {
  ledgerKeys,
  lookupKey,
  matchLedger,
  NO_DELTAS,
  type CurrencyAmount,
  type ReconOutcome,
} from '../../../shared/recon/match';
import { fmt, lookupFrom, row, tx } from './fixtures';

const refund = (amountMinor: number, status: 'success' | 'pending' | 'failed' = 'success') => ({
  refundTransactionNo: `9${amountMinor}${status.length}`,
  refundAmountMinor: amountMinor,
  currency: 'USD' as const,
  status,
});

describe('matchLedger', () => {
  // One constructed ledger that hits every outcome.
  const rows = [
    row({ transactionNo: '100000000000000001', amountMinor: 1000 }), // matched
    row({ transactionNo: '100000000000000002', amountMinor: 1000 }), // amount
    row({ transactionNo: '100000000000000003', amountMinor: 1000, currency: 'CNY' as const }), // currency
    row({ transactionNo: '100000000000000004', amountMinor: 1000, statusText: 'Paid' }), // status: service closed
    row({ transactionNo: '100000000000000005', amountMinor: 1000 }), // refunded at service
    row({ transactionNo: '100000000000000006', amountMinor: 1000 }), // missing
    row({ transactionNo: '100000000000000001', amountMinor: 1000 }), // duplicate (same key)
    row({ reference: 'INV-7', amountMinor: 700 }), // matched by reference
    row({ reference: 'INV-1', amountMinor: 1000 }), // duplicate (reference resolves to tx 1)
    row({ transactionNo: '100000000000000008', amountMinor: 800 }), // not checked
    row({ transactionNo: '100000000000000009', amountMinor: 900, status: 'refunded' }), // refund recorded: matched
    row({ transactionNo: '100000000000000010', amountMinor: 500, status: 'unpaid' }), // ledger cancelled, service success
    row({ transactionNo: '100000000000000011', amountMinor: 500, status: 'unpaid' }), // both unpaid: matched
    row({ transactionNo: '100000000000000012', amountMinor: 500, refundedMinor: 100 }), // partial refund in ledger, service refunded more
    row({ transactionNo: '100000000000000013', amountMinor: 500, status: 'refunded' }), // ledger refund, none at service
  ];
  const lookup = lookupFrom({
    'tx:100000000000000001': {
      kind: 'found',
      transaction: tx('100000000000000001', 1000, 'USD', { reference: 'INV-1' }),
    },
    'tx:100000000000000002': { kind: 'found', transaction: tx('100000000000000002', 990) },
    'tx:100000000000000003': { kind: 'found', transaction: tx('100000000000000003', 1000, 'USD') },
    'tx:100000000000000004': {
      kind: 'found',
      transaction: tx('100000000000000004', 1000, 'USD', { status: 'closed' }),
    },
    'tx:100000000000000005': {
      kind: 'found',
      transaction: tx('100000000000000005', 1000, 'USD', {
        refunds: [refund(300), refund(100, 'pending'), refund(50, 'failed')],
      }),
    },
    'tx:100000000000000006': { kind: 'not_found' },
    'ref:INV-7': { kind: 'found', transaction: tx('100000000000000007', 700, 'USD', { reference: 'INV-7' }) },
    'ref:INV-1': {
      kind: 'found',
      transaction: tx('100000000000000001', 1000, 'USD', { reference: 'INV-1' }),
    },
    'tx:100000000000000008': { kind: 'failed', code: 'network', message: 'The service did not answer.' },
    'tx:100000000000000009': {
      kind: 'found',
      transaction: tx('100000000000000009', 900, 'USD', { refunds: [refund(900)] }),
    },
    'tx:100000000000000010': { kind: 'found', transaction: tx('100000000000000010', 500) },
    'tx:100000000000000011': {
      kind: 'found',
      transaction: tx('100000000000000011', 500, 'USD', { status: 'closed' }),
    },
    'tx:100000000000000012': {
      kind: 'found',
      transaction: tx('100000000000000012', 500, 'USD', { refunds: [refund(200)] }),
    },
    'tx:100000000000000013': { kind: 'found', transaction: tx('100000000000000013', 500) },
  });
  const items = matchLedger(rows, lookup, { fmt });
  const outcomes = items.map((i) => i.outcome);

  it('gives every row the expected outcome', () => {
    expect(outcomes).toEqual<ReconOutcome[]>([
      'matched',
      'amount_mismatch',
      'currency_mismatch',
      'status_mismatch',
      'refunded_not_in_ledger',
      'missing_at_service',
      'duplicate_in_ledger',
      'matched',
      'duplicate_in_ledger',
      'not_checked',
      'matched',
      'status_mismatch',
      'matched',
      'refunded_not_in_ledger',
      'status_mismatch',
    ]);
  });

  it('explains each exception in words with amounts', () => {
    expect(items[1]?.detail).toBe('Ledger has 10.00 USD, the service has 9.90 USD (difference 0.10 USD).');
    expect(items[2]?.detail).toBe('Ledger has 10.00 CNY, the service has 10.00 USD.');
    expect(items[3]?.detail).toBe('Ledger says Paid, the service says closed: no money was received for it.');
    expect(items[4]?.detail).toBe('The service refunded 4.00 USD, the ledger records no refund.');
    expect(items[4]?.service?.refundedMinor).toBe(400);
    expect(items[6]).toMatchObject({
      duplicateOfLine: rows[0]?.line,
      detail: `Same transaction as line ${rows[0]?.line}: the ledger counts it twice.`,
    });
    expect(items[8]).toMatchObject({ duplicateOfLine: rows[0]?.line, matchedBy: 'reference' });
    expect(items[9]?.detail).toContain('(network)');
    expect(items[13]?.detail).toBe('The service refunded 2.00 USD, the ledger records 1.00 USD.');
  });

  it('records each row’s contribution to ledger − service per currency', () => {
    expect(items[0]?.deltas).toEqual([]);
    expect(items[1]?.deltas).toEqual([{ currency: 'USD' as const, amountMinor: 10 }]);
    expect(items[2]?.deltas).toEqual([
      { currency: 'CNY' as const, amountMinor: 1000 },
      { currency: 'USD' as const, amountMinor: -1000 },
    ]);
    expect(items[3]?.deltas).toEqual([{ currency: 'USD' as const, amountMinor: 1000 }]);
    expect(items[5]?.deltas).toEqual([{ currency: 'USD' as const, amountMinor: 1000 }]);
    expect(items[6]?.deltas).toEqual([{ currency: 'USD' as const, amountMinor: 1000 }]);
    expect(items[11]?.deltas).toEqual([{ currency: 'USD' as const, amountMinor: -500 }]);
    expect(items[12]?.deltas).toEqual([]);
  });

  it('gives every item that adds nothing the same frozen empty list, which a stored report reads back as equal', () => {
    expect(items[0]?.deltas).toBe(NO_DELTAS);
    expect(items[12]?.deltas).toBe(NO_DELTAS);
    expect(Object.isFrozen(NO_DELTAS)).toBe(true);
    expect(() => (items[0]?.deltas as CurrencyAmount[]).push({ currency: 'USD', amountMinor: 1 })).toThrow();
    expect(NO_DELTAS).toHaveLength(0);
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });

  it('with keepItems false, hands each item to onItem only and keeps none (a caller storing them as they come)', () => {
    const handed: typeof items = [];
    const kept = matchLedger(rows, lookup, { fmt, onItem: (i) => handed.push(i), keepItems: false });
    expect(kept).toEqual([]);
    expect(handed).toStrictEqual(items);
    // Without onItem there is nowhere else for them to go: they are returned as always.
    expect(matchLedger(rows, lookup, { fmt, keepItems: false })).toStrictEqual(items);
  });

  it('treats a row that was never looked up as not checked', () => {
    expect(
      matchLedger([row({ transactionNo: '1', amountMinor: 1 })], () => undefined, { fmt })[0]?.outcome,
    ).toBe('not_checked');
  });
});

describe('keys', () => {
  it('looks rows up by transactionNo, else by reference, each key once', () => {
    const rows = [
      row({ transactionNo: '1', reference: 'A', amountMinor: 1 }),
      row({ reference: 'B', amountMinor: 1 }),
      row({ transactionNo: '1', amountMinor: 2 }),
    ];
    expect(rows.map(lookupKey)).toEqual(['tx:1', 'ref:B', 'tx:1']);
    expect(ledgerKeys(rows)).toEqual([{ transactionNo: '1' }, { reference: 'B' }]);
  });
});
