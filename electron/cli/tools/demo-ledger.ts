/**
 * Builds resources/demo-ledger.csv: the Demo merchant's books for the Demo sandbox's seeded data, with a
 * few deliberate discrepancies of every kind so "Try with demo ledger" shows each outcome.
 *
 * Only transaction numbers, amounts, currencies and statuses are taken from the seed: those do not
 * depend on the day the sandbox was first started (only times and the INV-yyyyMMdd references do), so
 * the committed file matches any Demo installation. Dates are written relative to a fixed anchor and are
 * informational only. Pure: the test regenerates it and compares with the committed file.
 */
import { writeCsv, type CsvColumn } from '../../../shared/csv/writer';
import { formatMinor } from '../../../shared/domain/money';
import { emptyCounts } from '../../../shared/recon/summary';
import type { ReconOutcome } from '../../../shared/recon/match';
import { DEMO_MERCHANT, generateSeed, type PaymentRecord } from '../../main/sandbox';

/** The Demo profile's sandbox: seed from compose.ts (DEMO_SEED), the sandbox's default 2000 payments. */
export const DEMO_LEDGER_SEED = 20_240_601;
export const DEMO_LEDGER_COUNT = 2000;
/** Fixed anchor for the informational dates (2025-06-30 UTC+8). */
const ANCHOR_MS = Date.UTC(2025, 5, 30, 16);

interface LedgerLine {
  date: string;
  order: string;
  transactionNo: string;
  amount: string;
  currency: string;
  status: string;
}

const COLUMNS: CsvColumn<LedgerLine>[] = [
  { header: 'Date', kind: 'text', value: (l) => l.date },
  { header: 'Order ID', kind: 'text', value: (l) => l.order },
  { header: 'Transaction No', kind: 'id', value: (l) => l.transactionNo },
  { header: 'Amount', kind: 'text', value: (l) => l.amount },
  { header: 'Currency', kind: 'text', value: (l) => l.currency },
  { header: 'Status', kind: 'text', value: (l) => l.status },
];

export interface DemoLedger {
  csv: string;
  /** Outcome counts the ledger produces against a fresh Demo sandbox. */
  expected: Record<ReconOutcome, number>;
  /** Rows the importer must reject (with their line numbers). */
  badLines: number[];
  rows: number;
}

const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Spreadsheet-style amount: large values with thousands separators (the importer accepts both). */
function amountText(minor: number, currency: string): string {
  const plain = formatMinor(minor, currency);
  const [whole = '', frac] = plain.split('.');
  if (whole.length <= 4) return plain;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Generates the demo ledger (deterministic). */
export function buildDemoLedger(): DemoLedger {
  const data = generateSeed(DEMO_LEDGER_SEED, DEMO_LEDGER_COUNT, ANCHOR_MS);
  const refundsById = new Map(data.refunds.map((r) => [r.refundTransactionNo, r]));
  const ours = data.payments.filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo);
  const settledRefunds = (p: PaymentRecord) =>
    p.refunds.map((id) => refundsById.get(id)).filter((r) => r !== undefined);
  // Stable kinds only: pending refunds may still settle, init/pending payments may be closed by the sweeper.
  const plain = ours.filter((p) => p.status === 'success' && p.refunds.length === 0);
  const refunded = ours.filter(
    (p) =>
      p.status === 'success' &&
      p.refunds.length > 0 &&
      settledRefunds(p).every((r) => r.status === 'success'),
  );
  const unpaid = ours.filter((p) => p.status === 'closed' || p.status === 'failed');
  const expected = emptyCounts();
  const lines: LedgerLine[] = [];
  const add = (p: PaymentRecord, outcome: ReconOutcome, over: Partial<LedgerLine> = {}) => {
    expected[outcome] += 1;
    lines.push({
      date: day(p.createdAt),
      order: `SO-${p.transactionNo.slice(-6)}`,
      transactionNo: p.transactionNo,
      amount: amountText(p.amountMinor, p.currency),
      currency: p.currency,
      status: 'Paid',
      ...over,
    });
  };
  const take = <T>(list: T[], n: number): T[] => list.splice(0, n);

  for (const p of take(plain, 180)) add(p, 'matched');
  for (const p of take(refunded, 4)) add(p, 'matched', { status: 'Refunded' });
  for (const p of take(refunded, 3)) add(p, 'refunded_not_in_ledger');
  for (const [i, p] of take(plain, 3).entries())
    add(p, 'amount_mismatch', { amount: amountText(p.amountMinor + [100, -1, 2500][i]!, p.currency) });
  for (const p of take(
    plain.filter((x) => x.currency === 'USD'),
    2,
  )) {
    plain.splice(plain.indexOf(p), 1);
    add(p, 'currency_mismatch', { currency: 'CNY' });
  }
  for (const p of take(unpaid, 3)) add(p, 'status_mismatch');
  const missing = ['297553638300700001', '297553638300700002', '297553638300700003'];
  for (const [i, no] of missing.entries()) {
    expected.missing_at_service += 1;
    lines.push({
      date: day(ANCHOR_MS - (i + 1) * 86_400_000),
      order: `SO-M${i + 1}`,
      transactionNo: no,
      amount: `${12 + i}.50`,
      currency: 'USD',
      status: 'Paid',
    });
  }
  // Duplicates: the same payment booked twice (the second booking is the exception).
  for (const idx of [10, 57]) {
    const first = lines[idx];
    if (!first) throw new Error('demo ledger is shorter than expected');
    expected.duplicate_in_ledger += 1;
    lines.push({ ...first, order: `${first.order}-B` });
  }
  // Sort by date like a real export, keeping the generator's order within a day.
  const sorted = lines
    .map((l, i) => ({ l, i }))
    .sort((a, b) => (a.l.date === b.l.date ? a.i - b.i : a.l.date < b.l.date ? -1 : 1))
    .map((x) => x.l);
  let csv = writeCsv(COLUMNS, sorted, { idStyle: 'plain' });
  // Two rows a person typed badly: listed as problems, never silently dropped.
  const body = csv.split('\r\n');
  body.splice(41, 0, `${day(ANCHOR_MS)},SO-BAD1,297553638300709991,n/a,USD,Paid`);
  body.splice(121, 0, `${day(ANCHOR_MS)},SO-BAD2,297553638300709992,19.99,,Paid`);
  csv = body.join('\r\n');
  return { csv, expected, badLines: [42, 122], rows: sorted.length };
}
