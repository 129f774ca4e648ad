import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { MoneyParseError } from '../../../shared/domain/money';
import { detectDecimal, parseLedgerAmount, readingOf } from '../../../shared/recon/amounts';
import { daysBetween, detectDateOrder, parseLedgerDate } from '../../../shared/recon/dates';
import { detectFormats, formatQuestions, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';

describe('decimal separator: decided per file from its values, never guessed', () => {
  it.each([
    ['1,234.56', '.'],
    ['1.234,56', ','],
    ['12,30', ','],
    ['12.5', '.'],
    ['1.234.567', ','],
    ['1,234,567', '.'],
    ['1.400', 'ambiguous'],
    ['0,125', 'ambiguous'],
    ['1400', 'none'],
    ['(1 234,50)', ','],
    ["1'234.50", '.'],
    ['n/a', 'none'],
  ])('%s says %s', (value, reading) => expect(readingOf(value)).toBe(reading));

  it('a semicolon file: 2.436,06 CNY proves the comma, so 1.400 KRW is 1400 (the defect: it was refused)', () => {
    const p = parseCsvText('Reference;Amount;Currency\nA;2.436,06;CNY\nB;1.400;KRW\nC;12,5;USD\n');
    const mapping = guessMapping(p.headers);
    const evidence = detectFormats(p, mapping);
    expect(evidence.decimal).toMatchObject({ decimal: ',', comma: 2, ambiguous: 1, needsChoice: false });
    const { rows, unusable } = toLedgerRows(p, mapping, formatsFrom(evidence));
    expect(unusable).toEqual([]);
    expect(rows.map((r) => [r.currency, r.amountMinor])).toEqual([
      ['CNY', 243606],
      ['KRW', 1400],
      ['USD', 1250],
    ]);
  });

  it('"0,125" with no other evidence is refused with a question (the defect: it was read as 125.00)', () => {
    const p = parseCsvText('Reference,Amount,Currency\nA,"0,125",USD\nB,7,USD\n');
    const mapping = guessMapping(p.headers);
    const evidence = detectFormats(p, mapping);
    expect(evidence.decimal.decimal).toBeUndefined();
    expect(evidence.decimal.needsChoice).toBe(true);
    expect(formatQuestions(evidence)).toEqual([expect.stringContaining('Is “0,125” a decimal')]);
    // Answered, it is read the chosen way: 0.125 USD has too many decimals, 125 USD is fine.
    expect(formatQuestions(evidence, { decimal: '.' })).toEqual([]);
    expect(toLedgerRows(p, mapping, { decimal: '.', dateOrder: 'ymd' }).rows[0]?.amountMinor).toBe(12500);
    expect(toLedgerRows(p, mapping, { decimal: ',', dateOrder: 'ymd' }).unusable[0]?.reason).toMatch(
      /USD allows at most 2 decimals/,
    );
  });

  it('conflicting evidence is asked too; whole numbers need no choice', () => {
    const conflict = detectDecimal(['1,234.56', '1.234,56']);
    expect([conflict.decimal, conflict.needsChoice]).toEqual([undefined, true]);
    const whole = detectDecimal(['12', '1400', '-3']);
    expect([whole.decimal, whole.needsChoice]).toEqual([undefined, false]);
  });

  it.each([
    ['1,234.56', 'USD', '.', 123456],
    ['1.234,56', 'EUR', ',', 123456],
    ['(12.30)', 'USD', '.', -1230],
    ['-12,30', 'EUR', ',', -1230],
    ['14,000', 'KRW', '.', 14000],
    ['1 000 000', 'JPY', ',', 1000000],
    ['1000.00', 'JPY', '.', 1000],
  ] as const)('%s %s with %s → %i', (text, currency, decimal, minor) =>
    expect(parseLedgerAmount(text, currency, decimal)).toBe(minor),
  );

  it.each([
    ['1,23,456.00', '.', /groups? thousands in threes/],
    ['1.2.3', '.', /more than one decimal separator/],
    ['12.30', ',', /groups? thousands in threes/],
    ['1e5', '.', /not an amount/],
    ['', '.', /no amount/],
  ] as const)('refuses %s (decimal %s)', (text, decimal, message) => {
    expect(() => parseLedgerAmount(text, 'USD', decimal)).toThrow(MoneyParseError);
    expect(() => parseLedgerAmount(text, 'USD', decimal)).toThrow(message);
  });
});

describe('ledger dates', () => {
  it('decides day or month first from a 13th or later, asks when nothing decides', () => {
    expect(detectDateOrder(['03/04/2025', '25/04/2025'])).toMatchObject({ order: 'dmy', needsChoice: false });
    expect(detectDateOrder(['04/25/2025', '03/04/2025'])).toMatchObject({ order: 'mdy' });
    const open = detectDateOrder(['03/04/2025', '05/06/2025']);
    expect([open.order, open.needsChoice]).toEqual([undefined, true]);
    expect(detectDateOrder(['2025-04-02', '2025-04-30 13:45'])).toMatchObject({ order: 'ymd' });
    expect(detectDateOrder(['02.04.2025'])).toMatchObject({ order: 'dmy' });
  });
  it.each([
    ['2025-04-02', 'ymd', '2025-04-02'],
    ['2025-04-02T23:59:00Z', 'ymd', '2025-04-02'],
    ['2025/4/2 10:00', 'dmy', '2025-04-02'],
    ['20250402', 'mdy', '2025-04-02'],
    ['02/04/2025', 'dmy', '2025-04-02'],
    ['04/02/2025', 'mdy', '2025-04-02'],
    ['02.04.25', 'ymd', '2025-04-02'],
    ['31/02/2025', 'dmy', undefined],
    ['yesterday', 'ymd', undefined],
  ] as const)('%s (%s) → %s', (text, order, day) => expect(parseLedgerDate(text, order)).toBe(day));
  it('counts whole days between calendar days', () => {
    expect(daysBetween('2025-04-02', '2026-08-24')).toBe(509);
    expect(daysBetween('2025-03-01', '2025-02-28')).toBe(-1);
  });
  it('an unreadable date makes the row unusable, with its line (never silently skipped)', () => {
    const p = parseCsvText('Transaction No,Amount,Currency,Date\n1,1.00,USD,2025-04-02\n2,1.00,USD,soon\n');
    const { rows, unusable } = toLedgerRows(p, guessMapping(p.headers));
    expect(rows[0]?.day).toBe('2025-04-02');
    expect(unusable).toEqual([
      expect.objectContaining({
        line: 3,
        cause: 'date',
        reason: expect.stringContaining('“soon” is not a date'),
      }),
    ]);
  });
});

describe('unusable rows: causes named', () => {
  it('names ids Excel turned into scientific notation (the defect: only "is not all digits")', () => {
    const p = parseCsvText('Transaction No,Amount,Currency\n5.39117E+17,1.00,USD\n53911A,1.00,USD\n');
    const { unusable } = toLedgerRows(p, guessMapping(p.headers));
    expect(unusable.map((u) => u.cause)).toEqual(['scientific_id', 'id_not_digits']);
    expect(unusable[0]?.reason).toMatch(
      /^Transaction No “5\.39117E\+17” looks shortened by Excel \(scientific notation\): its last digits are lost, so it cannot be matched\. Map a reference column/,
    );
    expect(unusable[0]?.fields).toMatchObject({ transactionNo: '5.39117E+17', currency: 'USD' });
    expect(unusable[0]?.currency).toBe('USD');
  });
  it('carries the parser’s problems (field counts, with the row as written) in line order', () => {
    const p = parseCsvText('Transaction No,Amount,Currency\n1,1,234.56,USD\n2,x,USD\n3,1.00,USD\n');
    const imported = toLedgerRows(p, guessMapping(p.headers));
    expect(imported.unusable.map((u) => [u.line, u.cause])).toEqual([
      [2, 'thousands_separator'],
      [3, 'amount'],
    ]);
    expect(imported.unusable[0]?.raw).toBe('1,1,234.56,USD');
    expect(imported.rows.length + imported.unusable.length).toBe(imported.dataRows);
    expect(imported.dataRows).toBe(p.dataRows);
  });
});
