import { type Currency, CURRENCIES } from '../../../../shared/domain/currencies';
import { parseLocaleAmount } from '../../../../shared/domain/money-input';
import { dateText } from '../../lib/ui/date-text';
import type { DateFormat } from '../preferences/prefs';

/**
 * What a customer says on the phone, read from the look-up box: an amount (with or without its
 * currency), the last four digits of a card, an e-mail address or a name, a date — any of them, in
 * any order ("34,00 € 2026-11-24", "ana@example.com", "4242", "Ana Lima"). Every part must match.
 */
export interface CustomerWords {
  /** Amounts as typed, each read in the payment's own currency when matched. */
  amounts: string[];
  /** Currencies the words name ("USD", "€"; "$" is every dollar): empty for any. */
  currencies: Currency[];
  /** Four digits alone: the last four of a card, or an amount of that many units (both are tried). */
  lastFour?: string;
  email?: string;
  /** Lower-cased, accent-free words of a name. */
  name: string[];
  /** A calendar day, "YYYY-MM-DD", in the person's zone. */
  day?: string;
}

/** Signs people say or type for a currency; "$" and "¥" stand for several. */
const SIGNS: ReadonlyArray<readonly [string, readonly Currency[]]> = [
  ['US$', ['USD']],
  ['HK$', ['HKD']],
  ['S$', ['SGD']],
  ['A$', ['AUD']],
  ['CA$', ['CAD']],
  ['C$', ['CAD']],
  ['CN¥', ['CNY']],
  ['$', ['USD', 'CAD', 'AUD', 'HKD', 'SGD']],
  ['€', ['EUR']],
  ['£', ['GBP']],
  ['¥', ['CNY', 'JPY']],
  ['￥', ['CNY', 'JPY']],
  ['₩', ['KRW']],
  ['₱', ['PHP']],
  ['฿', ['THB']],
  ['৳', ['BDT']],
  ['₨', ['PKR']],
  ['Rp', ['IDR']],
  ['RM', ['MYR']],
];

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** A currency sign or code at the start or end of a token, and what is left of it. */
function currencyOf(token: string): { currencies: Currency[]; rest: string } | undefined {
  const upper = token.toUpperCase();
  for (const code of CURRENCIES) {
    if (upper === code) return { currencies: [code], rest: '' };
    if (upper.startsWith(code) && /\d/.test(token.slice(3, 4)))
      return { currencies: [code], rest: token.slice(3) };
    if (upper.endsWith(code) && /\d/.test(token.slice(-4, -3)))
      return { currencies: [code], rest: token.slice(0, -3) };
  }
  for (const [sign, currencies] of SIGNS) {
    const s = sign.toUpperCase(); // "us$" as "US$", "rp" as "Rp"
    if (upper === s) return { currencies: [...currencies], rest: '' };
    // Only beside a number: a name that happens to begin with "Rp" or "RM" stays a name.
    const after = token.slice(sign.length);
    const before = token.slice(0, -sign.length);
    if (upper.startsWith(s) && /^\d/.test(after)) return { currencies: [...currencies], rest: after };
    if (upper.endsWith(s) && /\d$/.test(before)) return { currencies: [...currencies], rest: before };
  }
  return undefined;
}

/**
 * Reads the box's text as a customer's words, or undefined when it is something else (an id such as
 * "INV-2026-0042" or an 18-digit number, which the service is asked for instead).
 */
export function readCustomerWords(text: string, dateFormat: DateFormat): CustomerWords | undefined {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return undefined;
  // A transaction or refund number copied in groups ("4066 0296 6802 8308 59") is an id, not words.
  if (/^\d{12,}$/.test(tokens.join(''))) return undefined;
  const out: CustomerWords = { amounts: [], currencies: [], name: [] };
  const days = [dateText(dateFormat), dateText('iso')];
  for (const token of tokens) {
    if (/^\d{12,}$/.test(token)) return undefined; // a transaction or refund number
    if (token.includes('@')) {
      out.email = token.toLowerCase();
      continue;
    }
    const day = days.map((d) => d.parse(token)).find((d) => d !== undefined && d !== '');
    if (day) {
      out.day = day;
      continue;
    }
    const money = currencyOf(token);
    const number = money ? money.rest : token;
    if (money) out.currencies.push(...money.currencies);
    if (number === '') continue;
    if (/^\d{4}$/.test(number) && !money) {
      out.lastFour = number;
      continue;
    }
    if (/^\d[\d.,'’\u00a0\u202f]*$/.test(number)) {
      out.amounts.push(number);
      continue;
    }
    // Letters only (names have hyphens and apostrophes): anything else is an id, not a customer's words.
    if (/^[\p{L}][\p{L}'’.-]*$/u.test(token)) {
      out.name.push(fold(token));
      continue;
    }
    return undefined;
  }
  return out;
}

/** The amount a typed text means in `currency`, or undefined (never guessed: ambiguous is no match). */
export function amountIn(text: string, currency: Currency, locale: string): number | undefined {
  try {
    return parseLocaleAmount(text, currency, locale);
  } catch {
    return undefined;
  }
}

export { fold };
