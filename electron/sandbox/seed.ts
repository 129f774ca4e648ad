/**
 * Deterministic seeded dataset: the same (seed, count, day) always gives the same transactions, so the
 * Demo profile and a later demo-ledger generator can rebuild it. Times are spread over the 90 days
 * before the start of `nowMs`'s UTC+8 calendar day (the anchor), so a restart later the same day
 * regenerates identical data.
 */
import { type Currency, currencyExponent } from '../../shared/domain/currencies';
import type { RefundStatus, TransactionStatus } from '../../shared/protocol/statuses';
import { MERCHANTS, VENDOR_CURRENCIES, allowedSettleCurrencies } from './catalog';
import { createRng, deriveSeed, digits, pick, randInt, weightedPicker, type Rng } from './prng';
import type { PaymentRecord, RefundRecord, SandboxData } from './types';

const DAY_MS = 86_400_000;
const UTC8_MS = 8 * 3_600_000;

/** Start of the UTC+8 calendar day containing `nowMs`. */
export function seedAnchor(nowMs: number): number {
  return Math.floor((nowMs + UTC8_MS) / DAY_MS) * DAY_MS - UTC8_MS;
}

/** Plausible amount ranges in minor units per currency (roughly 1 to 500 US dollars). */
const AMOUNT_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  USD: [100, 50_000],
  CNY: [700, 350_000],
  GBP: [100, 40_000],
  PHP: [5_600, 2_800_000],
  IDR: [16_000, 8_000_000],
  KRW: [1_400, 700_000],
  HKD: [800, 390_000],
  THB: [3_600, 1_800_000],
  MYR: [470, 235_000],
  BDT: [12_000, 6_000_000],
  PKR: [28_000, 14_000_000],
  JPY: [150, 75_000],
};

const pickVendor = weightedPicker({
  alipay: 22,
  wechatpay: 18,
  creditcard: 16,
  paypal: 9,
  unionpay: 6,
  venmo: 4,
  applepay: 4,
  googlepay: 3,
  cashapppay: 2,
  alipay_hk: 3,
  truemoney: 2,
  tng: 2,
  gcash: 2,
  dana: 2,
  kakaopay: 2,
  bkash: 1,
  easypaisa: 1,
  paypay: 1,
});

const pickStatus = weightedPicker<TransactionStatus>({
  success: 72,
  closed: 8,
  failed: 7,
  init: 3,
  pending: 3,
  dealing: 1,
  reversed: 6,
});
const pickRefundKind = weightedPicker({ full: 35, partial: 35, several: 30 });

function amountFor(rng: Rng, currency: Currency): number {
  const [min, max] = AMOUNT_RANGE[currency] ?? [100, 50_000];
  // Cubic skew: many small payments, a few large ones. Only integers leave this function.
  const r = rng();
  let minor = min + Math.floor(r * r * r * (max - min));
  const exp = currencyExponent(currency);
  if (exp === 0) minor = Math.max(10, Math.round(minor / 10) * 10);
  else if (rng() < 0.4) minor = Math.max(10 ** exp, Math.round(minor / 10 ** exp) * 10 ** exp);
  return minor;
}

function pickMerchant(rng: Rng): { merchantNo: string; storeNo: string } {
  const r = rng();
  const m = r < 0.75 ? MERCHANTS[0] : r < 0.9 ? MERCHANTS[1] : MERCHANTS[2];
  if (!m) throw new Error('merchant table is empty');
  // The first store of each merchant carries most of the traffic.
  const storeNo = m.storeNos.length > 1 && rng() < 0.2 ? pick(rng, m.storeNos.slice(1)) : m.storeNos[0];
  return { merchantNo: m.merchantNo, storeNo: storeNo ?? '' };
}

