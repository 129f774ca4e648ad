/**
 * The demo ledger: the Demo merchant's books for the Demo sandbox's seeded data over a 30-day period,
 * complete for that period but for a few deliberate discrepancies of every kind, so "Try with demo
 * ledger" shows each outcome in both directions.
 *
 * The seed depends only on (seed, count, anchor day), and changing the anchor shifts every time by the
 * same amount. So the ledger is built for an anchor: `resources/demo-ledger.csv` (the CLI's example and
 * the tests') for a fixed one, and the app's "Try with demo ledger" for the running Demo sandbox's own
 * (found by comparing one seeded payment), so its dates are that installation's dates. Pure.
 */
import type { Currency } from '../../shared/domain/currencies';
import { writeCsv, type CsvColumn } from '../../shared/csv/writer';
import { formatMinor } from '../../shared/domain/money';
import { refundCounts, type ReconOutcome } from '../../shared/recon/match';
import { DEFAULT_REFUND_LOOKBACK_DAYS } from '../../shared/recon/period';
import { emptyCounts } from '../../shared/recon/summary';
import { DEMO_MERCHANT, generateSeed, seedAnchor, type PaymentRecord } from '../sandbox';

/** The Demo profile's sandbox: seed from compose.ts (DEMO_SEED), the sandbox's default 2000 payments. */
export const DEMO_LEDGER_SEED = 20_240_601;
export const DEMO_LEDGER_COUNT = 2000;
/** Anchor of the committed file: the seed as if first started on 2025-07-01 (UTC+8). */
export const DEMO_LEDGER_ANCHOR_MS = Date.UTC(2025, 5, 30, 16);
/** The ledger covers the 30 service (UTC+8) days before the anchor day. */
const PERIOD_DAYS = 30;
const DAY_MS = 86_400_000;
const UTC8_MS = 8 * 3_600_000;

interface LedgerLine {
  date: string;
  order: string;
  transactionNo: string;
  amount: string;
  currency: Currency;
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
  /** Outcome counts against the Demo sandbox, for the period below in the service's days. */
  expected: Record<ReconOutcome, number>;
  /** The same without a period (ledger rows only, as `cli reconcile` without --from/--to). */
  expectedOneWay: Record<ReconOutcome, number>;
  period: { from: string; to: string };
  /** Rows the importer must reject (with their line numbers). */
  badLines: number[];
  /** Data rows (readable and not). */
  rows: number;
}

const day = (ms: number) => new Date(ms + UTC8_MS).toISOString().slice(0, 10);

