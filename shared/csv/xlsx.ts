/**
 * The Excel export: the same column sets as the CSV writer, written as a real .xlsx workbook for the
 * people who open exports in a spreadsheet. Each cell is:
 * - `id` → a text cell (18–20 digits stay digits; no ="…" trick needed), column formatted as Text (@);
 * - `amount` → a number with its currency's decimals (the decimal string from formatMinor says how
 *   many: "6798000" IDR → #,##0, "12.30" USD → #,##0.00);
 * - `integer` → a number;
 * - `timestamp` → a real date, the wall clock of the chosen zone, with the zone in the header;
 * - `date` → a calendar day "2026-11-19" as a date cell (yyyy-mm-dd); anything else as text;
 * - `text` → a text cell (typed as a string, so Excel never evaluates it as a formula).
 * The header row is bold, frozen and carries filters; column widths come from the header and the
 * first 200 rows.
 *
 * The workbook streams (issue 30): rows become sheet XML as they arrive and are deflated into the zip
 * as they go (./zip-stream.ts), so memory stays flat however many rows — a 1M-row export built the
 * whole sheet in exceljs and ran out of memory. Strings are inline (`t="inlineStr"`), as streaming
 * writers write them (a shared-strings table would hold every distinct text until the end); Excel,
 * LibreOffice and exceljs read them as the same text cells. Styles are written after the sheet, once
 * every number format used is known.
 */
import { wallClock } from '../domain/zones';
import { type CsvColumn, type CsvOptions, headerText } from './writer';
import { createZipWriter, type ZipEntryWriter, type ZipSink } from './zip-stream';

