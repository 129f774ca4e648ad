import type { Transaction } from '../../../shared/domain/transaction';
import { formatMinor } from '../../../shared/domain/money';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { ServiceLookup } from '../../../shared/recon/match';

/** A service payment for tests. */
export function tx(
  transactionNo: string,
  amountMinor: number,
  currency = 'USD',
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

/** A lookup function over a table of keys. */
export function lookupFrom(table: Record<string, ServiceLookup>): (key: string) => ServiceLookup | undefined {
  return (key) => table[key];
}

export const fmt = (m: number, c: string) => `${formatMinor(m, c)} ${c}`;
