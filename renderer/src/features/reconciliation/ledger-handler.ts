import { parseCsvBytes, type ParsedCsv } from '../../../../shared/csv/parser';
import { isZip, openWorkbook, type OpenWorkbook } from '../../../../shared/csv/xlsx-read';
import { collapseReasons } from '../../../../shared/recon/reasons';
import {
  detectFormats,
  formatsFrom,
  toLedgerRows,
  type FormatEvidence,
  type LedgerFormats,
  type LedgerImport,
  type LedgerRow,
} from '../../../../shared/recon/ledger';
import { ledgerKeys, lookupKey } from '../../../../shared/recon/match';
import { MAPPING_FIELDS, mappingIssues, type ColumnMapping } from '../../../../shared/recon/mapping';
import {
  PREVIEW_ROWS,
  ROWS_CHUNK,
  UNUSABLE_SHOWN,
  type FromLedgerWorker,
  type MapAnswer,
  type ToLedgerWorker,
} from './ledger-protocol';

/** The period the ledger's own dates span, else the previous calendar month (local days). */
export function ledgerPeriod(
  rows: readonly Pick<LedgerRow, 'day'>[],
  now = new Date(),
): { from: string; to: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const { day } of rows) {
    if (!day) continue;
    if (from === undefined || day < from) from = day;
    if (to === undefined || day > to) to = day;
  }
  if (from !== undefined && to !== undefined) return { from, to };
  const first = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const last = new Date(now.getFullYear(), now.getMonth(), 0);
  const iso = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: iso(first), to: iso(last) };
}

/** The distinct transaction numbers among the rows, as the run looks them up in the cache. */
export const transactionNumbers = (rows: readonly LedgerRow[]) =>
  ledgerKeys(rows)
    .map(lookupKey)
    .filter((k) => k.startsWith('tx:'))
    .map((k) => k.slice(3));

const mappingKey = (m: ColumnMapping) => MAPPING_FIELDS.map((f) => m[f] ?? '').join('\u0000');
const message = (err: unknown, fallback: string) => (err instanceof Error ? err.message : fallback);

/**
 * The worker's side of the mapping step, free of worker globals so a test can drive it in-process.
 * It keeps the parsed file (the page never holds its rows) and reads it with a mapping on request:
 * format detection, ledger rows, the ledger's period — the work that froze the window on a
 * month-end ledger. Mapping requests are read on the next task, and only the latest one is answered:
 * a person changing three columns in a row costs one read, and no answer for an older mapping is sent.
 * The last evidence and read are kept, so changing only a format does not detect again, and the
 * rows handed over for a run are the ones the page's figures came from.
 */
