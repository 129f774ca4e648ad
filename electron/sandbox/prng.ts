/**
 * Seeded pseudo-random numbers. The sandbox never uses Math.random: the same seed must give the same
 * dataset, ids and fault decisions, so tests and the Demo profile are reproducible.
 */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data (not for cryptography). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max] inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Builds a picker of one key by weight (the table is prepared once: seeding 100k rows stays fast). */
export function weightedPicker<T extends string>(weights: Readonly<Record<T, number>>): (rng: Rng) => T {
  const keys = Object.keys(weights) as T[];
  const cumulative: number[] = [];
  let total = 0;
  for (const k of keys) {
    total += weights[k];
    cumulative.push(total);
  }
  if (keys.length === 0) throw new Error('weightedPicker of an empty table');
  return (rng) => {
    const r = rng() * total;
    for (let i = 0; i < cumulative.length; i += 1) if (r < (cumulative[i] ?? 0)) return keys[i] as T;
    return keys[keys.length - 1] as T;
  };
}

/** A string of `n` decimal digits whose first digit is not zero (drawn 9 digits at a time: seeding is hot). */
export function digits(rng: Rng, n: number): string {
  const head = Math.min(9, n);
  let s = String(10 ** (head - 1) + Math.floor(rng() * 9 * 10 ** (head - 1)));
  while (s.length < n) {
    const k = Math.min(9, n - s.length);
    s += String(Math.floor(rng() * 10 ** k)).padStart(k, '0');
  }
  return s;
}

/** `n` lowercase hex characters. */
export function hex(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 1) s += Math.floor(rng() * 16).toString(16);
  return s;
}

/** Derives an independent stream from a seed and a label, so adding one stream never shifts another. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i += 1) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
