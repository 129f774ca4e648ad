import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLedgerAmount, readingOf } from '../../../shared/recon/amounts';
import { epochDay, instantMs, parseLedgerDate } from '../../../shared/recon/dates';
import { KeyIndex, keyHash } from '../../../shared/recon/key-index';
import { escapeUnsafeText } from '../../../shared/domain/text';
import { toLedgerRows, type LedgerRow } from '../../../shared/recon/ledger';
import {
  forEachLedgerKey,
  keyOf,
  ledgerKeys,
  lookupKey,
  matchLedger,
  type ServiceAnswer,
} from '../../../shared/recon/match';
import { fmt, tx } from './fixtures';

/**
 * The one-pass readers of the common cases (plain amounts, year-first days, toISOString instants)
 * must give what the careful readers give. A leading space (or a time after the day) sends a value
 * down the careful path, which is the reference.
 */
const outcome = (f: () => unknown) => {
  try {
    return { value: f() };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
};

describe('plain amounts and readings', () => {
  const amount = fc
    .array(fc.constantFrom('0', '1', '5', '9', '00', '999', '.', ',', '-'), { maxLength: 20 })
    .map((parts) => parts.join(''));
  const currency = fc.constantFrom('USD', 'JPY', 'KWD', 'CNY', 'XYZ');

  it('read to the same minor units, or refused with the same words', () => {
    fc.assert(
      fc.property(amount, currency, fc.constantFrom('.', ','), (text, ccy, decimal) => {
        const fast = outcome(() => parseLedgerAmount(text, ccy as 'USD', decimal as '.'));
        const careful = outcome(() => parseLedgerAmount(` ${text}`, ccy as 'USD', decimal as '.'));
        expect(fast).toEqual(careful);
        expect(readingOf(text)).toBe(readingOf(` ${text}`));
      }),
      { numRuns: 20_000 },
    );
  });

  it('stays exact up to the safe-integer range and hands longer amounts to the exact path', () => {
    expect(parseLedgerAmount('9999999999999.99', 'USD', '.')).toBe(999_999_999_999_999);
    expect(parseLedgerAmount('90071992547409.91', 'USD', '.')).toBe(9_007_199_254_740_991);
    expect(() => parseLedgerAmount('90071992547409.92', 'USD', '.')).toThrow('too large');
    expect(parseLedgerAmount('-0.00', 'USD', '.')).toBe(0);
    expect(Object.is(parseLedgerAmount('-0.00', 'USD', '.'), -0)).toBe(false);
    expect(parseLedgerAmount('100.00', 'JPY', '.')).toBe(100);
    expect(() => parseLedgerAmount('100.50', 'JPY', '.')).toThrow('no minor unit');
  });
});

describe('ledger rows read once per distinct date cell', () => {
  const parsedOf = (rows: string[][]) => ({
    headers: ['Transaction No', 'Amount', 'Currency', 'Date'],
    rows: rows.map((cells, i) => ({ line: i + 2, cells })),
    problems: [],
    delimiter: ',' as const,
  });
  const mapping = { transactionNo: 'Transaction No', amount: 'Amount', currency: 'Currency', date: 'Date' };
  const dateCell = fc.constantFrom(
    '2025-06-01',
    ' 2025-06-01',
    '2025-06-01 ',
    '2025-02-30',
    '01/06/2025',
    '13/06/2025',
    '06/13/2025',
    '31.12.2025',
    '20250601',
    '2025-06-01T10:00',
    '',
    'someday',
    'a\u200bb',
  );

  it('a file reads to the rows its rows read to one at a time (the date of one row never leaks into another)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(99), dateCell), { maxLength: 30 }),
        fc.constantFrom('ymd', 'dmy', 'mdy'),
        (specs, order) => {
          const rows = specs.map(([n, date]) => [String(1000 + n), '1.00', 'USD', date]);
          const formats = { decimal: '.' as const, dateOrder: order as 'ymd' };
          const whole = toLedgerRows(parsedOf(rows), mapping, formats);
          const one = rows.map((cells, i) => {
            const r = toLedgerRows(parsedOf([cells]), mapping, formats);
            const again = (x: { line: number }) => ({ ...x, line: i + 2 });
            return { rows: r.rows.map(again), unusable: r.unusable.map(again) };
          });
          expect(whole.rows).toStrictEqual(one.flatMap((r) => r.rows));
          expect(whole.unusable).toStrictEqual(one.flatMap((r) => r.unusable));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an amount cell read as written gives what the trimmed cell gives (the plain amount before the careful one)', () => {
    const amount = fc
      .array(fc.constantFrom('0', '1', '5', '9', '00', '999', '.', ',', '-', ' ', '(', ')', '\u00a0'), {
        maxLength: 12,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(amount, fc.constantFrom('USD', 'JPY', 'KWD', 'usd', 'XYZ')), { maxLength: 20 }),
        fc.constantFrom('.', ','),
        (specs, decimal) => {
          const formats = { decimal: decimal as '.', dateOrder: 'ymd' as const };
          const read = (pad: string) =>
            toLedgerRows(
              parsedOf(specs.map(([a, ccy], i) => [String(1000 + i), `${pad}${a}${pad}`, ccy, '2025-06-01'])),
              mapping,
              formats,
            );
          expect(read('')).toStrictEqual(read(' '));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads every date past the number of distinct dates it keeps', () => {
    const day = (i: number) => new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const n = 10_050;
    const rows = Array.from({ length: 2 * n }, (_, i) => [String(1000 + i), '1.00', 'USD', ` ${day(i % n)}`]);
    const read = toLedgerRows(parsedOf(rows), mapping);
    expect(read.unusable).toEqual([]);
    expect(read.rows.map((r) => [r.date, r.day])).toEqual(rows.map((c) => [c[3]!.trim(), c[3]!.trim()]));
  });
});

describe('year-first days and service instants', () => {
  const day = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
    )
    .map(
      ([y, m, d]) =>
        `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    );

  it('a ledger day is what the careful reader says (leap years, years below 100, 31st of April)', () => {
    fc.assert(
      fc.property(day, fc.constantFrom('ymd', 'dmy', 'mdy'), (d, order) => {
        expect(parseLedgerDate(d, order as 'ymd')).toBe(parseLedgerDate(`${d}T00:00`, order as 'ymd'));
      }),
      { numRuns: 20_000 },
    );
    expect(parseLedgerDate('2024-02-29', 'ymd')).toBe('2024-02-29');
    expect(parseLedgerDate('2100-02-29', 'ymd')).toBeUndefined();
    expect(parseLedgerDate('0099-01-01', 'ymd')).toBeUndefined();
  });

  it('day numbers and instants are what Date.parse says, for real and unreal days alike', () => {
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 999 }),
        (d, h, m, ms) => {
          expect(epochDay(d)).toBe(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
          const pad = (n: number, w = 2) => String(n).padStart(w, '0');
          const iso = `${d}T${pad(h)}:${pad(m)}:${pad(59 - (m % 60))}.${pad(ms, 3)}Z`;
          expect(instantMs(iso)).toBe(Date.parse(iso));
        },
      ),
      { numRuns: 20_000 },
    );
    for (const text of ['', 'garbage', '2025-06-01', '2025-06-01T04:00:00Z', '2025-06-01T04:00:00.000+08:00'])
      expect(instantMs(text)).toBe(Date.parse(text));
  });
});

describe('KeyIndex', () => {
  it('numbers keys in first-seen order and gives a key the same number every time, past its first size', () => {
    const index = new KeyIndex(4);
    const keys = Array.from({ length: 5000 }, (_, i) => `2975536383${String(i * 7).padStart(8, '0')}`);
    expect(keys.map((k) => index.idOf(k))).toEqual(keys.map((_, i) => i));
    expect(index.size).toBe(5000);
    expect([...keys].reverse().map((k) => index.idOf(k))).toEqual(keys.map((_, i) => 4999 - i));
    expect(index.size).toBe(5000);
  });

  it('tells apart keys that differ anywhere, including the empty key', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (keys) => {
        const index = new KeyIndex();
        const first = new Map<string, number>();
        for (const k of keys) {
          if (!first.has(k)) first.set(k, first.size);
          expect(index.idOf(k)).toBe(first.get(k));
        }
        expect(index.size).toBe(first.size);
      }),
    );
  });

  it('files keys hashed beforehand (idOfHashed) exactly as idOf does, mixed with idOf', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.boolean()), { maxLength: 300 }),
        (keys) => {
          const plain = new KeyIndex(2);
          const hashed = new KeyIndex(2);
          const hashes = keys.map(([k]) => keyHash(k));
          keys.forEach(([k, pre], i) =>
            expect(pre ? hashed.idOfHashed(k, hashes[i]!) : hashed.idOf(k)).toBe(plain.idOf(k)),
          );
          expect(hashed.size).toBe(plain.size);
          for (const [k] of keys) expect(hashed.find(k)).toBe(plain.find(k));
        },
      ),
    );
  });

  it('finds a key’s number without adding a key it does not have', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 50 }),
        (keys, asked) => {
          const index = new KeyIndex(2);
          for (const k of keys) index.idOf(k);
          const size = index.size;
          for (const k of [...asked, ...keys])
            expect(index.find(k)).toBe(keys.includes(k) ? index.idOf(k) : -1);
          expect(index.size).toBe(size);
        },
      ),
    );
  });
});

describe('keys by kind (no `tx:`/`ref:` string per row)', () => {
  const value = fc.constantFrom('', '1', '2', 'tx:1', 'ref:', 'A');
  const rowArb = fc.record({
    transactionNo: fc.option(value, { nil: undefined }),
    reference: fc.option(value, { nil: undefined }),
    amountMinor: fc.integer({ min: 0, max: 3 }),
  });
  /** What the service says, by key string: some found (with a number of its own), some not, some failed. */
  const answers = (seed: number) => {
    const made = new Map<string, ServiceAnswer | undefined>();
    return (key: string): ServiceAnswer | undefined => {
      if (!made.has(key)) {
        const h = [...key].reduce((a, c) => (a * 31 + c.charCodeAt(0) + seed) % 1009, 7);
        made.set(
          key,
          h % 4 === 0
            ? undefined
            : h % 4 === 1
              ? { kind: 'not_found', source: 'lookup', fetchedAt: 't' }
              : h % 4 === 2
                ? { kind: 'failed', code: 'network', message: 'down', source: 'lookup', fetchedAt: 't' }
                : { kind: 'found', transaction: tx(String(h % 3), h % 4), source: 'list', fetchedAt: 't' },
        );
      }
      return made.get(key);
    };
  };

  it('matchLedger with lookupBy gives the items the key-string lookup gives', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 25 }), fc.nat(50), (specs, seed) => {
        const rows: LedgerRow[] = specs.map((s, i) => ({
          line: i + 2,
          ...(s.transactionNo !== undefined ? { transactionNo: s.transactionNo } : {}),
          ...(s.reference !== undefined ? { reference: s.reference } : {}),
          amountMinor: s.amountMinor,
          currency: 'USD',
          status: 'paid',
        }));
        const lookup = answers(seed);
        const byString = matchLedger(rows, lookup, { fmt });
        const byKind = matchLedger(rows, () => undefined, {
          fmt,
          lookupBy: (byTx, v) => lookup(byTx ? `tx:${v}` : `ref:${v}`),
        });
        expect(byKind).toStrictEqual(byString);
      }),
      { numRuns: 2000 },
    );
  });

  it('forEachLedgerKey names each distinct key once, in first-seen order, as lookupKey would', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 25 }), (specs) => {
        const rows: LedgerRow[] = specs.map((s, i) => ({
          line: i + 2,
          currency: 'USD',
          status: 'paid',
          ...s,
        }));
        const reference: string[] = [];
        for (const r of rows) if (!reference.includes(lookupKey(r))) reference.push(lookupKey(r));
        const seen: string[] = [];
        forEachLedgerKey(rows, (byTx, v) => seen.push(keyOf(byTx, v)));
        expect(seen).toEqual(reference);
        expect(ledgerKeys(rows).map(lookupKey)).toEqual(reference);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('mapped cells read without the unsafe-text regex when they are plain ASCII', () => {
  it('give the rows escapeUnsafeText of the trimmed cell gives, whatever the characters', () => {
    const ch = fc.constantFrom(
      ' ',
      'a',
      'Z',
      '~',
      '-',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u200e',
      '\u202e',
      '\u2028',
      'é',
      '😀',
      '\ufeff',
      '\u00a0',
    );
    const cell = fc.array(ch, { maxLength: 8 }).map((cs) => `R${cs.join('')}`);
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 20 }), (refs) => {
        const parsed = {
          headers: ['Transaction No', 'Reference', 'Amount', 'Currency'],
          rows: refs.map((r, i) => ({ line: i + 2, cells: [String(100 + i), r, '1.00', 'USD'] })),
          problems: [],
          delimiter: ',' as const,
        };
        const { rows } = toLedgerRows(parsed, {
          transactionNo: 'Transaction No',
          reference: 'Reference',
          amount: 'Amount',
          currency: 'Currency',
        });
        expect(rows.map((r) => r.reference)).toEqual(
          refs.map((r) => escapeUnsafeText(r.trim()).slice(0, 128)),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
