import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCsvText } from '../../../shared/csv/parser';
import type { Transaction } from '../../../shared/domain/transaction';
import { REPORT_COLUMNS, SUMMARY_COLUMNS, reportCsv, summaryCsv } from '../../../shared/recon/export';
import type { LedgerRow } from '../../../shared/recon/ledger';
import { type ServiceLookup, lookupKey, matchLedger } from '../../../shared/recon/match';
import { buildReport, detailAmount } from '../../../shared/recon/report';
import { summarise } from '../../../shared/recon/summary';
import { FETCHED_AT, fmt, lookupFrom, row, tx } from './fixtures';

/** A run over June 2025 in the service's days, dates compared within a day. */
const JUNE = {
  period: { from: '2025-06-01', to: '2025-06-30' },
  days: 'service',
  timeZone: 'UTC',
  dateToleranceDays: 1,
  refundLookbackDays: 0,
} as const;

describe('summarise', () => {
  it('adds up a small ledger by hand', () => {
    const rows = [
      row({ transactionNo: '1', amountMinor: 1000 }),
      row({ transactionNo: '2', amountMinor: 1000 }),
      row({ transactionNo: '3', amountMinor: 500 }),
      row({ transactionNo: '1', amountMinor: 1000 }),
      row({ transactionNo: '4', amountMinor: 250 }),
      row({ transactionNo: '5', amountMinor: 300, currency: 'JPY' }),
    ];
    const items = matchLedger(
      rows,
      lookupFrom({
        'tx:1': {
          kind: 'found',
          transaction: tx('1', 1000, 'USD', {
            refunds: [
              { refundTransactionNo: 'r', refundAmountMinor: 100, currency: 'USD', status: 'success' },
            ],
          }),
        },
        'tx:2': { kind: 'found', transaction: tx('2', 900) },
        'tx:3': { kind: 'not_found' },
        'tx:4': { kind: 'failed', code: 'timeout', message: 'x' },
        'tx:5': { kind: 'found', transaction: tx('5', 300, 'JPY') },
      }),
      { fmt },
    );
    const s = summarise(items);
    expect(s.rows).toBe(6);
    expect(s.exceptions).toBe(5);
    expect(s.counts).toMatchObject({
      matched: 1,
      refunded_not_in_ledger: 1,
      amount_mismatch: 1,
      missing_at_service: 1,
      duplicate_in_ledger: 1,
      not_checked: 1,
    });
    expect(s.currencies.map((c) => c.currency)).toEqual(['JPY', 'USD']);
    expect(s.currencies[1]).toMatchObject({
      rows: 5,
      ledgerTotalMinor: 3750,
      serviceTotalMinor: 1900,
      serviceRefundsMinor: 100,
      differenceMinor: 1850,
      explainedMinor: 100 + 500 + 1000,
      unexplainedMinor: 250,
    });
    expect(s.currencies[0]).toMatchObject({
      rows: 1,
      ledgerTotalMinor: 300,
      serviceTotalMinor: 300,
      differenceMinor: 0,
      unexplainedMinor: 0,
    });
  });

  const currency = fc.constantFrom('USD', 'JPY', 'CNY');
  const serviceSide = fc.oneof(
    fc.record({
      kind: fc.constant('found' as const),
      amountMinor: fc.integer({ min: 0, max: 10_000_000 }),
      currency,
      status: fc.constantFrom('success', 'closed', 'failed'),
      refunded: fc.integer({ min: 0, max: 1000 }),
    }),
    fc.record({ kind: fc.constant('not_found' as const) }),
    fc.record({ kind: fc.constant('failed' as const) }),
  );
  const ledgerEntry = fc.record({
    id: fc.integer({ min: 1, max: 30 }),
    byRef: fc.boolean(),
    amountMinor: fc.integer({ min: -1000, max: 10_000_000 }),
    currency,
    status: fc.constantFrom('paid', 'refunded', 'unpaid', 'other') as fc.Arbitrary<LedgerRow['status']>,
  });

  it('per-currency totals are consistent with the items (property)', () => {
    fc.assert(
      fc.property(
        fc.array(ledgerEntry, { maxLength: 60 }),
        fc.dictionary(fc.integer({ min: 1, max: 30 }).map(String), serviceSide),
        (entries, service) => {
          const rows: LedgerRow[] = entries.map((e, i) => ({
            line: i + 2,
            ...(e.byRef ? { reference: `R${e.id}` } : { transactionNo: String(e.id) }),
            amountMinor: e.amountMinor,
            currency: e.currency,
            status: e.status,
          }));
          const lookup = (key: string): ServiceLookup | undefined => {
            const id = key.replace(/^tx:|^ref:R/, '');
            const s = service[id];
            if (!s) return undefined;
            if (s.kind !== 'found')
              return s.kind === 'failed'
                ? { kind: 'failed', code: 'network', message: 'down' }
                : { kind: 'not_found' };
            const t: Transaction = tx(id, s.amountMinor, s.currency, {
              status: s.status as Transaction['status'],
              reference: `R${id}`,
              refunds: s.refunded
                ? [
                    {
                      refundTransactionNo: `9${id}`,
                      refundAmountMinor: s.refunded,
                      currency: s.currency,
                      status: 'success',
                    },
                  ]
                : [],
            });
            return { kind: 'found', transaction: t };
          };
          const items = matchLedger(
            rows,
            (k) => {
              const l = lookup(k);
              return l && { ...l, source: 'lookup', fetchedAt: FETCHED_AT };
            },
            { fmt },
          );
          const s = summarise(items);
          expect(items).toHaveLength(rows.length);
          expect(s.rows).toBe(rows.length);
          expect(Object.values(s.counts).reduce((a, b) => a + b, 0)).toBe(rows.length);
          for (const c of s.currencies) {
            // Independent recomputation of the ledger side.
            const ledger = rows
              .filter((r) => r.currency === c.currency && r.status !== 'unpaid')
              .reduce((a, r) => a + r.amountMinor, 0);
            expect(c.ledgerTotalMinor).toBe(ledger);
            expect(c.differenceMinor).toBe(c.ledgerTotalMinor - c.serviceTotalMinor);
            expect(c.explainedMinor + c.unexplainedMinor).toBe(c.differenceMinor);
            // The difference is exactly the sum of the rows' deltas in that currency.
            const deltas = items
              .flatMap((i) => i.deltas)
              .filter((d) => d.currency === c.currency)
              .reduce((a, d) => a + d.amountMinor, 0);
            expect(deltas).toBe(c.differenceMinor);
            // Only rows that were not checked leave anything unexplained.
            const unchecked = items
              .filter((i) => i.outcome === 'not_checked' || i.outcome === 'matched')
              .flatMap((i) => i.deltas)
              .filter((d) => d.currency === c.currency)
              .reduce((a, d) => a + d.amountMinor, 0);
            expect(c.unexplainedMinor).toBe(unchecked);
            for (const v of [
              c.ledgerTotalMinor,
              c.serviceTotalMinor,
              c.serviceRefundsMinor,
              c.differenceMinor,
              c.unexplainedMinor,
            ])
              expect(Number.isSafeInteger(v)).toBe(true);
          }
          // Matched rows never carry a difference.
          for (const i of items.filter((x) => x.outcome === 'matched')) expect(i.deltas).toEqual([]);
          // Each distinct key is claimed by exactly one non-duplicate row.
          const owners = items
            .filter((i) => i.outcome !== 'duplicate_in_ledger')
            .map((i) => lookupKey(i.ledger!));
          expect(new Set(owners).size).toBe(owners.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('report and summary CSV', () => {
  const rows = [
    row({ transactionNo: '297553638300708562', reference: '=cmd', amountMinor: 1000, date: '2024-05-01' }),
    row({ reference: 'INV-2', amountMinor: -250 }),
  ];
  const items = matchLedger(
    rows,
    lookupFrom({
      'tx:297553638300708562': {
        kind: 'found',
        transaction: tx('297553638300708562', 990, 'USD', { paidAt: '2024-05-01T02:03:04.000Z' }),
      },
      'ref:INV-2': { kind: 'not_found' },
    }),
    { fmt },
  );

  it('has the documented column sets, with words for headers and the outcome code beside its label', () => {
    expect(REPORT_COLUMNS.map((c) => c.header)).toEqual([
      'Line',
      'Outcome',
      'Outcome code',
      'Matched by',
      'Transaction no.',
      'Reference',
      'Ledger amount',
      'Ledger currency',
      'Ledger status',
      'Ledger date',
      'Service amount',
      'Service currency',
      'Service status',
      'Service status code',
      'Refunded at service',
      'Difference',
      'Difference currency',
      'Duplicate of line',
      'Paid at service',
      'Time zone',
      'Detail',
      // Appended for the run record: every row counted, both directions, data source.
      'Cause',
      'Ledger row as written',
      'Created at service',
      'Service data source',
      'Fetched from service',
      'Day offset',
      'Refund transaction no.',
      'Refund amount',
      'Refund status',
      'Refund created',
      // Appended for month-end close.
      'Exception state',
      'Owner',
      'Age (days)',
      'Age bucket',
      'Aged from',
      'Notes',
      'Manual match',
      'Carried from run',
      'Carry-forward check',
      'Signed by',
      'Signed at',
      'Content hash (SHA-256)',
    ]);
    expect(SUMMARY_COLUMNS.map((c) => c.header)).toEqual([
      'Currency',
      'Ledger rows',
      'Matched',
      'Amount differs',
      'Currency differs',
      'Status differs',
      'Refunded, not in ledger',
      'Missing at service',
      'Duplicate in ledger',
      'Not checked',
      'Ledger total',
      'Service total',
      'Service refunds',
      'Difference',
      'Explained',
      'Unexplained',
      'Generated',
      'Time zone',
      // Appended for the run record.
      'Date differs',
      'Missing in ledger',
      'Refund missing in ledger',
      'Unreadable',
      'Run id',
      'Profile',
      'Period from',
      'Period to',
      'Period days',
      'Date tolerance (days)',
      'Data source',
      'Run status',
      'Compared how',
      // Appended for month-end close.
      'Signed by',
      'Signed at',
      'Sign-off comment',
      'Open at sign-off',
      'Content hash (SHA-256)',
    ]);
  });

  it('writes plain-digit ids, guarded text, plain numeric amounts and zoned times, and reads back', () => {
    const csv = reportCsv(items);
    expect(csv.startsWith('\uFEFFLine,Outcome,Outcome code,')).toBe(true);
    expect(csv.split('\r\n')[0]).toContain(',Paid at service (UTC),Time zone,Detail,Cause,');
    const lines = csv.split('\r\n');
    // For machines: the id is its digits, not a formula.
    expect(lines[1]).toContain(',297553638300708562,');
    expect(lines[1]).toContain("'=cmd");
    expect(lines[1]).toContain(',10.00,USD,');
    expect(lines[1]).toContain(',2024-05-01T02:03:04Z,UTC,');
    expect(lines[2]).toContain(',-2.50,USD,');
    const back = parseCsvText(csv);
    expect(back.problems).toEqual([]);
    const get = (r: number, h: string) => back.rows[r]?.cells[back.headers.indexOf(h)];
    expect(get(0, 'Transaction no.')).toBe('297553638300708562');
    expect(get(0, 'Reference')).toBe('=cmd');
    expect(get(0, 'Difference')).toBe('0.10');
    expect(get(1, 'Outcome code')).toBe('missing_at_service');
    expect(get(1, 'Outcome')).toBe('Missing at service');
    expect(get(1, 'Difference')).toBe('-2.50');
  });

  it('summary lines carry amounts per currency and the generation time in the zone asked for', () => {
    const currencies = summarise(items).currencies;
    const csv = summaryCsv(currencies, '2024-06-01T00:00:00.000Z', { bom: false });
    expect(csv.split('\r\n')[0]).toContain(',Unexplained,Generated (UTC),Time zone,Date differs,');
    expect(csv.split('\r\n')[1]).toBe(
      'USD,2,0,1,0,0,0,1,0,0,7.50,9.90,0.00,-2.40,-2.40,0.00,2024-06-01T00:00:00Z,UTC,0,0,0,0,,,,,,,,,,,,,,',
    );
    const utc8 = summaryCsv(currencies, '2024-06-01T00:00:00.000Z', {
      bom: false,
      zone: { iana: 'Etc/GMT-8', label: 'UTC+8' },
    });
    expect(utc8.split('\r\n')[0]).toContain(',Generated (UTC+8),Time zone,');
    expect(utc8.split('\r\n')[1]).toContain(',0.00,2024-06-01T08:00:00+08:00,UTC+8,0,0,0,0,');
  });
});

describe('a period the ledger left almost empty', () => {
  it('lists 200,000 service payments missing from the ledger without overflowing the call stack', () => {
    const listed = Array.from({ length: 200_000 }, (_, i) => ({
      transaction: {
        transactionNo: String(297553638300000000n + BigInt(i)),
        amountMinor: 100,
        currency: 'USD' as const,
        status: 'success' as const,
        transactionType: 'payment' as const,
        refunds: [],
        paidAt: '2025-06-10T04:00:00.000Z',
        createdAt: '2025-06-10T04:00:00.000Z',
      },
      fetchedAt: '2025-07-01T00:00:00.000Z',
    }));
    const report = buildReport({
      rows: [],
      unusable: [],
      answer: () => undefined,
      listed,
      listing: 'complete',
      options: JUNE,
      fmt: detailAmount,
    });
    expect(report.items).toHaveLength(200_000);
    expect(report.summary.exceptions).toBe(200_000);
  });
});

describe('the summary a report adds up as its items are made', () => {
  it('is summarise() of the report’s items, key order included, with unreadable rows and the service’s side', () => {
    const paid = (no: string, amountMinor: number, currency: 'USD' | 'CNY', at: string) => ({
      transaction: tx(no, amountMinor, currency, { paidAt: at, createdAt: at }),
      fetchedAt: FETCHED_AT,
    });
    const rows: LedgerRow[] = [
      { line: 3, transactionNo: '11', amountMinor: 1000, currency: 'USD', status: 'paid', day: '2025-06-02' },
      { line: 5, transactionNo: '12', amountMinor: 990, currency: 'USD', status: 'paid', day: '2025-06-02' },
      { line: 6, transactionNo: '13', amountMinor: 500, currency: 'CNY', status: 'paid', day: '2025-06-03' },
      { line: 8, transactionNo: '11', amountMinor: 1000, currency: 'USD', status: 'paid', day: '2025-06-02' },
      {
        line: 9,
        transactionNo: '14',
        amountMinor: 300,
        currency: 'CNY',
        status: 'unpaid',
        day: '2025-06-04',
      },
    ];
    const listed = [
      paid('11', 1000, 'USD', '2025-06-02T04:00:00.000Z'),
      paid('12', 1000, 'USD', '2025-06-02T05:00:00.000Z'),
      paid('13', 500, 'CNY', '2025-06-09T04:00:00.000Z'),
      paid('15', 700, 'CNY', '2025-06-05T04:00:00.000Z'),
      paid('16', 40, 'USD', '2025-06-06T04:00:00.000Z'),
    ];
    const byKey = new Map(listed.map((l) => [`tx:${l.transaction.transactionNo}`, l]));
    const report = buildReport({
      rows,
      // Between, before and after the rows read: an unreadable row is merged in by its line.
      unusable: [
        { line: 2, reason: 'amount: not a number', cause: 'amount', currency: 'USD' },
        { line: 4, reason: 'has no currency', cause: 'currency' },
        { line: 12, reason: 'amount: not a number', cause: 'amount', currency: 'CNY' },
      ],
      answer: (k) => {
        const l = byKey.get(k);
        return l && { kind: 'found', transaction: l.transaction, source: 'list', fetchedAt: l.fetchedAt };
      },
      listed,
      listing: 'complete',
      options: JUNE,
      fmt: detailAmount,
    });
    expect(report.items.map((i) => i.outcome)).toEqual([
      'unreadable',
      'matched',
      'unreadable',
      'amount_mismatch',
      'date_mismatch',
      'duplicate_in_ledger',
      'not_checked',
      'unreadable',
      'missing_in_ledger',
      'missing_in_ledger',
    ]);
    expect(JSON.stringify(report.summary)).toBe(JSON.stringify(summarise(report.items)));
    expect(report.summary.currencies.map((c) => c.currency)).toEqual(['CNY', 'USD', '']);
  });
});
