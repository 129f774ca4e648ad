import { describe, expect, it } from 'vitest';
import { generateSeed, seedAnchor } from '../../../electron/sandbox/seed';
import { MERCHANTS, VENDOR_CURRENCIES, allowedSettleCurrencies } from '../../../electron/sandbox/catalog';
import { createRng, digits, weightedPicker } from '../../../electron/sandbox/prng';

const NOW = Date.UTC(2025, 5, 15, 3, 0, 0);
const DAY = 86_400_000;

describe('generateSeed', () => {
  it('is deterministic for a seed and a day, and differs for another seed', () => {
    const a = generateSeed(11, 500, NOW);
    expect(generateSeed(11, 500, NOW + 3_600_000)).toEqual(a); // same UTC+8 day
    expect(generateSeed(12, 500, NOW).payments[0]).not.toEqual(a.payments[0]);
    expect(generateSeed(11, 500, NOW + DAY).payments[0]!.createdAt).toBe(a.payments[0]!.createdAt + DAY);
  });
  it('covers vendors, currencies, statuses and refund states within the rules', () => {
    const d = generateSeed(3, 3000, NOW);
    const anchor = seedAnchor(NOW);
    const statuses = new Set(d.payments.map((p) => p.status));
    for (const s of ['init', 'pending', 'success', 'failed', 'closed', 'reversed', 'dealing'])
      expect(statuses).toContain(s);
    expect(new Set(d.payments.map((p) => p.vendor)).size).toBeGreaterThan(12);
    expect(new Set(d.payments.map((p) => p.merchantNo))).toEqual(new Set(MERCHANTS.map((m) => m.merchantNo)));
    expect(new Set(d.refunds.map((r) => r.status))).toEqual(new Set(['success', 'failed', 'pending']));
    const refunds = new Map(d.refunds.map((r) => [r.refundTransactionNo, r]));
    let full = 0;
    let partial = 0;
    const ids = new Set<string>();
    for (const p of d.payments) {
      expect(VENDOR_CURRENCIES[p.vendor]).toContain(p.currency);
      expect(allowedSettleCurrencies(p.vendor, p.currency)).toContain(p.settleCurrency);
      expect(Number.isSafeInteger(p.amountMinor) && p.amountMinor > 0).toBe(true);
      expect(p.createdAt).toBeLessThanOrEqual(anchor);
      expect(p.createdAt).toBeGreaterThanOrEqual(anchor - 90 * DAY);
      expect(p.transactionNo).toMatch(/^[1-9]\d{17}$/);
      ids.add(p.transactionNo);
      const committed = p.refunds
        .map((n) => refunds.get(n)!)
        .filter((r) => r.status !== 'failed')
        .reduce((s, r) => s + r.refundAmountMinor, 0);
      expect(committed).toBeLessThanOrEqual(p.amountMinor);
      if (p.refunds.length > 0) expect(p.status).toBe('success');
      if (committed === p.amountMinor) full += 1;
      else if (committed > 0) partial += 1;
    }
    for (const r of d.refunds) ids.add(r.refundTransactionNo);
    expect(ids.size).toBe(d.payments.length + d.refunds.length);
    expect(full).toBeGreaterThan(10);
    expect(partial).toBeGreaterThan(10);
    expect(new Set(d.payments.map((p) => `${p.merchantNo}/${p.reference}`)).size).toBe(d.payments.length);
  });
  it('generates 100k transactions quickly', () => {
    const t0 = performance.now();
    const d = generateSeed(1, 100_000, NOW);
    const ms = performance.now() - t0;
    expect(d.payments.length).toBe(100_000);
    // Generous bound for loaded CI machines; typically well under a second.
    expect(ms).toBeLessThan(4_000);
  });
});

describe('prng', () => {
  it('same seed, same stream', () => {
    const a = createRng(5);
    const b = createRng(5);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });
  it('digits and weighted picks', () => {
    const rng = createRng(1);
    for (let i = 0; i < 100; i += 1) expect(digits(rng, 18)).toMatch(/^[1-9]\d{17}$/);
    const pickOnly = weightedPicker({ a: 0, b: 1 });
    expect(Array.from({ length: 20 }, () => pickOnly(rng)).every((x) => x === 'b')).toBe(true);
  });
});
