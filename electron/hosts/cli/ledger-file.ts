/**
 * Reads a ledger file for `cli reconcile` within the app's limits (shared/recon/limits.ts), checked
 * before the file is in memory whole: a file's size first, from the file system (a 400 MB ledger is
 * refused without reading a byte of it); then its rows and columns, counted as the bytes arrive
 * (shared/csv/record-count.ts), reading stopped at the first row or column over the limit. A file is
 * read into one buffer of the size checked, so it never takes more memory than the limit allows; a
 * pipe (no size to check) is read up to the limit and no further. An Excel workbook (.xlsx, a zip) is
 * held to the same size here; its rows and columns are counted by the workbook reader
 * (shared/csv/xlsx-read.ts), which also refuses a workbook that unpacks to more than a ledger can be.
 */
import { open } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { decodeCsvBytes, guessDelimiter } from '../../../shared/csv/parser';
import { isZip } from '../../../shared/csv/xlsx-read';
import { createRecordCounter, type RecordCount } from '../../../shared/csv/record-count';
import {
  ledgerColumnsProblem,
  ledgerRowsProblem,
  ledgerSizeProblem,
  RECON_MAX_BYTES,
  RECON_MAX_COLUMNS,
  RECON_MAX_ROWS,
} from '../../../shared/recon/limits';

export type LedgerFile = { bytes: Uint8Array } | { problem: string };

/** Enough bytes to decide the encoding and guess the delimiter as the parser does (its first 64 Ki characters). */
const HEAD_BYTES = 512 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/** A head cut inside a UTF-8 character, trimmed to the last whole one (a cut one would read as Windows-1252). */
function wholeUtf8(head: Uint8Array): Uint8Array {
  let end = head.length;
  while (end > 0 && head.length - end < 3 && (head[end - 1]! & 0xc0) === 0x80) end -= 1;
  return end > 0 && head[end - 1]! >= 0xc0 ? head.subarray(0, end - 1) : head.subarray(0, end);
}

/**
 * Counts records and fields of bytes as they arrive. The first HEAD_BYTES decide the encoding and the
 * delimiter (as the parser decides them from the whole text); then every byte is decoded once and
 * counted, and nothing is kept.
 */
function createScan() {
  const over = (c: RecordCount) => c.dataRows > RECON_MAX_ROWS || c.widest.fields > RECON_MAX_COLUMNS;
  const head: Uint8Array[] = [];
  let headLength = 0;
  let decoder: TextDecoder | undefined;
  let counter: ReturnType<typeof createRecordCounter> | undefined;

  function begin(complete: boolean) {
    const bytes = new Uint8Array(headLength);
    let at = 0;
    for (const h of head) {
      bytes.set(h, at);
      at += h.length;
    }
    head.length = 0;
    const { encoding } = decodeCsvBytes(complete ? bytes : wholeUtf8(bytes));
    // Windows-1252 and UTF-8 agree on every byte that structures a CSV (ASCII); latin1 keeps the rest 1:1.
    decoder = new TextDecoder(encoding === 'windows-1252' ? 'latin1' : encoding);
    const text = decoder.decode(bytes, { stream: true });
    const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
    counter = createRecordCounter(guessDelimiter(body.slice(0, 128 * 1024).replace(/\r\n?/g, '\n')), over);
    counter.push(text);
  }

  return {
    get stopped() {
      return counter?.stopped ?? false;
    },
    push(piece: Uint8Array) {
      if (counter) return counter.push(decoder!.decode(piece, { stream: true }));
      // Copied: the caller may reuse the buffer the piece is in.
      head.push(piece.slice());
      headLength += piece.length;
      if (headLength >= HEAD_BYTES) begin(false);
    },
    /** Which limit the file passed, if any (at the end of the file, or when the count stopped). */
    problem(): string | undefined {
      if (!counter) begin(true);
      if (!counter!.stopped) {
        counter!.push(decoder!.decode());
        counter!.end();
      }
      const c = counter!.count;
      return (
        ledgerColumnsProblem(c.widest.fields, c.widest.line) ??
        ledgerRowsProblem(c.dataRows, c.dataRows > RECON_MAX_ROWS ? c.lastRowLine : undefined)
      );
    },
  };
}

/**
 * The file's bytes when it is within the limits, else the sentence that says which limit was passed
 * and what to do. File-system errors (missing, unreadable, a directory) are thrown as they are.
 */
export async function readLedgerFile(path: string): Promise<LedgerFile> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    const tooBig = info.isFile() ? ledgerSizeProblem(info.size) : undefined;
    if (tooBig) return { problem: tooBig };
    // A file is read into one buffer of its size; a pipe in pieces, up to the limit.
    const whole = info.isFile() ? new Uint8Array(info.size) : undefined;
    const pieces: Uint8Array[] = [];
    const pipeChunk = whole ? undefined : new Uint8Array(CHUNK_BYTES);
    const scan = createScan();
    let total = 0;
    // A workbook is not text: its first bytes say so, and it is not counted as CSV records.
    let workbook = false;
    for (;;) {
      const target = whole ? whole.subarray(total, Math.min(whole.length, total + CHUNK_BYTES)) : pipeChunk!;
      if (target.length === 0) break;
      const { bytesRead } = await handle.read(target, 0, target.length, null);
      if (bytesRead === 0) break;
      const piece = target.subarray(0, bytesRead);
      total += bytesRead;
      if (!whole) {
        if (total > RECON_MAX_BYTES) return { problem: ledgerSizeProblem(total, { atLeast: true })! };
        pieces.push(piece.slice());
      }
      if (total === bytesRead && isZip(piece)) workbook = true;
      if (workbook) continue;
      scan.push(piece);
      if (scan.stopped) break;
    }
    const problem = workbook ? undefined : scan.problem();
    if (problem) return { problem };
    if (whole) {
      const { bytesRead: grew } = await handle.read(new Uint8Array(1), 0, 1, null);
      if (grew > 0)
        return {
          problem:
            'The file grew while it was being read (is it still being written?). Run again once it is complete.',
        };
      return { bytes: total === whole.length ? whole : whole.subarray(0, total) };
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of pieces) {
      bytes.set(p, at);
      at += p.length;
    }
    return { bytes };
  } finally {
    await handle.close();
  }
}
