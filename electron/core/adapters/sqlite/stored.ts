import { type Currency, isKnownCurrency } from '../../../../shared/domain/currencies';
import { type RecordedEnvironment, toRecordedEnvironment } from '../../../../shared/domain/profile';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { Row } from './database';

/**
 * Journal rows (refund and payment intents, audit entries) into today's closed types. Rows written by
 * earlier versions or imported from their files may hold values those types no longer admit; reading
 * them must neither crash a list nor guess:
 * - an environment that was not kept (or is no longer known) reads as `unrecorded`;
 * - a currency this app does not handle makes the row unusable: the reader leaves it out of what it
 *   returns and reports it (`onUnusable`: the log and the health indicator), and the row stays in the
 *   database untouched. Its amount cannot be shown or counted without guessing its minor unit.
 */
export class UnusableRowError extends Error {
  override name = 'UnusableRowError';
}

export function storedEnvironment(v: unknown): RecordedEnvironment {
  return toRecordedEnvironment(v);
}

export function storedCurrency(v: unknown, column = 'currency'): Currency {
  const text = String(v);
  if (!isKnownCurrency(text))
    throw new UnusableRowError(`${column} "${text.slice(0, 12)}" is not a currency this app handles`);
  return text;
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
