import { currencyExponent, isKnownCurrency } from '../../../../shared/domain/currencies';
import { displayMoney, formatMinor } from '../../../../shared/domain/money';
import { offsetLabel, wallClock, type Zone, zoneFor } from '../../../../shared/domain/zones';
import type { DateFormat, DisplayPrefs } from './prefs';

/**
 * Every number, amount and time the screens show goes through one of these, so a person's locale,
 * time zone and date format apply everywhere at once (and exports use the same zone).
 */
export interface Formatters {
  locale: string;
  zone: Zone;
  dateFormat: DateFormat;
  /** "2025-03-01 14:05" in the chosen zone and format; '' when absent or unreadable. */
  dateTime(iso: string | undefined): string;
  /** The same with seconds (detail panels). */
  dateTimeSeconds(iso: string | undefined): string;
  /**
   * A moment soon: "06:49" when it falls on today's date in the chosen zone, else the full date-time
   * ("possible after 06:49").
   */
  soon(iso: string, nowMs?: number): string;
  /** Money with its currency sign or code ("$1,234.50", "IDR 6,798,000"). */
  money(amountMinor: number, currency: string): string;
  /** The number only, grouped, with the currency's decimals ("1,234.50", "6,798,000"). */
  amount(amountMinor: number, currency: string): string;
  /**
   * The number and its ISO code ("1,234.50 USD", "1.234,50 USD" in German): where the code must be
   * unambiguous (refunds, payments, audit; "$" is also CAD's and AUD's sign).
   */
  amountCode(amountMinor: number, currency: string): string;
  /** A count ("12,073"). */
  count(n: number): string;
  /** The zone's name for headers: "UTC+8", "UTC", "Europe/Berlin". */
  zoneLabel: string;
  /** The zone in a sentence: "UTC+8 (the payment service's time)", "your computer's time (Europe/Berlin, UTC+1)". */
  zoneSentence: string;
  /** Excel's number format for date-times in exports. */
  excelDateFormat: string;
}

const EXCEL_FORMATS: Record<DateFormat, string> = {
  iso: 'yyyy-mm-dd hh:mm:ss',
  dmy: 'dd/mm/yyyy hh:mm:ss',
  mdy: 'mm/dd/yyyy hh:mm:ss',
  locale: 'm/d/yy h:mm',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The locale actually used: `system` → the runtime's (navigator's) locale. */
export function resolveLocale(locale: string): string {
  if (locale !== 'system') return locale;
  return Intl.NumberFormat().resolvedOptions().locale || 'en-US';
}

/** Builds the formatters for a set of preferences (memoise per preferences: Intl objects are cached inside). */
export function createFormatters(prefs: DisplayPrefs, now: Date = new Date()): Formatters {
  const locale = resolveLocale(prefs.locale);
  const zone = zoneFor(prefs.zone);
  const numbers = new Map<number, Intl.NumberFormat>();
  const numberFormat = (decimals: number) => {
    let f = numbers.get(decimals);
    if (!f) {
      f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
      numbers.set(decimals, f);
    }
    return f;
  };
  const amount = (amountMinor: number, currency: string): string => {
    if (!isKnownCurrency(currency)) return String(amountMinor);
    try {
      // Intl takes the exact decimal string: no float ever touches the amount.
      return numberFormat(currencyExponent(currency)).format(
        formatMinor(amountMinor, currency) as unknown as number,
      );
    } catch {
      return String(amountMinor);
    }
  };
  const localeShort = new Intl.DateTimeFormat(locale, {
    timeZone: zone.iana,
    dateStyle: 'short',
    timeStyle: 'short',
  });
  const localeLong = new Intl.DateTimeFormat(locale, {
    timeZone: zone.iana,
    dateStyle: 'short',
    timeStyle: 'medium',
  });
  const render = (iso: string | undefined, seconds: boolean): string => {
    if (!iso) return '';
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return '';
    if (prefs.dateFormat === 'locale') return (seconds ? localeLong : localeShort).format(ms);
    const w = wallClock(ms, zone.iana);
    const time = `${pad(w.hour)}:${pad(w.minute)}${seconds ? `:${pad(w.second)}` : ''}`;
    const date =
      prefs.dateFormat === 'iso'
        ? `${w.year}-${pad(w.month)}-${pad(w.day)}`
        : prefs.dateFormat === 'dmy'
          ? `${pad(w.day)}/${pad(w.month)}/${w.year}`
          : `${pad(w.month)}/${pad(w.day)}/${w.year}`;
    return `${date} ${time}`;
  };
  const offsetNow = offsetLabel(wallClock(now.getTime(), zone.iana).offsetMinutes);
  return {
    locale,
    zone,
    dateFormat: prefs.dateFormat,
    dateTime: (iso) => render(iso, false),
    dateTimeSeconds: (iso) => render(iso, true),
    soon: (iso, nowMs = Date.now()) => {
      const ms = Date.parse(iso);
      if (Number.isNaN(ms)) return '';
      const w = wallClock(ms, zone.iana);
      const n = wallClock(nowMs, zone.iana);
      const sameDay = w.year === n.year && w.month === n.month && w.day === n.day;
      if (!sameDay) return render(iso, false);
      return prefs.dateFormat === 'locale'
        ? new Intl.DateTimeFormat(locale, { timeZone: zone.iana, timeStyle: 'short' }).format(ms)
        : `${pad(w.hour)}:${pad(w.minute)}`;
    },
    // Views pass codes from many places (filters, totals, summaries); one outside the closed set is shown
    // as its code and minor units, never with a guessed number of decimals.
    money: (amountMinor, currency) => {
      if (!isKnownCurrency(currency)) return `${currency} ${amountMinor}`;
      try {
        return displayMoney(amountMinor, currency, locale);
      } catch {
        return `${currency} ${amountMinor}`;
      }
    },
    amount,
    amountCode: (amountMinor, currency) =>
      isKnownCurrency(currency)
        ? `${amount(amountMinor, currency)} ${currency}`
        : `${currency} ${amountMinor}`,
    count: (n) => numberFormat(0).format(n),
    zoneLabel: zone.label,
    zoneSentence:
      zone.choice === 'service'
        ? 'UTC+8 (the payment service’s time)'
        : zone.choice === 'utc'
          ? 'UTC'
          : zone.iana === offsetNow || zone.iana === 'UTC' || zone.iana === 'Etc/UTC'
            ? `your computer’s time (${offsetNow})`
            : `your computer’s time (${zone.iana}, ${offsetNow})`,
    excelDateFormat: EXCEL_FORMATS[prefs.dateFormat],
  };
}
