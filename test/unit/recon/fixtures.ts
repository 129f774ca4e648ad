import type { Currency } from '../../../shared/domain/currencies';
import type { Transaction } from '../../../shared/domain/transaction';
import { formatMinor } from '../../../shared/domain/money';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { ServiceAnswer, ServiceLookup } from '../../../shared/recon/match';

/** A service payment for tests. */
export function tx(
  transactionNo: string,
  amountMinor: number,
  currency: Currency = 'USD',
  more: Partial<Transaction> = {},
): Transaction {
  return {
    transactionNo,
    amountMinor,
    currency,
    status: 'success',
    transactionType: 'payment',
    refunds: [],
    ...more,
  };
}

let line = 1;
/** A ledger row for tests (line numbers count up). */
export function row(more: Partial<LedgerRow> & { amountMinor: number }): LedgerRow {
  line += 1;
  return { line, currency: 'USD', status: 'paid', ...more };
}

export const FETCHED_AT = '2025-07-01T00:00:00.000Z';

/** A lookup function over a table of keys (answers as if looked up at FETCHED_AT). */
export function lookupFrom(table: Record<string, ServiceLookup>): (key: string) => ServiceAnswer | undefined {
  return (key) => {
    const l = table[key];
    return l && { ...l, source: 'lookup', fetchedAt: FETCHED_AT };
  };
}

export const fmt = (m: number, c: Currency) => `${formatMinor(m, c)} ${c}`;
