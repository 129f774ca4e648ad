import { type Currency, isKnownCurrency } from '../../../../shared/domain/currencies';
import { type RecordedEnvironment, toRecordedEnvironment } from '../../../../shared/domain/profile';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { Row } from './database';

/**
 * Journal rows (refund and payment intents, audit entries) into today's closed types. Rows written by
 * earlier versions or imported from their files may hold values those types no longer admit; reading
 * them must neither crash a list nor guess:
 * - an environment that was not kept (or is no longer known) reads as `unrecorded`;
 * - a currency code is read without regard to case or surrounding spaces (`usd` is USD: no guess);
 * - an amount's currency this app does not handle makes the row unusable: the reader leaves it out of
 *   what it returns and reports it (`onUnusable`: the log and the health indicator), and the row stays in
 *   the database untouched. Its amount cannot be shown or counted without guessing its minor unit. Where
 *   such a row may decide money (a refund of the same payment), the store refuses instead of leaving it
 *   out (./refund-store.ts);
 * - a settle currency is no amount's unit: one this app does not handle (or none, '') is left out of
 *   the record (`storedSettleCurrency`), and the record is still read, shown and counted.
 */
export class UnusableRowError extends Error {
  override name = 'UnusableRowError';
}

export function storedEnvironment(v: unknown): RecordedEnvironment {
  return toRecordedEnvironment(v);
}

/** A stored code in the closed type, if it names a currency this app handles (in any case). */
function knownCode(v: unknown): Currency | undefined {
  const code = String(v ?? '')
    .trim()
    .toUpperCase();
  return isKnownCurrency(code) ? code : undefined;
}

export function storedCurrency(v: unknown, column = 'currency'): Currency {
  const code = knownCode(v);
  if (code === undefined)
    throw new UnusableRowError(`${column} "${String(v).slice(0, 12)}" is not a currency this app handles`);
  return code;
}

/** A settle currency, or undefined when the stored one is empty or not a currency this app handles. */
export function storedSettleCurrency(v: unknown): Currency | undefined {
  return knownCode(v);
}

/**
 * Whether every amount of a stored payment is in a currency this app handles. Reconciliation windows and
 * cached answers stored by earlier versions that fail this are not used: the payment is asked for again,
 * and the service's answer is then refused with the reason.
 */
export function inKnownCurrencies(t: Transaction): boolean {
  const known = (c: string | undefined) => c === undefined || isKnownCurrency(c);
  return (
    known(t.currency) &&
    known(t.settleCurrency) &&
    t.refunds.every((r) => known(r.currency) && known(r.settleCurrency))
  );
}

export type OnUnusable = (table: string, id: string, reason: string) => void;

/** Maps rows, leaving out (and reporting) those that cannot be used; other errors are not caught here. */
export function readUsable<T>(
  table: string,
  rows: readonly Row[],
  read: (r: Row) => T,
  onUnusable: OnUnusable | undefined,
  idOf: (r: Row) => string = (r) => String(r['id']),
): T[] {
  const out: T[] = [];
  for (const r of rows) {
    try {
      out.push(read(r));
    } catch (e) {
      if (!(e instanceof UnusableRowError)) throw e;
      onUnusable?.(table, idOf(r), e.message);
    }
  }
  return out;
}