export interface XlsxOptions {
  sheetName: string;
  /** The zone timestamps are written in (and named in headers). UTC when absent. */
  zone?: NonNullable<CsvOptions['zone']>;
  /** Excel number format for date-times, e.g. "yyyy-mm-dd hh:mm:ss". */
  dateFormat?: string;
  /** Called with the number of rows written so far, every few thousand rows. */
  onProgress?: (rows: number) => void;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The most characters one cell holds in Excel (a longer text makes Excel repair the file). */
export const XLSX_CELL_MAX = 32_767;

/**
 * What XML 1.0 forbids (everything outside its Char production: #x9 | #xA | #xD | [#x20-#xD7FF] |
 * [#xE000-#xFFFD] | [#x10000-#x10FFFF]) — C0 controls, U+FFFE/U+FFFF and lone surrogates. A workbook's
 * sheets are XML: one such character in any cell makes the whole file unreadable (exceljs writes
 * U+FFFF as it is), so these are dropped from every text the workbook holds. None can be shown anyway.
 */
const XML_ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const XML_ILLEGAL_ALL = new RegExp(XML_ILLEGAL.source, 'gu');

const truncatedMarker = (cut: number) => `… [truncated: ${cut.toLocaleString('en-US')} more characters]`;

/**
 * Text as a cell can hold it: without what XML forbids, and at most XLSX_CELL_MAX characters — a longer
 * one is cut with a visible marker saying how much is missing (marker included in the limit; a
 * character of two UTF-16 units is never cut in half).
 */
export function xlsxCellText(text: string): string {
  const clean = XML_ILLEGAL.test(text) ? text.replace(XML_ILLEGAL_ALL, '') : text;
  if (clean.length <= XLSX_CELL_MAX) return clean;
  // The marker for the whole length is at least as long as the one for what is cut.
  let keep = XLSX_CELL_MAX - truncatedMarker(clean.length).length;
  const last = clean.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${clean.slice(0, keep)}${truncatedMarker(clean.length - keep)}`;
}
const UTC = { iana: 'UTC', label: 'UTC' };
const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** How a `date` column's days show. */
const DAY_FORMAT = 'yyyy-mm-dd';
const NEEDS_ESCAPE = /[&<>\r]/;
const MS_PER_DAY = 86_400_000;
/** Excel's serial day number of 1970-01-01 (its 1900 date system, as exceljs writes dates). */
const EPOCH_SERIAL = 25_569;

/** Text for an XML text node: & < > escaped, CR kept as a character reference (a parser drops a raw one). */
function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/[&<>\r]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;',
  );
}
const xmlAttr = (text: string) => xmlText(text).replace(/"/g, '&quot;');

/** A text cell's inline string; spaces at its ends or line breaks are kept (xml:space). */
function inlineString(text: string): string {
  const c0 = text.charCodeAt(0);
  const cN = text.charCodeAt(text.length - 1);
  const keep = c0 <= 32 || cN <= 32 || text.includes('\n');
  return `<is><t${keep ? ' xml:space="preserve"' : ''}>${xmlText(text)}</t></is>`;
}

/** Built-in number formats of SpreadsheetML that exports use (written by id, as Excel does). */
const BUILTIN_FORMATS: Readonly<Record<string, number>> = { '#,##0': 3, '#,##0.00': 4, '@': 49 };

/**
 * The workbook's cell formats (cellXfs): one per number format and weight used, numbered as first met.
 * Index 0 is the plain cell. Written into styles.xml once the sheet is done.
 */
class Styles {
  private readonly ids = new Map<string, number>();
  private readonly xfs: Array<{ numFmt: string | undefined; bold: boolean }> = [
    { numFmt: undefined, bold: false },
  ];
  constructor() {
    this.ids.set('|0', 0);
  }
  of(numFmt: string | undefined, bold = false): number {
    const key = `${numFmt ?? ''}|${bold ? 1 : 0}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.xfs.length;
      this.xfs.push({ numFmt, bold });
      this.ids.set(key, id);
    }
    return id;
  }
  xml(): string {
    const custom = new Map<string, number>();
    for (const { numFmt } of this.xfs)
      if (numFmt !== undefined && BUILTIN_FORMATS[numFmt] === undefined && !custom.has(numFmt))
        custom.set(numFmt, 164 + custom.size);
    const fmtId = (f: string | undefined) => (f === undefined ? 0 : (BUILTIN_FORMATS[f] ?? custom.get(f)!));
    const numFmts = [...custom]
      .map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlAttr(code)}"/>`)
      .join('');
    const xfs = this.xfs
      .map(
        (x) =>
          `<xf numFmtId="${fmtId(x.numFmt)}" fontId="${x.bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${x.numFmt !== undefined ? ' applyNumberFormat="1"' : ''}${x.bold ? ' applyFont="1"' : ''}/>`,
      )
      .join('');
    const font = (bold: boolean) =>
      `<font>${bold ? '<b/>' : ''}<sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>`;
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      (custom.size ? `<numFmts count="${custom.size}">${numFmts}</numFmts>` : '') +
      `<fonts count="2">${font(false)}${font(true)}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${xfs}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/>' +
      '</styleSheet>'
    );
  }
}

/** One cell as the sheet holds it: its XML (without the reference) and what its width counts. */
interface Cell {
  /** `<c` attributes after the reference and the element's rest, e.g. ` s="3"><v>12.3</v></c>`; '' for none. */
  xml: string;
  /** Characters the cell needs for the column's width (the old writer's measure: see widthOf). */
  width: number;
}
type Raw = string | number | null | undefined;
type CellWriter = (raw: Raw) => Cell;

const NO_CELL: Cell = { xml: '', width: 0 };
const s = (style: number) => (style === 0 ? '' : ` s="${style}"`);

function cellWriter(
  kind: CsvColumn<unknown>['kind'],
  iana: string,
  styles: Styles,
  dateFormat: string,
): CellWriter {
  const text = (raw: string | number, style: number): Cell => {
    const t = xlsxCellText(String(raw));
    return { xml: `${s(style)} t="inlineStr">${inlineString(t)}</c>`, width: t.length };
  };
  const number = (n: number, style: number): Cell => ({
    xml: `${s(style)}><v>${n}</v></c>`,
    width: String(n).length + 4,
  });
  const blank = (style: number): Cell => (style === 0 ? NO_CELL : { xml: `${s(style)}/>`, width: 0 });
  switch (kind) {
    case 'amount': {
      // The decimal string says how many decimals the currency has: one format per count.
      const formats = new Map<number, number>();
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return NO_CELL;
        const m = PLAIN_DECIMAL.exec(String(raw));
        if (!m) return text(raw, 0);
        const decimals = m[1]?.length ?? 0;
        let style = formats.get(decimals);
        if (style === undefined) {
          style = styles.of(decimals ? `#,##0.${'0'.repeat(decimals)}` : '#,##0');
          formats.set(decimals, style);
        }
        return number(Number(raw), style);
      };
    }
    case 'integer':
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return NO_CELL;
        return /^-?\d+$/.test(String(raw)) ? number(Number(raw), 0) : text(raw, 0);
      };
    case 'timestamp': {
      const style = styles.of(dateFormat);
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return NO_CELL;
        const ms = Date.parse(String(raw));
        if (Number.isNaN(ms)) return text(raw, style);
        // Excel dates have no zone: the chosen zone's wall clock, as a serial day number.
        const w = wallClock(ms, iana);
        const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
        return { xml: `${s(style)}><v>${EPOCH_SERIAL + wall / MS_PER_DAY}</v></c>`, width: 19 };
      };
    }
    case 'date': {
      const style = styles.of(DAY_FORMAT);
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return NO_CELL;
        const m = ISO_DAY.exec(String(raw));
        if (!m) return text(raw, 0);
        const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
        return { xml: `${s(style)}><v>${EPOCH_SERIAL + day / MS_PER_DAY}</v></c>`, width: 19 };
      };
    }
    case 'id': {
      const style = styles.of('@');
      return (raw) => (raw === null || raw === undefined || raw === '' ? blank(style) : text(raw, style));
    }
    case 'text':
      return (raw) => (raw === null || raw === undefined || raw === '' ? NO_CELL : text(raw, 0));
  }
}

