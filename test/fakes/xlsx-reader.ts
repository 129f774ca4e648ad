import { strFromU8, unzipSync } from 'fflate';

/** One cell of a worksheet as the file stores it. */
export interface XlsxCell {
  ref: string;
  /**
   * `s` a text cell — from the shared strings or inline (`inlineStr`, as streaming writers store text:
   * Excel reads both as the same text cell) —, `str`, `n` (number, the default), `b`, `d`.
   */
  type: string;
  /** The text for string cells, the raw number otherwise. */
  value: string;
  /** The number format code of its style. */
  numFmt: string;
}

// ECMA-376 built-in number formats that exports use (a writer may refer to them by id).
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  14: 'mm-dd-yy',
  22: 'm/d/yy h:mm',
  49: '@',
};

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * Reads an .xlsx the way a test needs to: unzips it and parses the first sheet's XML (cells, their
 * types, their number formats), the frozen pane and the filter range. No spreadsheet library involved,
 * so the test sees exactly what Excel will read.
 */
export function readXlsx(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const text = (name: string) => (files[name] ? strFromU8(files[name]) : '');
  const shared = [...text('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    unescape([...(m[1] ?? '').matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const styles = text('xl/styles.xml');
  const customFormats = new Map(
    [...styles.matchAll(/<numFmt [^>]*>/g)].map((m) => [
      Number(attr(m[0], 'numFmtId')),
      unescape(attr(m[0], 'formatCode') ?? ''),
    ]),
  );
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const xfFormats = [...cellXfs.matchAll(/<xf [^>]*>/g)].map((m) => {
    const id = Number(attr(m[0], 'numFmtId') ?? 0);
    return customFormats.get(id) ?? BUILTIN_FORMATS[id] ?? `builtin:${id}`;
  });
  const sheet = text('xl/worksheets/sheet1.xml');
  const cells: XlsxCell[] = [];
  for (const m of sheet.matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const tag = m[1] ?? '';
    const body = m[2] ?? '';
    const stored = attr(tag, 't') ?? 'n';
    const type = stored === 'inlineStr' ? 's' : stored;
    const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1] ?? /<t[^>]*>([\s\S]*?)<\/t>/.exec(body)?.[1] ?? '';
    cells.push({
      ref: attr(tag, 'r') ?? '',
      type,
      value: stored === 's' ? (shared[Number(raw)] ?? '') : unescape(raw),
      numFmt: xfFormats[Number(attr(tag, 's') ?? 0)] ?? 'General',
    });
  }
  return {
    cells,
    cell: (ref: string) => cells.find((c) => c.ref === ref),
    pane: /<pane [^>]*>/.exec(sheet)?.[0] ?? '',
    autoFilter: /<autoFilter [^>]*>/.exec(sheet)?.[0] ?? '',
  };
}

/** Excel serial date → UTC wall-clock ISO text (Excel's 1900 system, as exceljs writes it). */
export function serialToIso(serial: number): string {
  return new Date(Math.round((serial - 25569) * 86_400_000)).toISOString().slice(0, 19);
}
