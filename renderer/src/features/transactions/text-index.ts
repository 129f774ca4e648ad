import { haystackOf, type ListRow } from '../../db/owner';

/**
 * The list's filter text (each row's lower-cased ids and references, haystackOf in db/list-row.ts) held
 * as a few long strings — a slice of rows' texts joined by a separator — with where each row starts. The
 * id filter then searches those with `indexOf`, one sequential scan, instead of calling `includes` on
 * a million row objects and their strings scattered over the heap: at 1M rows that per-row walk was
 * ~75 % of a keystroke's time (CPU profile of the list bench's filter step, 72–100 ms of 96–120).
 *
 * A match cannot span two rows: the separator ends every row's text and a query holding it is never
 * searched here (textMatches returns false and the caller tests rows one by one).
 */
export interface TextIndex {
  readonly chunks: readonly TextChunk[];
  readonly rows: number;
}

interface TextChunk {
  /** The haystacks of rows first … first + starts.length - 2, each followed by SEP but the last. */
  readonly text: string;
  /** Where each row's text starts in `text`; one more entry, text.length + 1, closes the last row. */
  readonly starts: Uint32Array;
  /** Index of the chunk's first row in the list. */
  readonly first: number;
}

/** Between two rows' texts. A filter's text comes from a one-line box; one holding this is searched row by row. */
const SEP = '\n';

/** Rows per chunk (and per slice when prepared in slices): a few ms of joining on a slow machine. */
export const TEXT_SLICE = 25_000;

/** Builders by list; a finished builder holds its index. */
const builders = new WeakMap<readonly ListRow[], TextBuilder>();

class TextBuilder {
  private readonly chunks: TextChunk[] = [];
  private next = 0;
  index: TextIndex | undefined;

  constructor(private readonly rows: readonly ListRow[]) {
    if (rows.length === 0) this.index = { chunks: [], rows: 0 };
  }

  /** Joins the texts of up to `count` more rows into one chunk. */
  step(count: number): void {
    if (this.index) return;
    const { rows } = this;
    const first = this.next;
    const end = Math.min(rows.length, first + Math.max(1, count));
    const parts = new Array<string>(end - first);
    const starts = new Uint32Array(end - first + 1);
    let at = 0;
    for (let i = first; i < end; i += 1) {
      const h = haystackOf(rows[i]!);
      parts[i - first] = h;
      starts[i - first] = at;
      at += h.length + 1;
    }
    starts[end - first] = at;
    this.chunks.push({ text: parts.join(SEP), starts, first });
    this.next = end;
    if (end >= rows.length) this.index = { chunks: this.chunks, rows: rows.length };
  }

  finish(): TextIndex {
    while (!this.index) this.step(TEXT_SLICE);
    return this.index;
  }
}

function builderFor(rows: readonly ListRow[]): TextBuilder {
  let b = builders.get(rows);
  if (!b) {
    b = new TextBuilder(rows);
    builders.set(rows, b);
  }
  return b;
}

/** The text index of these rows: built already (prepareText), or now. */
export function textIndex(rows: readonly ListRow[]): TextIndex {
  return builderFor(rows).finish();
}

/** True when the text index of these rows is built. */
export function hasTextIndex(rows: readonly ListRow[]): boolean {
  return builders.get(rows)?.index !== undefined;
}

/**
 * Builds the rows' text index a slice at a time with `pause()` between slices, so a million rows are
 * prepared without a long task; a filter typed meanwhile finishes it at once.
 */
export async function prepareText(
  rows: readonly ListRow[],
  pause: () => Promise<void>,
  slice = TEXT_SLICE,
): Promise<void> {
  const b = builderFor(rows);
  while (!b.index) {
    b.step(slice);
    await pause();
  }
}

/**
 * Sets mask[i] = 1 for every row whose text contains `needle` (already trimmed and lower-cased, not
 * empty), leaving the others as they are. False, with the mask untouched, when the needle holds the
 * separator: the caller then tests each row's haystack itself.
 */
export function textMatches(index: TextIndex, needle: string, mask: Uint8Array): boolean {
  if (needle === '' || needle.includes(SEP)) return false;
  for (const { text, starts, first } of index.chunks) {
    const count = starts.length - 1;
    let r = 0;
    let pos = text.indexOf(needle);
    while (pos !== -1) {
      // The row the match is in: the last whose start is at or before it (matches come in order).
      while (starts[r + 1]! <= pos) r += 1;
      mask[first + r] = 1;
      r += 1;
      if (r >= count) break;
      // A row matches once: go on from the next row's start.
      pos = text.indexOf(needle, starts[r]);
    }
  }
  return true;
}