/** Spreadsheet-style amount: large values with thousands separators (the importer reads both). */
function amountText(minor: number, currency: Currency): string {
  const plain = formatMinor(minor, currency);
  const [whole = '', frac] = plain.split('.');
  if (whole.length <= 4) return plain;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Generates the demo ledger for a sandbox seeded on `anchorMs`'s UTC+8 day (deterministic). */
export function buildDemoLedger(anchorMs: number = DEMO_LEDGER_ANCHOR_MS): DemoLedger {
  const anchor = seedAnchor(anchorMs);
  const start = anchor - PERIOD_DAYS * DAY_MS;
  const lookbackStart = start - DEFAULT_REFUND_LOOKBACK_DAYS * DAY_MS;
  const data = generateSeed(DEMO_LEDGER_SEED, DEMO_LEDGER_COUNT, anchorMs);
  const refundsById = new Map(data.refunds.map((r) => [r.refundTransactionNo, r]));
  const refundsOf = (p: PaymentRecord) =>
    p.refunds.map((id) => refundsById.get(id)).filter((r) => r !== undefined);
  // The Demo profile's store: the service's list covers the calling store only.
  const store = data.payments.filter(
    (p) => p.merchantNo === DEMO_MERCHANT.merchantNo && p.storeNo === DEMO_MERCHANT.storeNo,
  );
  const inPeriod = store.filter((p) => p.createdAt >= start && p.createdAt < anchor);
  const paid = inPeriod.filter((p) => p.status === 'success');
  const plain = paid.filter((p) => !refundsOf(p).some((r) => refundCounts(r.status)));
  const refunded = paid.filter((p) => refundsOf(p).some((r) => refundCounts(r.status)));
  const unpaid = inPeriod.filter((p) => p.status === 'closed' || p.status === 'failed');

  const expected = emptyCounts();
  const lines: LedgerLine[] = [];
  const line = (p: PaymentRecord, over: Partial<LedgerLine> = {}): LedgerLine => ({
    date: day(p.createdAt),
    order: `SO-${p.transactionNo.slice(-6)}`,
    transactionNo: p.transactionNo,
    amount: amountText(p.amountMinor, p.currency),
    currency: p.currency,
    status: 'Paid',
    ...over,
  });
  const add = (p: PaymentRecord, outcome: ReconOutcome, over: Partial<LedgerLine> = {}) => {
    expected[outcome] += 1;
    lines.push(line(p, over));
  };
  // Deliberate discrepancies take payments from the middle of the period (stable dates), then the rest match.
  const take = (list: PaymentRecord[], n: number, ok: (p: PaymentRecord) => boolean = () => true) => {
    const mid = list.filter(
      (p) => p.createdAt > start + 3 * DAY_MS && p.createdAt < anchor - 4 * DAY_MS && ok(p),
    );
    const picked = mid.slice(0, n);
    for (const p of picked) list.splice(list.indexOf(p), 1);
    return picked;
  };
  for (const [i, p] of take(plain, 3).entries())
    add(p, 'amount_mismatch', { amount: amountText(p.amountMinor + [100, -1, 2500][i]!, p.currency) });
  for (const p of take(plain, 2, (x) => x.currency === 'USD'))
    add(p, 'currency_mismatch', { currency: 'CNY' });
  for (const p of take(plain, 2)) add(p, 'date_mismatch', { date: day(p.createdAt - 3 * DAY_MS) });
  for (const p of take(refunded, 3)) add(p, 'refunded_not_in_ledger');
  for (const p of take(unpaid, 3)) add(p, 'status_mismatch');
  const missingInLedger = take(plain, 3);
  const unreadable = take(plain, 3);
  for (const p of plain) add(p, 'matched');
  for (const p of refunded) add(p, 'matched', { status: 'Refunded' });
  const fakes = ['297553638300700001', '297553638300700002', '297553638300700003'];
  for (const [i, no] of fakes.entries()) {
    expected.missing_at_service += 1;
    lines.push({
      date: day(start + (10 + i) * DAY_MS),
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
  const expectedOneWay = { ...expected };
  // Payments the ledger lacks: left out, or written so badly their rows cannot be read.
  expected.missing_in_ledger += missingInLedger.length + unreadable.length;
  // Refunds in the period of payments made before it (within the look-back) that the ledger lacks.
  for (const p of store.filter((x) => x.createdAt >= lookbackStart && x.createdAt < start))
    for (const r of refundsOf(p))
      if (refundCounts(r.status) && r.createdAt >= start && r.createdAt < anchor)
        expected.refund_missing_in_ledger += 1;

  // Sorted by date like a real export, keeping the generator's order within a day.
  const sorted = lines
    .map((l, i) => ({ l, i }))
    .sort((a, b) => (a.l.date === b.l.date ? a.i - b.i : a.l.date < b.l.date ? -1 : 1))
    .map((x) => x.l);
  const body = writeCsv(COLUMNS, sorted, { idStyle: 'plain' }).split('\r\n');
  // Three rows written badly: listed as unreadable with their line numbers, never silently dropped.
  const [u1, u2, u3] = unreadable as [PaymentRecord, PaymentRecord, PaymentRecord];
  const bad = [
    { at: 41, text: `${day(u1.createdAt)},SO-BAD1,${u1.transactionNo},n/a,${u1.currency},Paid` },
    {
      at: 121,
      text: `${day(u2.createdAt)},SO-BAD2,${u2.transactionNo},${formatMinor(u2.amountMinor, u2.currency)},,Paid`,
    },
    {
      at: 201,
      // No order id: a shortened id with a reference would be matched by that reference instead.
      text: `${day(u3.createdAt)},,${u3.transactionNo.slice(0, 1)}.${u3.transactionNo.slice(1, 6)}E+17,${formatMinor(u3.amountMinor, u3.currency)},${u3.currency},Paid`,
    },
  ];
  for (const b of bad) body.splice(b.at, 0, b.text);
  expected.unreadable = bad.length;
  expectedOneWay.unreadable = bad.length;
  const dates = sorted.map((l) => l.date).sort();
  return {
    csv: body.join('\r\n'),
    expected,
    expectedOneWay,
    period: { from: dates[0] ?? day(start), to: dates.at(-1) ?? day(anchor - 1) },
    badLines: bad.map((b) => b.at + 1),
    rows: sorted.length + bad.length,
  };
}

/** What is needed of a running sandbox: its payments by number. */
export interface SeededSandbox {
  state: { payment(transactionNo: string): Pick<PaymentRecord, 'createdAt' | 'channel'> | undefined };
}

/** The demo ledger for a running Demo sandbox (the committed file's when its data is not the Demo seed). */
export function demoLedgerFor(sandbox: SeededSandbox | undefined): DemoLedger {
  return buildDemoLedger((sandbox && demoSandboxAnchor(sandbox)) ?? DEMO_LEDGER_ANCHOR_MS);
}

/**
 * The anchor a running Demo sandbox was seeded with, found by where one seeded payment sits in time;
 * undefined when its data is not the Demo seed.
 */
export function demoSandboxAnchor(sandbox: SeededSandbox): number | undefined {
  const reference = generateSeed(DEMO_LEDGER_SEED, DEMO_LEDGER_COUNT, DEMO_LEDGER_ANCHOR_MS).payments[0];
  if (!reference) return undefined;
  const live = sandbox.state.payment(reference.transactionNo);
  if (!live || live.channel !== 'seed') return undefined;
  return seedAnchor(DEMO_LEDGER_ANCHOR_MS) + (live.createdAt - reference.createdAt);
}
