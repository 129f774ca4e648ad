/**
 * Per-currency summary of a reconciliation, all in integer minor units:
 *   difference  = ledger total − service total
 *   explained   = Σ deltas of rows with an identified exception (amount, currency, status, date,
 *                 missing on either side, duplicate, refund)
 *   unexplained = difference − explained (rows not checked, or anything the engine cannot attribute)
 * Ledger total counts rows the ledger does not call unpaid; service total counts payments the
 * service holds as `success`, once each (matched to a ledger row, or in the period and not in the
 * ledger); refunds are the service's success + pending refunds of those payments, plus refunds in the
 * period the ledger lacks. Unreadable rows have no amount to count: they are counted as rows only.
 */
import type { Currency } from '../domain/currencies';
import { addMinor } from '../domain/money';
import type { LedgerRow } from './ledger';
import { itemCurrency, RECON_OUTCOMES, type ReconItem, type ReconOutcome, type ServiceFacts } from './match';

export interface CurrencySummary {
  /** '' gathers unreadable rows whose currency cell held none this app handles (rows only, no amounts). */
  currency: Currency | '';
  /** Ledger data rows in this currency (read or unreadable). */
  rows: number;
  counts: Record<ReconOutcome, number>;
  ledgerTotalMinor: number;
  serviceTotalMinor: number;
  serviceRefundsMinor: number;
  differenceMinor: number;
  explainedMinor: number;
  unexplainedMinor: number;
  /** The explained part of the difference by outcome (non-zero entries only): where the money is. */
  explainedByOutcome: Partial<Record<ReconOutcome, number>>;
}

export interface ReconSummary {
  currencies: CurrencySummary[];
  counts: Record<ReconOutcome, number>;
  /** Ledger data rows: read + unusable. */
  rows: number;
  read: number;
  unusable: number;
  /** Items from the service side (payments and refunds the ledger lacks). */
  serviceOnly: number;
  exceptions: number;
}

const EXPLAINING = new Set<ReconOutcome>(
  RECON_OUTCOMES.filter((o) => o !== 'matched' && o !== 'not_checked' && o !== 'unreadable'),
);
/** Items whose service payment is part of the service total (once, in the period or matched). */
const COUNTS_SERVICE = (o: ReconOutcome) => o !== 'duplicate_in_ledger' && o !== 'refund_missing_in_ledger';

export function emptyCounts(): Record<ReconOutcome, number> {
  return Object.fromEntries(RECON_OUTCOMES.map((o) => [o, 0])) as Record<ReconOutcome, number>;
}

/** Builds the summary from matched items. Currencies are sorted by code. */
export function summarise(items: readonly ReconItem[]): ReconSummary {
  const tally = summaryTally();
  for (const item of items) tally.add(item);
  return tally.result();
}

/**
 * The summary built item by item, as the items are made (./report.ts): each item is added while it is
 * still in the processor's cache, not read again from memory in a second walk over 100k items. Adding
 * the report's items in its order gives summarise(items); unreadable rows may come in any order, as
 * they add to counts only.
 */
export interface SummaryTally {
  add(item: ReconItem): void;
  /**
   * The same as add() of the matched item of `row` whose service side is `service` (matchLedger's
   * onUsual: an item not made). A matched item explains nothing, so only its totals are added.
   */
  addMatched(row: LedgerRow, service: ServiceFacts): void;
  result(): ReconSummary;
}