export function createLedgerHandler(deps: {
  post: (m: FromLedgerWorker) => void;
  /** Runs a function on a later task (setTimeout in the worker), after messages already queued. */
  later: (fn: () => void) => void;
  now?: () => Date;
}) {
  let file: (ParsedCsv & { sheet?: string }) | null = null;
  let workbook: OpenWorkbook | null = null;
  let evidence: { key: string; value: FormatEvidence } | null = null;
  let imported: { key: string; value: LedgerImport | null } | null = null;
  let pendingMap: Extract<ToLedgerWorker, { kind: 'map' }> | null = null;

  const evidenceFor = (parsed: ParsedCsv, mapping: ColumnMapping) => {
    const key = mappingKey(mapping);
    if (evidence?.key !== key) evidence = { key, value: detectFormats(parsed, mapping) };
    return evidence.value;
  };

  /** The file read with a mapping and format choice; null when the mapping has issues. */
  function read(parsed: ParsedCsv, mapping: ColumnMapping, chosen: Partial<LedgerFormats>) {
    const ev = evidenceFor(parsed, mapping);
    const formats = formatsFrom(ev, chosen);
    const key = `${mappingKey(mapping)}\u0001${formats.decimal}\u0001${formats.dateOrder}`;
    if (imported?.key !== key) {
      const ok = mappingIssues(mapping, parsed.headers).length === 0;
      imported = { key, value: ok ? toLedgerRows(parsed, mapping, formats) : null };
    }
    return { evidence: ev, formats, imported: imported.value };
  }

  function answerMap() {
    const req = pendingMap;
    pendingMap = null;
    if (!req) return;
    try {
      if (!file) throw new Error('No file has been read.');
      const { evidence: ev, formats, imported: got } = read(file, req.mapping, req.chosen);
      const unusable = got
        ? got.unusable
        : file.problems.map((p) => ({
            line: p.line,
            reason: p.message,
            ...(p.cause ? { cause: p.cause } : {}),
          }));
      const notes = got
        ? got.rows.flatMap((r) => (r.keyNote ? [{ line: r.line, reason: r.keyNote }] : []))
        : [];
      const answer: MapAnswer = {
        evidence: ev,
        formats,
        readable: got !== null,
        read: got?.rows.length ?? 0,
        dataRows: got?.dataRows ?? file.dataRows,
        unusableCount: unusable.length,
        // Rows that share a reason are one line, with their lines: 30 rows of one fault read as one.
        unusableGroups: collapseReasons(unusable).slice(0, UNUSABLE_SHOWN),
        notes: collapseReasons(notes).slice(0, UNUSABLE_SHOWN),
        period: ledgerPeriod(got?.rows ?? [], deps.now?.()),
      };
      deps.post({ kind: 'mapped', id: req.id, answer });
    } catch (err) {
      deps.post({ kind: 'failed', id: req.id, message: message(err, 'The file could not be read.') });
    }
  }

  /** Reads a file (or a workbook's sheet) and keeps it, answering with what the page shows of it. */
  function readFile(id: number, parse: () => ParsedCsv & { sheet?: string }) {
    try {
      file = parse();
      evidence = null;
      imported = null;
      const { headers, encoding, delimiter, dataRows, sheet } = file;
      const preview = file.rows.slice(0, PREVIEW_ROWS).map(({ line, cells }) => ({ line, cells }));
      const kind = sheet === undefined ? ('csv' as const) : ('xlsx' as const);
      const sheets = workbook && sheet !== undefined ? { sheet, sheets: workbook.sheets } : {};
      deps.post({
        kind: 'parsed',
        id,
        file: { kind, ...sheets, headers, encoding, delimiter, dataRows, preview },
      });
    } catch (err) {
      deps.post({ kind: 'failed', id, message: message(err, 'The file could not be read.') });
    }
  }

  function onMessage(msg: ToLedgerWorker) {
    if (msg.kind === 'parse' || msg.kind === 'sheet') {
      const bytes = msg.kind === 'parse' ? new Uint8Array(msg.bytes) : undefined;
      // A workbook is opened once (exceljs reads it whole, asynchronously) and kept for another sheet.
      if (bytes && isZip(bytes)) {
        openWorkbook(bytes).then(
          (book) => {
            workbook = book;
            readFile(msg.id, () => book.read());
          },
          (err: unknown) =>
            deps.post({ kind: 'failed', id: msg.id, message: message(err, 'The file could not be read.') }),
        );
        return;
      }
      if (msg.kind === 'sheet') {
        const book = workbook;
        readFile(msg.id, () => {
          if (!book) throw new Error('No workbook has been read.');
          return book.read(msg.name);
        });
        return;
      }
      workbook = null;
      readFile(msg.id, () => parseCsvBytes(bytes!));
    } else if (msg.kind === 'map') {
      // A newer request replaces one not yet read: only the latest is answered.
      const first = pendingMap === null;
      pendingMap = msg;
      if (first) deps.later(answerMap);
    } else {
      try {
        if (!file) throw new Error('No file has been read.');
        const got = read(file, msg.mapping, msg.chosen).imported;
        if (!got) throw new Error('The columns do not fit this file.');
        const chunks = Math.max(
          1,
          Math.ceil(got.rows.length / ROWS_CHUNK),
          Math.ceil(got.unusable.length / ROWS_CHUNK),
        );
        for (let i = 0; i < chunks; i += 1) {
          const at = i * ROWS_CHUNK;
          deps.post({
            kind: 'rows',
            id: msg.id,
            rows: got.rows.slice(at, at + ROWS_CHUNK),
            unusable: got.unusable.slice(at, at + ROWS_CHUNK),
            last: i === chunks - 1,
            // A 100k-step walk the page would otherwise do when the run starts.
            ...(i === chunks - 1 && { transactionNos: transactionNumbers(got.rows) }),
          });
        }
      } catch (err) {
        deps.post({
          kind: 'failed',
          id: msg.id,
          message: message(err, 'The rows could not be handed over.'),
        });
      }
    }
  }

  return { onMessage };
}
