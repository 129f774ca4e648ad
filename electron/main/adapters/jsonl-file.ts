import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Append-only JSON-lines file where each line is self-describing and checksummed (DESIGN.md "Data").
 * `append` returns only after the bytes are fsync'ed, so a caller may then act on what it wrote (send
 * the refund it describes). Reading tolerates a torn last line and reports damaged lines instead of
 * losing the file.
 */
export interface JsonlRecord<T> {
  line: number;
  value: T;
}
export interface JsonlProblem {
  line: number;
  reason: string;
}
export interface JsonlFile<T> {
  readonly path: string;
  append(value: T): void;
  readAll(): { records: JsonlRecord<T>[]; problems: JsonlProblem[] };
  /**
   * Complete lines appended since byte `offset` (by this or another process), and the offset to pass
   * next time. A line still being written (no newline yet) is left for the next call.
   */
  readSince(offset: number): { records: JsonlRecord<T>[]; problems: JsonlProblem[]; nextOffset: number };
  close(): void;
}

const checksum = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

/** Wraps a value as `{"c":"<checksum>","d":<json>}` so corruption of either part is detected. */
export function encodeLine(value: unknown): string {
  const d = JSON.stringify(value);
  return `{"c":"${checksum(d)}","d":${d}}\n`;
}

export function decodeLine(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const m = /^\{"c":"([0-9a-f]{16})","d":(.*)\}$/.exec(text);
  if (!m) return { ok: false, reason: 'not a journal line' };
  const [, sum, d] = m;
  if (checksum(d!) !== sum) return { ok: false, reason: 'checksum mismatch' };
  try {
    return { ok: true, value: JSON.parse(d!) };
  } catch {
    return { ok: false, reason: 'unreadable JSON' };
  }
}

/** Reads a journal without opening it for writing (exports, inspection). A missing file reads as empty. */
export function readJsonlFile<T>(path: string): { records: JsonlRecord<T>[]; problems: JsonlProblem[] } {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const records: JsonlRecord<T>[] = [];
  const problems: JsonlProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const r = decodeLine(raw);
    if (r.ok) records.push({ line: i + 1, value: r.value as T });
    else problems.push({ line: i + 1, reason: r.reason });
  });
  return { records, problems };
}

export function openJsonlFile<T>(path: string): JsonlFile<T> {
  mkdirSync(dirname(path), { recursive: true });
  // A crash can leave a final line without its newline; start appends on a fresh line so the next
  // record is not glued to the torn one.
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) {
      const fd0 = openSync(path, 'a');
      writeSync(fd0, '\n');
      fsyncSync(fd0);
      closeSync(fd0);
    }
  }
  const fd = openSync(path, 'a', 0o600);
  let closed = false;
  return {
    path,
    append(value) {
      if (closed) throw new Error('journal is closed');
      writeSync(fd, encodeLine(value));
      fsyncSync(fd);
    },
    readAll: () => readJsonlFile<T>(path),
    readSince(offset) {
      const all = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
      const end = all.lastIndexOf(0x0a) + 1; // up to and including the last complete line
      if (end <= offset) return { records: [], problems: [], nextOffset: Math.max(offset, 0) };
      const records: JsonlRecord<T>[] = [];
      const problems: JsonlProblem[] = [];
      const firstLine = all.subarray(0, offset).toString('utf8').split('\n').length;
      all
        .subarray(offset, end)
        .toString('utf8')
        .split('\n')
        .forEach((raw, i) => {
          if (raw.trim() === '') return;
          const r = decodeLine(raw);
          if (r.ok) records.push({ line: firstLine + i, value: r.value as T });
          else problems.push({ line: firstLine + i, reason: r.reason });
        });
      return { records, problems, nextOffset: end };
    },
    close() {
      if (!closed) closeSync(fd);
      closed = true;
    },
  };
}
