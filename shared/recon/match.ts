/**
 * The matching engine (pure): ledger rows + what the service said about each → one item per row with
 * an outcome. Rows are matched by transactionNo when the ledger has one, else by reference.
 *
 * Every item also carries its contribution to "ledger total − service total" per currency (`deltas`),
 * so the per-currency summary is an exact sum over items and each difference can be traced to rows.
 */
import type { Transaction } from '../domain/transaction';
import type { LedgerRow } from './ledger';

export const RECON_OUTCOMES = [
  'matched',
  'amount_mismatch',
  'currency_mismatch',
  'status_mismatch',
  'refunded_not_in_ledger',
  'missing_at_service',
  'duplicate_in_ledger',
  'not_checked',
] as const;
export type ReconOutcome = (typeof RECON_OUTCOMES)[number];

export const OUTCOME_LABELS: Readonly<Record<ReconOutcome, string>> = {
  matched: 'Matched',
  amount_mismatch: 'Amount differs',
  currency_mismatch: 'Currency differs',
  status_mismatch: 'Status differs',
  refunded_not_in_ledger: 'Refunded at service, not in ledger',
  missing_at_service: 'Missing at service',
  duplicate_in_ledger: 'Duplicate in ledger',
  not_checked: 'Not checked (lookup failed)',
};

/** What a lookup of one ledger key returned. */
export type ServiceLookup =
  | { kind: 'found'; transaction: Transaction }
  | { kind: 'not_found' }
  | { kind: 'failed'; code: string; message: string };

/** The service's side of an item, flattened for tables and CSV. */
export interface ServiceView {
  transactionNo: string;
  reference?: string;
  amountMinor: number;
  currency: string;
  status: string;
  /** Σ refunds in success or pending (money that left or is leaving). */
  refundedMinor: number;
  paidAt?: string;
}

export interface CurrencyAmount {
  currency: string;
  amountMinor: number;
}

export interface ReconItem {
  line: number;
  outcome: ReconOutcome;
  matchedBy: 'transactionNo' | 'reference';
  ledger: LedgerRow;
  service?: ServiceView;
  /** Contribution to (ledger total − service total), per currency; zero entries left out. */
  deltas: CurrencyAmount[];
  /** The line of the first row with the same transaction, for duplicates. */
  duplicateOfLine?: number;
  /** One sentence a person can act on. */
  detail: string;
}

/** The key a ledger row is looked up by: `tx:<transactionNo>` or `ref:<reference>`. */
export function lookupKey(row: Pick<LedgerRow, 'transactionNo' | 'reference'>): string {
  if (row.transactionNo) return `tx:${row.transactionNo}`;
  return `ref:${row.reference ?? ''}`;
}

/** The distinct lookups a ledger needs, in first-seen order. */
export function ledgerKeys(
  rows: readonly LedgerRow[],
): Array<{ transactionNo: string } | { reference: string }> {
  const seen = new Set<string>();
  const keys: Array<{ transactionNo: string } | { reference: string }> = [];
  for (const row of rows) {
    const k = lookupKey(row);
    if (seen.has(k)) continue;
    seen.add(k);
    keys.push(row.transactionNo ? { transactionNo: row.transactionNo } : { reference: row.reference ?? '' });
  }
  return keys;
}

function view(tx: Transaction): ServiceView {
  const refundedMinor = tx.refunds
    .filter((r) => r.status === 'success' || r.status === 'pending')
    .reduce((s, r) => s + r.refundAmountMinor, 0);
  const v: ServiceView = {
    transactionNo: tx.transactionNo,
    amountMinor: tx.amountMinor,
    currency: tx.currency,
    status: tx.status,
    refundedMinor,
  };
  if (tx.reference) v.reference = tx.reference;
  if (tx.paidAt) v.paidAt = tx.paidAt;
  return v;
}

/** The ledger counts a row's amount unless it says the order was never paid. */
const ledgerCounts = (row: LedgerRow) => row.status !== 'unpaid';
/** The service's money is what it holds as paid. */
const serviceCounts = (s: ServiceView) => s.status === 'success';

function addDelta(map: Map<string, number>, currency: string, amountMinor: number): void {
  if (amountMinor !== 0) map.set(currency, (map.get(currency) ?? 0) + amountMinor);
}

