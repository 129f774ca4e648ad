/**
 * Rows that share a reason, said once: "Lines 2–31 (30 rows): Transaction No “6.2393E+17” looks
 * shortened by Excel …" instead of 30 copies of the same sentence. Reasons that differ only in the
 * value they quote (“6.2393E+17”, “6.2394E+17”) are the same reason. Used before a run (the mapping
 * step, the CLI); the report and its export keep one row per line, each with its own reason.
 */

export interface ReasonGroup {
  /** The first row's reason (its quoted value is an example when the rows' values differ). */
  reason: string;
  cause?: string;
  /** The rows' lines as ranges: "2–31, 40, 45–47" (bounded; see lineRanges). */
  lines: string;
  count: number;
  firstLine: number;
  /** True when every row has exactly this reason; false when only the quoted values differ. */
  same: boolean;
}

/** A reason with its quoted values left out: the key rows are grouped by. */
const shape = (reason: string) => reason.replace(/“[^”]*”/g, '“”');

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Ascending lines as ranges of consecutive lines, the first `max` of them, then how many lines more:
 * [2, 3, 4, 6, 9, 10] → "2–4, 6, 9–10".
 */
export function lineRanges(lines: readonly number[], max = 8): string {
  const ranges: string[] = [];
  let i = 0;
  while (i < lines.length && ranges.length < max) {
    const start = lines[i]!;
    let end = start;
    while (i + 1 < lines.length && lines[i + 1] === end + 1) end = lines[(i += 1)]!;
    ranges.push(start === end ? String(start) : `${start}–${end}`);
    i += 1;
  }
  const more = lines.length - i;
  return `${ranges.join(', ')}${more > 0 ? ` and ${count(more)} more line${more === 1 ? '' : 's'}` : ''}`;
}

/** Groups rows (in line order) by reason, groups in order of their first line. */
export function collapseReasons(
  rows: Iterable<{ line: number; reason: string; cause?: string }>,
  maxRanges = 8,
): ReasonGroup[] {
  const groups = new Map<string, { reason: string; cause?: string; lines: number[]; same: boolean }>();
  for (const r of rows) {
    const key = `${r.cause ?? ''}\u0000${shape(r.reason)}`;
    const g = groups.get(key);
    if (!g)
      groups.set(key, {
        reason: r.reason,
        ...(r.cause ? { cause: r.cause } : {}),
        lines: [r.line],
        same: true,
      });
    else {
      g.lines.push(r.line);
      if (r.reason !== g.reason) g.same = false;
    }
  }
  return [...groups.values()].map((g) => ({
    reason: g.reason,
    ...(g.cause ? { cause: g.cause } : {}),
    lines: lineRanges(g.lines, maxRanges),
    count: g.lines.length,
    firstLine: g.lines[0]!,
    same: g.same,
  }));
}

/** Where a group's rows are, for the start of a line: "Line 7", "Lines 2–31 (30 rows)". */
export function groupWhere(g: Pick<ReasonGroup, 'lines' | 'count'>): string {
  return g.count === 1 ? `Line ${g.lines}` : `Lines ${g.lines} (${count(g.count)} rows)`;
}

/** A group as one line of text: "Lines 2–31 (30 rows): reason (the first of them; the others alike)". */
export function groupText(g: ReasonGroup): string {
  return `${groupWhere(g)}: ${g.reason}${g.same ? '' : ` (line ${g.firstLine}; the others alike, each with its own value)`}`;
}
