import type { DateFormat } from '../../features/preferences/prefs';

/** How a calendar day is typed and shown in a date format: the same order the rest of the app writes. */
export interface DateText {
  placeholder: string;
  /** "2026-03-01" → the text shown ("01/03/2026" for day/month/year). */
  show(iso: string): string;
  /** The typed text → "YYYY-MM-DD", '' for empty, undefined when it is not a day of the calendar. */
  parse(text: string): string | undefined;
}

const pad = (n: string) => n.padStart(2, '0');

function validDay(y: string, m: string, d: string): string | undefined {
  const iso = `${y}-${pad(m)}-${pad(d)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/**
 * The date fields' text in the person's date format (Settings → Date format): year-month-day by default
 * (and for "as the language writes them", whose order varies too much to type reliably), else day/month
 * or month/day with a four-digit year. Native date pickers would show the browser's own order
 * (mm/dd/yyyy) beside ISO dates everywhere else.
 */
export function dateText(format: DateFormat): DateText {
  if (format === 'dmy' || format === 'mdy') {
    const dayFirst = format === 'dmy';
    return {
      placeholder: dayFirst ? 'dd/mm/yyyy' : 'mm/dd/yyyy',
      show: (iso) => {
        const [y, m, d] = iso.split('-');
        return y && m && d ? (dayFirst ? `${d}/${m}/${y}` : `${m}/${d}/${y}`) : '';
      },
      parse: (text) => {
        const t = text.trim();
        if (t === '') return '';
        const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
        if (!m) return undefined;
        const [, a = '', b = '', y = ''] = m;
        return dayFirst ? validDay(y, b, a) : validDay(y, a, b);
      },
    };
  }
  return {
    placeholder: 'yyyy-mm-dd',
    show: (iso) => iso,
    parse: (text) => {
      const t = text.trim();
      if (t === '') return '';
      const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
      return m ? validDay(m[1] ?? '', m[2] ?? '', m[3] ?? '') : undefined;
    },
  };
}
