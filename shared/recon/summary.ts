/**
 * Per-currency summary of a reconciliation, all in integer minor units:
 *   difference  = ledger total − service total
 *   explained   = Σ deltas of rows with an identified exception (amount, currency, status, missing,
 *                 duplicate, refund)
 *   unexplained = difference − explained (rows not checked, or anything the engine cannot attribute)
 * Ledger total counts rows the ledger does not call unpaid; service total counts payments the
 * service holds as `success`, once each; refunds are the service's success + pending refunds.
 */
import { sumMinor } from '../domain/money';
import { RECON_OUTCOMES, type ReconItem, type ReconOutcome } from './match';

export interface CurrencySummary {
  currency: string;
  /** Ledger rows in this currency. */
  rows: number;
  counts: Record<ReconOutcome, number>;
  ledgerTotalMinor: number;
  serviceTotalMinor: number;
  serviceRefundsMinor: number;
  differenceMinor: number;
  explainedMinor: number;
  unexplainedMinor: number;
}

export interface ReconSummary {
  currencies: CurrencySummary[];
  counts: Record<ReconOutcome, number>;
  rows: number;
  exceptions: number;
}

/** An exception is any outcome other than matched (not_checked included: it needs a re-run). */
export const isException = (o: ReconOutcome) => o !== 'matched';
const EXPLAINING = new Set<ReconOutcome>(
  RECON_OUTCOMES.filter((o) => o !== 'matched' && o !== 'not_checked'),
);

export function emptyCounts(): Record<ReconOutcome, number> {
  return Object.fromEntries(RECON_OUTCOMES.map((o) => [o, 0])) as Record<ReconOutcome, number>;
}

/** Builds the summary from matched items. Currencies are sorted by code. */
export function summarise(items: readonly ReconItem[]): ReconSummary {
  const by = new Map<string, CurrencySummary>();
  const get = (currency: string): CurrencySummary => {
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
      };
      by.set(currency, s);
    }
    return s;
  };
  const counts = emptyCounts();
  for (const item of items) {
    counts[item.outcome] += 1;
    const ledgerSide = get(item.ledger.currency);
    ledgerSide.rows += 1;
    ledgerSide.counts[item.outcome] += 1;
    if (item.ledger.status !== 'unpaid')
      ledgerSide.ledgerTotalMinor = sumMinor([ledgerSide.ledgerTotalMinor, item.ledger.amountMinor]);
    const s = item.service;
    // Duplicates point at a payment their first row already counted.
    if (s && item.outcome !== 'duplicate_in_ledger') {
      const serviceSide = get(s.currency);
      if (s.status === 'success')
        serviceSide.serviceTotalMinor = sumMinor([serviceSide.serviceTotalMinor, s.amountMinor]);
      serviceSide.serviceRefundsMinor = sumMinor([serviceSide.serviceRefundsMinor, s.refundedMinor]);
    }
    if (EXPLAINING.has(item.outcome)) {
      for (const d of item.deltas) {
        const c = get(d.currency);
        c.explainedMinor = sumMinor([c.explainedMinor, d.amountMinor]);
      }
    }
  }
  for (const s of by.values()) {
    s.differenceMinor = s.ledgerTotalMinor - s.serviceTotalMinor;
    s.unexplainedMinor = s.differenceMinor - s.explainedMinor;
  }
  const currencies = [...by.values()].sort((a, b) =>
    a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0,
  );
  return { currencies, counts, rows: items.length, exceptions: items.length - counts.matched };
}
