import { CLOSE_FLOOR_WORDS, UNKNOWN_CLOSE_FLOOR } from '../../../../shared/domain/guardrails';
import { DEFAULT_UNKNOWN_CLOSE, type ProfileGuardrails } from '../../../../shared/domain/profile';
import { CURRENCIES, isKnownCurrency } from '../../../../shared/domain/currencies';
import { formatMinor, MoneyParseError, parseMinor } from '../../../../shared/domain/money';

/** One editable row of per-currency refund limits, as typed (decimal strings). */
export interface LimitDraft {
  currency: string;
  maxSingle: string;
  dailyTotal: string;
}

export function limitsToDrafts(g: ProfileGuardrails | undefined): LimitDraft[] {
  return (g?.limits ?? []).map((l) => ({
    currency: l.currency,
    maxSingle: l.maxSingleMinor === undefined ? '' : formatMinor(l.maxSingleMinor, l.currency),
    dailyTotal: l.dailyTotalMinor === undefined ? '' : formatMinor(l.dailyTotalMinor, l.currency),
  }));
}

/**
 * Parses the rows strictly in each currency's minor units. Returns the guardrails, or field errors keyed
 * `limits.<row>` that say what to fix. Empty rows are dropped; an empty amount means "no limit".
 */
export function draftsToLimits(
  rows: readonly LimitDraft[],
): { guardrails: ProfileGuardrails } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const limits: ProfileGuardrails['limits'] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const currency = row.currency.trim().toUpperCase();
    if (!currency && !row.maxSingle.trim() && !row.dailyTotal.trim()) return;
    const key = `limits.${i}`;
    if (!/^[A-Z]{3}$/.test(currency))
      return void (errors[key] = 'Use a three-letter currency code such as USD.');
    if (!isKnownCurrency(currency))
      return void (errors[key] =
        `Refund Desk does not handle ${currency}; use one of ${CURRENCIES.join(', ')}.`);
    if (seen.has(currency))
      return void (errors[key] = `${currency} already has a row; keep one row per currency.`);
    seen.add(currency);
    const parse = (text: string, what: string): number | undefined => {
      if (!text.trim()) return undefined;
      try {
        const v = parseMinor(text, currency);
        if (v <= 0) throw new MoneyParseError('must be above zero');
        return v;
      } catch (e) {
        errors[key] ??= `The ${what} for ${currency}: ${e instanceof Error ? e.message : 'not an amount'}.`;
        return undefined;
      }
    };
    const maxSingleMinor = parse(row.maxSingle, 'single-refund limit');
    const dailyTotalMinor = parse(row.dailyTotal, 'daily limit');
    if (maxSingleMinor === undefined && dailyTotalMinor === undefined && !errors[key]) {
      errors[key] = `Give ${currency} a single-refund limit, a daily limit, or remove the row.`;
    }
    limits.push({
      currency,
      ...(maxSingleMinor !== undefined ? { maxSingleMinor } : {}),
      ...(dailyTotalMinor !== undefined ? { dailyTotalMinor } : {}),
    });
  });
  return Object.keys(errors).length > 0 ? { errors } : { guardrails: { limits } };
}

/** "USD: 500.00 each, 2000.00 a day · GBP: 300.00 each" — or "None". */
export function describeLimits(g: ProfileGuardrails | undefined): string {
  const parts = (g?.limits ?? []).map((l) => {
    const each = l.maxSingleMinor !== undefined ? `${formatMinor(l.maxSingleMinor, l.currency)} each` : '';
    const day = l.dailyTotalMinor !== undefined ? `${formatMinor(l.dailyTotalMinor, l.currency)} a day` : '';
    return `${l.currency}: ${[each, day].filter(Boolean).join(', ')}`;
  });
  return parts.length > 0 ? parts.join(' · ') : 'None (no extra confirmation by amount)';
}

/** The "close as not sent" policy as typed: how many checks, over at least how many minutes. */
export interface UnknownCloseDraft {
  minChecks: string;
  minMinutes: string;
}

/** The profile's policy, or the defaults a profile without one gets (what main applies then). */
export function unknownCloseToDraft(g: ProfileGuardrails | undefined): UnknownCloseDraft {
  const p = g?.unknownClose ?? DEFAULT_UNKNOWN_CLOSE;
  return { minChecks: String(p.minChecks), minMinutes: String(p.minMinutes) };
}

const MAX_MINUTES = 7 * 24 * 60;

/**
 * Parses the two numbers as whole numbers in the range main accepts (from the floor — 3 checks over 120
 * minutes, shared/domain/guardrails.ts — up to 50 checks and a week), with errors keyed
 * `unknownClose.minChecks` / `unknownClose.minMinutes`. Less than the floor is refused with the reason.
 */
export function draftToUnknownClose(
  d: UnknownCloseDraft,
): { unknownClose: NonNullable<ProfileGuardrails['unknownClose']> } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const whole = (text: string, key: keyof UnknownCloseDraft, max: number, what: string) => {
    const t = text.trim();
    const n = /^\d{1,6}$/.test(t) ? Number(t) : NaN;
    const min = UNKNOWN_CLOSE_FLOOR[key];
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    errors[`unknownClose.${key}`] =
      Number.isInteger(n) && n < min
        ? CLOSE_FLOOR_WORDS[key]
        : `${what}: a whole number from ${min} to ${max}.`;
    return 0;
  };
  const minChecks = whole(d.minChecks, 'minChecks', 50, 'Checks');
  const minMinutes = whole(d.minMinutes, 'minMinutes', MAX_MINUTES, 'Minutes');
  return Object.keys(errors).length > 0 ? { errors } : { unknownClose: { minChecks, minMinutes } };
}

/** Limits and the close policy together: the whole guardrails the form saves, or every field error. */
export function draftsToGuardrails(
  rows: readonly LimitDraft[],
  close: UnknownCloseDraft,
): { guardrails: ProfileGuardrails } | { errors: Record<string, string> } {
  const limits = draftsToLimits(rows);
  const policy = draftToUnknownClose(close);
  if ('errors' in limits || 'errors' in policy)
    return {
      errors: { ...('errors' in limits ? limits.errors : {}), ...('errors' in policy ? policy.errors : {}) },
    };
  return { guardrails: { ...limits.guardrails, unknownClose: policy.unknownClose } };
}
