/**
 * Small integers for strings — ledger keys, service transaction numbers — so that what is kept per key
 * (which line came first) lives in plain arrays indexed by integer. A key is found, or added as the
 * next integer, in one probe sequence of an open-addressing table of Int32 slots: no Map entry, no
 * object per key, and a table sized once for the ledger (it doubles only if more keys come). The strings
 * themselves are compared only when their hashes are equal.
 */
export class KeyIndex {
  /**
   * Pairs of (hash, key integer + 1) per slot, side by side so one read finds both; 0 as the integer
   * is an empty slot. A slot whose hash differs is passed without reading the key itself.
   */
  private slots: Int32Array;
  private mask: number;
  private readonly keys: string[] = [];

  constructor(expected = 16) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
  }

  /** How many distinct keys have been given an integer (the next one gets this). */
  get size(): number {
    return this.keys.length;
  }

  /** The key's integer; a key not seen before gets the next one (0, 1, 2, … in first-seen order). */
  idOf(key: string): number {
    return this.idOfHashed(key, keyHash(key));
  }

  /**
   * idOf, given the key's keyHash. A caller filing many keys hashes them all first, then files them:
   * each filing is a probe of a large table that misses the processor's caches, and with no hashing in
   * between, the processor waits for several of them at once (a million numbers: a third of the time).
   */
  idOfHashed(key: string, hash: number): number {
    const slots = this.slots;
    let slot = hash & this.mask;
    for (;;) {
      const held = slots[2 * slot + 1]!;
      if (held === 0) break;
      if (slots[2 * slot] === hash && this.keys[held - 1] === key) return held - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.keys.length;
    this.keys.push(key);
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = id + 1;
    // At most half full, so that a probe ends soon.
    if (this.keys.length * 2 > this.mask) this.grow();
    return id;
  }

  /** The key's integer, or -1 when it has none (nothing is added). */
  find(key: string): number {
    const hash = keyHash(key);
    const slots = this.slots;
    let slot = hash & this.mask;
    for (;;) {
      const held = slots[2 * slot + 1]!;
      if (held === 0) return -1;
      if (slots[2 * slot] === hash && this.keys[held - 1] === key) return held - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / 2 - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let slot = old[i]! & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[i]!;
      slots[2 * slot + 1] = old[i + 1]!;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** FNV-1a over the UTF-16 code units, mixed at the end so that similar keys spread over the table. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/**
 * keyHash of each of `lens.length` texts laid end to end in `bytes` from `from` on, one byte per code
 * unit (Latin-1) or two (UTF-16LE), each `lens[k]` code units long (-1: absent, hashed as ''): the
 * same numbers keyHash gives for the strings, without making or reading them.
 */
export function keyHashesOfBytes(
  bytes: Uint8Array,
  from: number,
  lens: ArrayLike<number>,
  wide: boolean,
): Int32Array {
  const out = new Int32Array(lens.length);
  let p = from;
  for (let k = 0; k < lens.length; k += 1) {
    const len = lens[k]! > 0 ? lens[k]! : 0;
    let h = 0x811c9dc5;
    if (wide)
      for (let i = 0; i < len; i += 1, p += 2)
        h = Math.imul(h ^ (bytes[p]! | (bytes[p + 1]! << 8)), 0x01000193);
    else for (let i = 0; i < len; i += 1, p += 1) h = Math.imul(h ^ bytes[p]!, 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    out[k] = h ^ (h >>> 13);
  }
  return out;
}
