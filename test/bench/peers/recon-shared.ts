/**
 * What the three reconcilers of the bench share: the files they read, the answer each prints (outcome
 * counts and per-currency totals, so the bench can refuse a ratio between reconcilers that disagree),
 * and the ledger's status words the peers normalise with — the app's own lists, checked against its
 * normaliser every run so the peers can never quietly drift from it.
 */
import { normaliseLedgerStatus } from '../../../shared/recon/ledger';
import type { ReconSummary } from '../../../shared/recon/summary';

export interface ReconFiles {
  ledger: string;
  payments: string;
  refunds: string;
  startMs: number;
  endMs: number;
  toleranceDays: number;
}

export interface PeerAnswer {
  ms: number;
  /** CPU time (user + system, all threads) of the timed part. */
  cpuMs: number;
  peakMb: number;
  counts: Record<string, number>;
  totals: Record<string, { ledger: number; service: number; refunds: number }>;
}

/** The ledger's status words (lower case, letters only) → the app's status, as shared/recon/ledger.ts. */
export const PEER_STATUS_WORDS: Readonly<Record<string, string>> = Object.fromEntries([
  ...[
    'paid',
    'success',
    'succeeded',
    'successful',
    'settled',
    'completed',
    'complete',
    'captured',
    'done',
    'ok',
    'closedpaid',
  ].map((w) => [w, 'paid']),
  ...['refunded', 'partiallyrefunded', 'partialrefund', 'refund', 'fullyrefunded'].map((w) => [
    w,
    'refunded',
  ]),
  ...[
    'unpaid',
    'cancelled',
    'canceled',
    'void',
    'voided',
    'failed',
    'declined',
    'open',
    'pending',
    'expired',
  ].map((w) => [w, 'unpaid']),
]);

/** Throws when the peers' status words no longer say what the app's normaliser says. */
export function checkStatusWords(): void {
  for (const [word, status] of Object.entries(PEER_STATUS_WORDS))
    if (normaliseLedgerStatus(word) !== status)
      throw new Error(`the bench's status word "${word}" is no longer "${status}" in the app: update it`);
}

/** Refund Desk's summary in the peers' shape. */
export function answerOf(summary: ReconSummary): Omit<PeerAnswer, 'ms' | 'cpuMs' | 'peakMb'> {
  const counts: Record<string, number> = {};
  for (const [o, n] of Object.entries(summary.counts)) if (n > 0) counts[o] = n;
  const totals: PeerAnswer['totals'] = {};
  for (const c of summary.currencies)
    if (c.currency)
      totals[c.currency] = {
        ledger: c.ledgerTotalMinor,
        service: c.serviceTotalMinor,
        refunds: c.serviceRefundsMinor,
      };
  return { counts, totals };
}

const canonical = (a: Omit<PeerAnswer, 'ms' | 'cpuMs' | 'peakMb'>) =>
  JSON.stringify({
    counts: Object.fromEntries(Object.entries(a.counts).sort(([x], [y]) => (x < y ? -1 : 1))),
    totals: Object.fromEntries(
      Object.entries(a.totals)
        .filter(([, t]) => t.ledger !== 0 || t.service !== 0 || t.refunds !== 0)
        .sort(([x], [y]) => (x < y ? -1 : 1)),
    ),
  });

/** Undefined when both answers agree; else both, for the error. */
export function disagreement(
  a: Omit<PeerAnswer, 'ms' | 'cpuMs' | 'peakMb'>,
  b: Omit<PeerAnswer, 'ms' | 'cpuMs' | 'peakMb'>,
): string | undefined {
  const x = canonical(a);
  const y = canonical(b);
  return x === y ? undefined : `${x}\n  vs\n${y}`;
}
