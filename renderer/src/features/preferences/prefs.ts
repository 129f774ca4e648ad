import { z } from 'zod';
import { ZONE_CHOICES } from '../../../../shared/domain/zones';

/** How this person reads the app: theme, language/number format, time zone and date format. */
export interface DisplayPrefs {
  theme: 'system' | 'light' | 'dark';
  /** A BCP 47 locale for numbers, amounts and "locale" dates; `system` follows the computer. */
  locale: string;
  zone: (typeof ZONE_CHOICES)[number];
  dateFormat: DateFormat;
}

export const DATE_FORMATS = ['iso', 'dmy', 'mdy', 'locale'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  iso: '2025-03-01 14:05 (year-month-day)',
  dmy: '01/03/2025 14:05 (day/month/year)',
  mdy: '03/01/2025 14:05 (month/day/year)',
  locale: 'As the language above writes them',
};

/** Locales offered besides the computer's own (the service's markets and the usual desks). */
export const LOCALES: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'system', label: 'As this computer (system)' },
  { id: 'en-US', label: 'English (United States) — 1,234.56' },
  { id: 'en-GB', label: 'English (United Kingdom) — 1,234.56' },
  { id: 'de-DE', label: 'Deutsch — 1.234,56' },
  { id: 'fr-FR', label: 'Français — 1 234,56' },
  { id: 'es-ES', label: 'Español — 1234,56' },
  { id: 'zh-CN', label: '中文（中国）— 1,234.56' },
  { id: 'zh-HK', label: '中文（香港）— 1,234.56' },
  { id: 'ja-JP', label: '日本語 — 1,234.56' },
  { id: 'ko-KR', label: '한국어 — 1,234.56' },
  { id: 'th-TH', label: 'ไทย — 1,234.56' },
  { id: 'id-ID', label: 'Bahasa Indonesia — 1.234,56' },
  { id: 'ms-MY', label: 'Bahasa Melayu — 1,234.56' },
];

export const DEFAULT_PREFS: DisplayPrefs = {
  theme: 'system',
  locale: 'system',
  zone: 'local',
  dateFormat: 'iso',
};

const schema = z
  .object({
    theme: z.enum(['system', 'light', 'dark']),
    locale: z.string().max(35),
    zone: z.enum(ZONE_CHOICES),
    dateFormat: z.enum(DATE_FORMATS),
  })
  .partial();

/** Where the choice is kept: this computer's browser storage (it is about the person, not a profile). */
export const PREFS_KEY = 'refund-desk.display';

/** Reads stored preferences leniently: a damaged or older value falls back field by field. */
export function parsePrefs(value: unknown): DisplayPrefs {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return DEFAULT_PREFS;
  const p = { ...DEFAULT_PREFS, ...parsed.data };
  return LOCALES.some((l) => l.id === p.locale) ? p : { ...p, locale: 'system' };
}

export function loadPrefs(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): DisplayPrefs {
  try {
    const raw = storage?.getItem(PREFS_KEY);
    return raw ? parsePrefs(JSON.parse(raw)) : DEFAULT_PREFS;
  } catch {
    return DEFAULT_PREFS;
  }
}

export function savePrefs(
  p: DisplayPrefs,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
) {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(p));
  } catch {
    // Storage full or unavailable: the choice lasts for this session only.
  }
}

/** The theme actually shown: `system` follows the OS (prefers-color-scheme). */
export function resolveTheme(theme: DisplayPrefs['theme'], systemDark: boolean): 'light' | 'dark' {
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}