/** Decides the outcome of a row whose transaction the service has (and no earlier row claimed). */
function classify(
  row: LedgerRow,
  s: ServiceView,
  fmt: (m: number, c: string) => string,
): { outcome: ReconOutcome; detail: string } {
  if (row.currency !== s.currency) {
    return {
      outcome: 'currency_mismatch',
      detail: `Ledger has ${fmt(row.amountMinor, row.currency)}, the service has ${fmt(s.amountMinor, s.currency)}.`,
    };
  }
  if (row.amountMinor !== s.amountMinor) {
    return {
      outcome: 'amount_mismatch',
      detail: `Ledger has ${fmt(row.amountMinor, row.currency)}, the service has ${fmt(s.amountMinor, s.currency)} (difference ${fmt(row.amountMinor - s.amountMinor, row.currency)}).`,
    };
  }
  if (ledgerCounts(row) && !serviceCounts(s)) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger says ${row.statusText ?? 'paid'}, the service says ${s.status}: no money was received for it.`,
    };
  }
  if (row.status === 'unpaid' && serviceCounts(s)) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger says ${row.statusText ?? 'unpaid'}, but the service received the payment.`,
    };
  }
  const ledgerRefund = row.refundedMinor;
  if (
    s.refundedMinor > 0 &&
    (ledgerRefund === undefined ? row.status !== 'refunded' : ledgerRefund < s.refundedMinor)
  ) {
    return {
      outcome: 'refunded_not_in_ledger',
      detail: `The service refunded ${fmt(s.refundedMinor, s.currency)}${ledgerRefund ? `, the ledger records ${fmt(ledgerRefund, row.currency)}` : ', the ledger records no refund'}.`,
    };
  }
  if (
    (row.status === 'refunded' && s.refundedMinor === 0) ||
    (ledgerRefund !== undefined && ledgerRefund > s.refundedMinor)
  ) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger records a refund the service does not have (service refunded ${fmt(s.refundedMinor, s.currency)}).`,
    };
  }
  return { outcome: 'matched', detail: '' };
}

/**
 * Matches every ledger row. `lookup` returns what the service said for a row's key (see lookupKey);
 * undefined is treated as a failed lookup. `fmt` formats amounts inside detail sentences.
 */
export function matchLedger(
  rows: readonly LedgerRow[],
  lookup: (key: string) => ServiceLookup | undefined,
  fmt: (amountMinor: number, currency: string) => string,
): ReconItem[] {
  const firstLineByKey = new Map<string, number>();
  const firstLineByServiceTx = new Map<string, number>();
  const items: ReconItem[] = [];
  for (const row of rows) {
    const key = lookupKey(row);
    const matchedBy = row.transactionNo ? 'transactionNo' : 'reference';
    const deltas = new Map<string, number>();
    if (ledgerCounts(row)) addDelta(deltas, row.currency, row.amountMinor);
    const base = { line: row.line, matchedBy, ledger: row } as const;
    const finish = (item: Omit<ReconItem, 'deltas'>) =>
      items.push({
        ...item,
        deltas: [...deltas]
          .filter(([, m]) => m !== 0)
          .map(([currency, amountMinor]) => ({ currency, amountMinor })),
      });

    const earlier = firstLineByKey.get(key);
    const result = lookup(key);
    const service = result?.kind === 'found' ? view(result.transaction) : undefined;
    const earlierTx = service ? firstLineByServiceTx.get(service.transactionNo) : undefined;
    if (earlier !== undefined || earlierTx !== undefined) {
      // The first row already accounts for the service's money; this one only adds ledger money.
      const first = earlier ?? earlierTx ?? 0;
      finish({
        ...base,
        outcome: 'duplicate_in_ledger',
        duplicateOfLine: first,
        ...(service ? { service } : {}),
        detail: `Same transaction as line ${first}: the ledger counts it twice.`,
      });
      continue;
    }
    firstLineByKey.set(key, row.line);
    if (!result || result.kind === 'failed') {
      finish({
        ...base,
        outcome: 'not_checked',
        detail: result
          ? `The lookup failed (${result.code}): ${result.message} Run again to retry.`
          : 'Not looked up yet.',
      });
      continue;
    }
    if (result.kind === 'not_found' || !service) {
      finish({
        ...base,
        outcome: 'missing_at_service',
        detail: `The service has no payment with this ${matchedBy === 'transactionNo' ? 'transaction number' : 'reference'}.`,
      });
      continue;
    }
    firstLineByServiceTx.set(service.transactionNo, row.line);
    if (serviceCounts(service)) addDelta(deltas, service.currency, -service.amountMinor);
    finish({ ...base, service, ...classify(row, service, fmt) });
  }
  return items;
}