export function summaryTally(): SummaryTally {
  const by = new Map<string, CurrencySummary>();
  const get = (currency: Currency | ''): CurrencySummary => {
    let s = by.get(currency);
    if (!s) {
      s = {
        currency,
        rows: 0,
        counts: emptyCounts(),
        ledgerTotalMinor: 0,
        serviceTotalMinor: 0,
        serviceRefundsMinor: 0,
        differenceMinor: 0,
        explainedMinor: 0,
        unexplainedMinor: 0,
        explainedByOutcome: {},
      };
      by.set(currency, s);
    }
    return s;
  };
  // The currency asked last and its summary: nearly every item of a report is in the one before's
  // currency, and a million map probes cost more than the adding itself.
  let lastCurrency: string | undefined;
  let last: CurrencySummary | undefined;
  const of = (currency: Currency | ''): CurrencySummary => {
    if (currency === lastCurrency && last) return last;
    lastCurrency = currency;
    last = get(currency);
    return last;
  };
  const counts = emptyCounts();
  let total = 0;
  let read = 0;
  let serviceOnly = 0;
  const add = (item: ReconItem): void => {
    const outcome = item.outcome;
    total += 1;
    counts[outcome] += 1;
    const own = of(itemCurrency(item));
    own.counts[outcome] += 1;
    if (item.line !== undefined) own.rows += 1;
    else serviceOnly += 1;
    const ledger = item.ledger;
    if (ledger) {
      read += 1;
      if (ledger.status !== 'unpaid')
        own.ledgerTotalMinor = addMinor(own.ledgerTotalMinor, ledger.amountMinor);
    }
    const s = item.service;
    // Duplicates point at a payment their first row already counted; a refund the ledger lacks belongs
    // to a payment made before the period.
    if (s && COUNTS_SERVICE(outcome)) {
      const serviceSide = of(s.currency);
      if (s.status === 'success')
        serviceSide.serviceTotalMinor = addMinor(serviceSide.serviceTotalMinor, s.amountMinor);
      if (s.refundedMinor !== 0)
        serviceSide.serviceRefundsMinor = addMinor(serviceSide.serviceRefundsMinor, s.refundedMinor);
    }
    if (item.refund) {
      const refundSide = of(item.refund.currency);
      refundSide.serviceRefundsMinor = addMinor(refundSide.serviceRefundsMinor, item.refund.amountMinor);
    }
    // Matched items explain nothing (the usual item: no set probed for it).
    if (outcome !== 'matched' && EXPLAINING.has(outcome)) {
      for (const d of item.deltas) {
        const c = of(d.currency);
        c.explainedMinor = addMinor(c.explainedMinor, d.amountMinor);
        c.explainedByOutcome[outcome] = addMinor(c.explainedByOutcome[outcome] ?? 0, d.amountMinor);
      }
    }
  };
  const addMatched = (row: LedgerRow, s: ServiceFacts): void => {
    total += 1;
    counts.matched += 1;
    const own = of(row.currency);
    own.counts.matched += 1;
    own.rows += 1;
    read += 1;
    if (row.status !== 'unpaid') own.ledgerTotalMinor = addMinor(own.ledgerTotalMinor, row.amountMinor);
    const serviceSide = of(s.currency);
    if (s.status === 'success')
      serviceSide.serviceTotalMinor = addMinor(serviceSide.serviceTotalMinor, s.amountMinor);
    if (s.refundedMinor !== 0)
      serviceSide.serviceRefundsMinor = addMinor(serviceSide.serviceRefundsMinor, s.refundedMinor);
  };
  const result = () => finish(by, counts, total, read, serviceOnly);
  return { add, addMatched, result };
}

function finish(
  by: Map<string, CurrencySummary>,
  counts: Record<ReconOutcome, number>,
  total: number,
  read: number,
  serviceOnly: number,
): ReconSummary {
  for (const s of by.values()) {
    s.differenceMinor = s.ledgerTotalMinor - s.serviceTotalMinor;
    s.unexplainedMinor = s.differenceMinor - s.explainedMinor;
    for (const [o, m] of Object.entries(s.explainedByOutcome))
      if (m === 0) delete s.explainedByOutcome[o as ReconOutcome];
  }
  // Sorted by code; rows with no usable currency ('') last.
  const currencies = [...by.values()].sort((a, b) =>
    !a.currency ? 1 : !b.currency ? -1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0,
  );
  return {
    currencies,
    counts,
    rows: total - serviceOnly,
    read,
    unusable: counts.unreadable,
    serviceOnly,
    exceptions: total - counts.matched,
  };
}
