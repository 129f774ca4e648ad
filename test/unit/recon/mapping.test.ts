import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { normaliseLedgerStatus, toLedgerRows } from '../../../shared/recon/ledger';
import { chooseMapping, guessMapping, mappingIssues } from '../../../shared/recon/mapping';

describe('guessMapping', () => {
  it('recognises common header spellings', () => {
    expect(
      guessMapping(['Transaction No', 'Order Number', 'Total', 'Currency', 'Order Date', 'Payment Status']),
    ).toEqual({
      transactionNo: 'Transaction No',
      reference: 'Order Number',
      amount: 'Total',
      currency: 'Currency',
      date: 'Order Date',
      status: 'Payment Status',
    });
    expect(guessMapping(['txn_id', 'ccy', 'gross_amount', 'invoice'])).toEqual({
      transactionNo: 'txn_id',
      currency: 'ccy',
      amount: 'gross_amount',
      reference: 'invoice',
    });
  });
  it('uses each header once and leaves unknown fields empty', () => {
    const m = guessMapping(['amount', 'foo']);
    expect(m).toEqual({ amount: 'amount' });
    expect(mappingIssues(m, ['amount', 'foo'])).toEqual([
      'Choose the column with the transaction number or the reference (or both).',
      'Choose the currency column.',
    ]);
  });
  it('rejects a mapping that names missing or repeated columns', () => {
    expect(mappingIssues({ reference: 'a', amount: 'a', currency: 'zz' }, ['a'])).toEqual([
      'The file has no column “zz” (mapped to Currency).',
      'Each column can be used for one field only.',
    ]);
  });
  it('keeps a remembered mapping when it still fits, else guesses again', () => {
    const remembered = { reference: 'Ref', amount: 'Amt', currency: 'Cur' };
    expect(chooseMapping(['Ref', 'Amt', 'Cur'], remembered)).toBe(remembered);
    expect(chooseMapping(['reference', 'amount', 'currency'], remembered)).toEqual({
      reference: 'reference',
      amount: 'amount',
      currency: 'currency',
    });
  });
});

describe('status normalisation', () => {
  it.each([
    [undefined, 'paid'],
    ['Paid', 'paid'],
    ['SETTLED', 'paid'],
    ['Partially refunded', 'refunded'],
    ['cancelled', 'unpaid'],
    ['on hold', 'other'],
  ] as const)('%s → %s', (input, out) => expect(normaliseLedgerStatus(input)).toBe(out));
});

describe('toLedgerRows', () => {
  const csv = [
    'transactionNo,reference,amount,currency,date,status',
    '297553638300708562,INV-1,10.00,usd,2024-05-01,paid',
    ',INV-2,"1,000.50",USD,2024-05-02,',
    ',,1.00,USD,,',
    'abc,INV-4,1.00,USD,,',
    '297553638300708565,INV-5,1.005,USD,,',
    '297553638300708566,INV-6,1.00,US,,',
    '297553638300708567,INV-7,1.00,XYZ,,',
    '297553638300708568,INV-8,,USD,,',
    '297553638300708569,INV-9,1000.00,JPY,,refunded',
    '297553638300708570,INV-10,12.5,JPY,,',
  ].join('\n');
  const parsed = parseCsvText(csv);
  const { rows, unusable: problems } = toLedgerRows(parsed, guessMapping(parsed.headers));

  it('keeps good rows with integer minor units and string ids', () => {
    expect(rows).toEqual([
      {
        line: 2,
        transactionNo: '297553638300708562',
        reference: 'INV-1',
        amountMinor: 1000,
        currency: 'USD',
        date: '2024-05-01',
        day: '2024-05-01',
        status: 'paid',
        statusText: 'paid',
      },
      {
        line: 3,
        reference: 'INV-2',
        amountMinor: 100050,
        currency: 'USD',
        date: '2024-05-02',
        day: '2024-05-02',
        status: 'paid',
      },
      {
        // Its transaction number “abc” cannot be used: the row is keyed by its reference, and says so.
        line: 5,
        reference: 'INV-4',
        amountMinor: 100,
        currency: 'USD',
        status: 'paid',
        keyNote: 'transactionNo “abc” is not all digits: matched by reference instead',
      },
      {
        line: 10,
        transactionNo: '297553638300708569',
        reference: 'INV-9',
        amountMinor: 1000,
        currency: 'JPY',
        status: 'refunded',
        statusText: 'refunded',
      },
    ]);
  });
  it('lists every bad row with its line and a reason', () => {
    expect(problems.map((p: { line: number }) => p.line)).toEqual([4, 6, 7, 8, 9, 11]);
    expect(problems[0]?.reason).toBe('has neither a transaction number nor a reference');
    expect(problems[1]?.reason).toContain('at most 2 decimals');
    expect(problems[2]?.reason).toContain('3-letter');
    expect(problems[3]?.reason).toContain('XYZ');
    expect(problems[4]?.reason).toContain('no amount');
    expect(problems[5]?.reason).toContain('JPY has no minor unit');
  });
  it('reads a refunded-amount column when mapped', () => {
    const p = parseCsvText('ref,amount,currency,refunded\nA,10.00,USD,2.50\n');
    expect(
      toLedgerRows(p, { reference: 'ref', amount: 'amount', currency: 'currency', refunded: 'refunded' })
        .rows[0]?.refundedMinor,
    ).toBe(250);
  });
});
