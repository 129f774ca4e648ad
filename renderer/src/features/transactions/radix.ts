/**
 * A stable LSD radix sort of row indexes by unsigned 32-bit keys, for the list's sort (sorting.ts).
 * At 1M rows a comparison sort calls its comparator some 20M times (1.2–2.4 s through per-row closures);
 * this reads each key once per 11-bit digit and skips digits every key shares, so a sort by amount within
 * currency is a few passes of ~1M plain array operations (tens of ms).
 */

const BITS = 11;
const RADIX = 1 << BITS;
const MASK = RADIX - 1;

/**
 * Scratch arrays, kept between sorts: at 1M rows each is 4 MB, and allocating a dozen of them per sort
 * (outside the JS heap) made V8 run full collections of the list's million row objects mid-sort.
 */
let scratch: { k: Uint32Array; k2: Uint32Array; o2: Uint32Array } | undefined;
const counts = new Uint32Array(RADIX);

function scratchFor(n: number) {
  if (!scratch || scratch.k.length < n)
    scratch = { k: new Uint32Array(n), k2: new Uint32Array(n), o2: new Uint32Array(n) };
  return scratch;
}

/**
 * Reorders `order` (row indexes) in place by `key[row]` ascending — descending when `invert` — stably:
 * rows with equal keys keep the order they had.
 */
export function radixSortBy(order: Uint32Array, key: Uint32Array, invert = false): void {
  const n = order.length;
  if (n < 2) return;
  const s = scratchFor(n);
  // Keys gathered beside the indexes, so each pass reads them in sequence rather than by row.
  let k = s.k;
  let k2 = s.k2;
  let o = order;
  let o2 = s.o2;
  if (invert) for (let i = 0; i < n; i += 1) k[i] = ~key[order[i]!]! >>> 0;
  else for (let i = 0; i < n; i += 1) k[i] = key[order[i]!]!;
  for (let shift = 0; shift < 32; shift += BITS) {
    counts.fill(0);
    for (let i = 0; i < n; i += 1) counts[(k[i]! >>> shift) & MASK]! += 1;
    // Every key has the same digit here: the pass would move nothing.
    if (counts[(k[0]! >>> shift) & MASK] === n) continue;
    let sum = 0;
    for (let d = 0; d < RADIX; d += 1) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i += 1) {
      const kv = k[i]!;
      const at = counts[(kv >>> shift) & MASK]!;
      counts[(kv >>> shift) & MASK] = at + 1;
      k2[at] = kv;
      o2[at] = o[i]!;
    }
    const kt = k;
    k = k2;
    k2 = kt;
    const ot = o;
    o = o2;
    o2 = ot;
  }
  if (o !== order) order.set(o.subarray(0, n));
  // The scratch arrays may have changed places with `order`: keep the ones that are not it.
  s.k = k;
  s.k2 = k2;
  s.o2 = o === order ? o2 : o;
}