function ymd(ms: number): string {
  const d = new Date(ms + UTC8_MS);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Refund amounts for one refunded payment: a full refund, one partial, or several partials. */
function refundPlan(rng: Rng, amountMinor: number): number[] {
  const kind = pickRefundKind(rng);
  if (kind === 'full' || amountMinor < 4) return [amountMinor];
  if (kind === 'partial') return [randInt(rng, 1, amountMinor - 1)];
  const parts: number[] = [];
  let left = amountMinor;
  const n = randInt(rng, 2, 3);
  for (let i = 0; i < n && left > 1; i += 1) {
    const part = i === n - 1 && rng() < 0.5 ? left : randInt(rng, 1, Math.max(1, Math.floor(left / 2)));
    parts.push(part);
    left -= part;
  }
  return parts;
}

const TERMINAL_MIX = ['ONLINE', 'ONLINE', 'ONLINE', 'WAP', 'MWEB'] as const;
const CARD_LAST4 = ['4242', '1881', '0005', '4444'] as const;

function addSeedRefunds(
  rng: Rng,
  payment: PaymentRecord,
  anchor: number,
  refunds: RefundRecord[],
  newId: () => string,
): void {
  let refundedAt = payment.paidAt ?? payment.createdAt;
  for (const refundAmountMinor of refundPlan(rng, payment.amountMinor)) {
    refundedAt = Math.min(anchor - 1_000, refundedAt + randInt(rng, 60_000, 20 * DAY_MS));
    // Only recent refunds can still be in flight; an old failed one is followed by a retry that succeeded.
    const recent = anchor - refundedAt < 2 * DAY_MS;
    const firstStatus: RefundStatus = recent && rng() < 0.5 ? 'pending' : rng() < 0.08 ? 'failed' : 'success';
    const attempts = firstStatus === 'failed' ? 2 : 1;
    for (let k = 0; k < attempts; k += 1) {
      const status: RefundStatus = k === 0 ? firstStatus : 'success';
      const createdAt = refundedAt + k * 60_000;
      const refund: RefundRecord = {
        refundTransactionNo: newId(),
        transactionNo: payment.transactionNo,
        refundAmountMinor,
        currency: payment.currency,
        settleCurrency: payment.settleCurrency,
        status,
        createdAt,
      };
      if (rng() < 0.6)
        refund.refundReference = `RF-${payment.reference.slice(4)}-${payment.refunds.length + 1}`;
      if (status !== 'pending') refund.settledAt = createdAt + 30_000;
      refunds.push(refund);
      payment.refunds.push(refund.refundTransactionNo);
    }
  }
}

/**
 * Generates the seeded dataset. Pure: depends only on its arguments.
 * @param seed any 32-bit integer
 * @param count number of payment transactions (refunds come on top)
 * @param nowMs reference instant; only its UTC+8 calendar day matters
 */
export function generateSeed(seed: number, count: number, nowMs: number): SandboxData {
  const rng = createRng(deriveSeed(seed, 'seed-data'));
  const anchor = seedAnchor(nowMs);
  const used = new Set<string>();
  const newId = (): string => {
    for (;;) {
      const id = digits(rng, 18);
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  const payments: PaymentRecord[] = [];
  const refunds: RefundRecord[] = [];
  const createdTimes: number[] = [];
  for (let i = 0; i < count; i += 1) createdTimes.push(anchor - randInt(rng, 60_000, 90 * DAY_MS));
  createdTimes.sort((a, b) => a - b);

  let day = -1;
  let dayText = '';
  for (let i = 0; i < createdTimes.length; i += 1) {
    const createdAt = createdTimes[i] ?? anchor;
    // Times are sorted, so the UTC+8 day changes at most 90 times: format it only then.
    const thisDay = Math.floor((createdAt + UTC8_MS) / DAY_MS);
    if (thisDay !== day) {
      day = thisDay;
      dayText = ymd(createdAt);
    }
    const { merchantNo, storeNo } = pickMerchant(rng);
    const vendor = pickVendor(rng);
    const currency = pick(rng, VENDOR_CURRENCIES[vendor] ?? (['USD'] as const));
    const settleCurrency = pick(rng, allowedSettleCurrencies(vendor, currency));
    const status = pickStatus(rng);
    const amountMinor = amountFor(rng, currency);
    // Plain assignments rather than conditional spreads: this loop runs up to 100k times at start-up.
    const payment: PaymentRecord = {
      transactionNo: newId(),
      merchantNo,
      storeNo,
      reference: `INV-${dayText}-${String(i + 1).padStart(6, '0')}`,
      amountMinor,
      currency,
      settleCurrency,
      vendor,
      terminal: pick(rng, TERMINAL_MIX),
      status,
      createdAt,
      channel: 'seed',
      refunds: [],
    };
    if (status === 'success' || status === 'failed' || status === 'reversed')
      payment.paidAt = createdAt + randInt(rng, 5_000, 600_000);
    if (vendor === 'creditcard') payment.cardLast4 = pick(rng, CARD_LAST4);
    payments.push(payment);
    if (status === 'success' && rng() < 0.2) addSeedRefunds(rng, payment, anchor, refunds, newId);
  }
  return { version: 1, seed, payments, refunds, customers: [], vaults: [] };
}