/** A column width in characters: the header or the longest of the first rows, within reason. */
function widthOf(header: string, longest: number, kind: string): number {
  return Math.min(
    60,
    Math.max(header.length + 3, longest + 2, kind === 'timestamp' ? 20 : kind === 'date' ? 12 : 8),
  );
}

/** "A", "B", … "Z", "AA", …: a column's letters. */
function columnName(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
/** Characters a sheet name may not hold in Excel. */
const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/g;

const PROGRESS_EVERY = 5000;
/** Rows whose widths decide the columns' (the sheet's column list comes before its rows). */
const WIDTH_ROWS = 200;
/** Rows turned into XML per write to the zip: big enough to compress well, small enough to stay flat. */
const ROWS_PER_WRITE = 500;

/** Writes a workbook row by row; the file's bytes go to the sink as they are made. */
export interface XlsxStream<Row> {
  /** Adds rows (resolves when the writer is ready for more). */
  write(rows: Iterable<Row>): Promise<void>;
  /** Ends the sheet and writes the rest of the workbook; the file is complete once this resolves. */
  finish(): Promise<void>;
}

/** Starts a one-sheet .xlsx workbook that streams into `sink`. */
export function createXlsxStream<Row>(
  columns: readonly CsvColumn<Row>[],
  opts: XlsxOptions,
  sink: ZipSink,
): XlsxStream<Row> {
  const zone = opts.zone ?? UTC;
  const dateFormat = opts.dateFormat ?? 'yyyy-mm-dd hh:mm:ss';
  const sheetName =
    xlsxCellText(opts.sheetName).replace(SHEET_NAME_FORBIDDEN, ' ').trim().slice(0, 31) || 'Export';
  const zip = createZipWriter(sink);
  const styles = new Styles();
  const n = columns.length;
  const headers = columns.map((c) => xlsxCellText(headerText(c, zone)));
  const values = columns.map((c) => c.value);
  const writers = columns.map((c) => cellWriter(c.kind, zone.iana, styles, dateFormat));
  const refs = columns.map((_, i) => columnName(i));
  const last = refs[n - 1] ?? 'A';
  // Column formats apply to cells typed later in Excel: ids are Text (@), times and days their formats.
  const columnFormat = (c: CsvColumn<Row>) =>
    c.kind === 'id' ? '@' : c.kind === 'timestamp' ? dateFormat : c.kind === 'date' ? DAY_FORMAT : undefined;
  const columnStyle = columns.map((c) => {
    const f = columnFormat(c);
    return f === undefined ? 0 : styles.of(f);
  });
  const headerStyle = columns.map((c) => styles.of(columnFormat(c), true));
  const longest = new Array<number>(n).fill(0);
  let sheet: ZipEntryWriter | undefined;
  let rowNo = 1;
  let count = 0;
  // Rows held back until the column widths are known (the first WIDTH_ROWS).
  let early: string[] | undefined = [];
  let parts: string[] = [];

  const rowXml = (row: Row): string => {
    rowNo += 1;
    const r = String(rowNo);
    let xml = `<row r="${r}">`;
    for (let i = 0; i < n; i += 1) {
      const cell = writers[i]!(values[i]!(row));
      if (cell.xml === '') continue;
      xml += `<c r="${refs[i]}${r}"${cell.xml}`;
      if (early && cell.width > longest[i]!) longest[i] = cell.width;
    }
    return `${xml}</row>`;
  };

  async function begin(): Promise<void> {
    const cols = columns
      .map((c, i) => {
        const width = widthOf(headers[i] ?? '', longest[i]!, c.kind);
        return `<col min="${i + 1}" max="${i + 1}" width="${width}"${columnStyle[i] ? ` style="${columnStyle[i]}"` : ''} customWidth="1"/>`;
      })
      .join('');
    const head = headers
      .map((h, i) => `<c r="${refs[i]}1" s="${headerStyle[i]}" t="inlineStr">${inlineString(h)}</c>`)
      .join('');
    sheet = zip.entry('xl/worksheets/sheet1.xml');
    await sheet.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>' +
        '<sheetFormatPr defaultRowHeight="15"/>' +
        (n > 0 ? `<cols>${cols}</cols>` : '') +
        `<sheetData><row r="1">${head}</row>`,
    );
    const held = early ?? [];
    early = undefined;
    for (let i = 0; i < held.length; i += ROWS_PER_WRITE)
      await sheet.write(held.slice(i, i + ROWS_PER_WRITE).join(''));
  }

  async function flush(): Promise<void> {
    if (parts.length === 0 || !sheet) return;
    const text = parts.join('');
    parts = [];
    await sheet.write(text);
  }

  async function writeRest(): Promise<void> {
    const part = async (name: string, xml: string) => {
      const e = zip.entry(name);
      await e.write(xml);
      await e.close();
    };
    await part('xl/styles.xml', styles.xml());
    const quoted = `'${sheetName.replace(/'/g, "''")}'`;
    await part(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
        `<sheets><sheet name="${xmlAttr(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
        `<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${xmlText(`${quoted}!$A$1:$${last}$1`)}</definedName></definedNames>` +
        '<calcPr calcId="171027"/></workbook>',
    );
    await part(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    );
    await part(
      'docProps/core.xml',
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Refund Desk</dc:creator></cp:coreProperties>`,
    );
    await part(
      'docProps/app.xml',
      `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Refund Desk</Application></Properties>`,
    );
    await part(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
        `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/></Relationships>`,
    );
    const ct = 'application/vnd.openxmlformats-officedocument';
    await part(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${ct}.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${ct}.spreadsheetml.styles+xml"/>` +
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
        `<Override PartName="/docProps/app.xml" ContentType="${ct}.extended-properties+xml"/></Types>`,
    );
    await zip.finish();
  }

  return {
    async write(rows) {
      for (const row of rows) {
        const xml = rowXml(row);
        count += 1;
        if (early) {
          early.push(xml);
          if (early.length >= WIDTH_ROWS) await begin();
        } else {
          parts.push(xml);
          if (parts.length >= ROWS_PER_WRITE) await flush();
        }
        if (count % PROGRESS_EVERY === 0) opts.onProgress?.(count);
      }
    },
    async finish() {
      if (early) await begin();
      await flush();
      opts.onProgress?.(count);
      await sheet!.write(
        `</sheetData><autoFilter ref="A1:${last}1"/><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
      );
      await sheet!.close();
      await writeRest();
    },
  };
}

/** Writes rows as a one-sheet .xlsx workbook; resolves to the file's bytes (for callers that need them whole). */
export async function writeXlsx<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
  opts: XlsxOptions,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const stream = createXlsxStream(columns, opts, (chunk) => void chunks.push(chunk));
  await stream.write(rows);
  await stream.finish();
  const out = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
