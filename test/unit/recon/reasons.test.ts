/**
 * The walkthrough's ledger (issue 28): `Transaction No` saved by Excel as 6.2393E+17 on all 30 rows, with
 * an intact `Order ID`. It read "30 data rows: 0 read · 30 cannot be used" with 30 copies of one
 * message; now every row is checked by its reference and says so, and rows that share a reason are said
 * once with their lines.
 */
import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';
import { collapseReasons, groupText, lineRanges } from '../../../shared/recon/reasons';

const ledger = (withOrderId: boolean) => {
  const lines = [withOrderId ? 'Transaction No,Order ID,Amount,Currency' : 'Transaction No,Amount,Currency'];
  for (let i = 0; i < 30; i += 1)
    lines.push(withOrderId ? `6.2393E+17,SO-${100 + i},12.30,USD` : `6.2393E+17,12.30,USD`);
  return parseCsvText(lines.join('\n'));
};

describe('an unusable transaction number with a reference: matched by the reference, and said so', () => {
  it('reads all 30 rows keyed by Order ID, each with a note (the defect: 0 read, 30 cannot be used)', () => {
    const p = ledger(true);
    const { rows, unusable } = toLedgerRows(p, guessMapping(p.headers));
    expect([rows.length, unusable.length]).toEqual([30, 0]);
    expect(rows[0]).toEqual({
      line: 2,
      reference: 'SO-100',
      amountMinor: 1230,
      currency: 'USD',
      status: 'paid',
      keyNote:
        'Transaction No “6.2393E+17” looks shortened by Excel (scientific notation): its last digits are lost: matched by Order ID instead',
    });
    expect(rows.every((r) => r.transactionNo === undefined)).toBe(true);
  });
  it('without a reference the rows cannot be used, and the message says to map one', () => {
    const p = ledger(false);
    const { unusable } = toLedgerRows(p, guessMapping(p.headers));
    expect(unusable).toHaveLength(30);
    expect(unusable[0]?.reason).toContain('Map a reference column (order or invoice number)');
  });
});

describe('identical reasons collapsed into one line with the line ranges', () => {
  it('30 rows of one reason are one line: “Lines 2–31 (30 rows): …” (the defect: 30 copies)', () => {
    const p = ledger(false);
    const groups = collapseReasons(toLedgerRows(p, guessMapping(p.headers)).unusable);
    expect(groups).toHaveLength(1);
    expect(groupText(groups[0]!)).toMatch(
      /^Lines 2–31 \(30 rows\): Transaction No “6\.2393E\+17” looks shortened by Excel/,
    );
  });
  it('reasons that differ only in the value they quote are one group, said as such; others apart', () => {
    const groups = collapseReasons([
      { line: 2, reason: 'amount: “x” is not an amount', cause: 'amount' },
      { line: 3, reason: 'amount: “y” is not an amount', cause: 'amount' },
      { line: 5, reason: 'has no currency', cause: 'currency' },
      { line: 7, reason: 'amount: “x” is not an amount', cause: 'amount' },
    ]);
    expect(groups.map(groupText)).toEqual([
      'Lines 2–3, 7 (3 rows): amount: “x” is not an amount (line 2; the others alike, each with its own value)',
      'Line 5: has no currency',
    ]);
  });
  it('line ranges are bounded, with how many more lines', () => {
    expect(lineRanges([2, 3, 4, 6, 9, 10])).toBe('2–4, 6, 9–10');
    const every = Array.from({ length: 1000 }, (_, i) => 2 + 2 * i);
    expect(lineRanges(every, 3)).toBe('2, 4, 6 and 997 more lines');
  });
});
