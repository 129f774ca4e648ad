import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';

/**
 * The files of versions before the database, as read for their import: what exactly was read (its
 * SHA-256), so that the import decides inside its transaction whether that content was imported already
 * (another process starting at the same moment, an interrupted rename, an older version that wrote more
 * later), and only what was read is renamed afterwards — never a file changed or written since.
 *
 * Each import is recorded in `meta` as `legacy_file:<source>:<sha256>` → { bytes, at }. A file that an
 * older version appended to after an import starts with content already recorded: only its later lines
 * are imported.
 */
export const LEGACY_SOURCES = ['refund-journal.jsonl', 'audit.jsonl', 'ipn-events.jsonl', 'recon'] as const;
export type LegacySource = (typeof LEGACY_SOURCES)[number];

export interface Snapshot {
  source: LegacySource;
  dataDir: string;
  path: string;
  sha: string;
  mtimeMs: number;
  /** A JSON-lines file's bytes. */
  bytes?: Buffer;
  /** The reconciliation folder's job and results files, by name. */
  files?: Map<string, string>;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const gone = (e: unknown) =>
  ['ENOENT', 'EISDIR', 'ENOTDIR'].includes(String((e as NodeJS.ErrnoException).code));

/**
 * What is at a source's path now; undefined when nothing is, or only this version's guard (a directory
 * where an old journal file was, ./older-versions.ts), or it moved while being read.
 */
export function readSource(dataDir: string, source: LegacySource): Snapshot | undefined {
  const path = join(dataDir, source);
  try {
    const st = statSync(path);
    if (source === 'recon') {
      if (!st.isDirectory()) return undefined;
      const files = new Map<string, string>();
      const hash = createHash('sha256');
      for (const name of readdirSync(path).sort()) {
        if (!name.endsWith('.job.json') && !name.endsWith('.results.jsonl')) continue;
        const text = readFileSync(join(path, name), 'utf8');
        files.set(name, text);
        hash.update(`${name}\0${text}\0`);
      }
      return { source, dataDir, path, sha: hash.digest('hex'), mtimeMs: st.mtimeMs, files };
    }
    if (!st.isFile()) return undefined;
    const bytes = readFileSync(path);
    return { source, dataDir, path, sha: sha256(bytes), mtimeMs: st.mtimeMs, bytes };
  } catch (e) {
    if (gone(e)) return undefined;
    throw e;
  }
}

const key = (s: Snapshot, sha = s.sha) => `legacy_file:${s.source}:${sha}`;

/**
 * How much of a snapshot was imported before: 'all', or the number of its leading lines (0: none).
 * Call inside the import's transaction, so that exactly one process imports any content.
 */
export function importedBefore(db: Database, s: Snapshot): 'all' | number {
  if (db.get('SELECT 1 FROM meta WHERE key = ?', key(s))) return 'all';
  const prefix = `legacy_file:${s.source}:`;
  const earlier = db
    .all<{ key: string; value: string }>(
      'SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?',
      prefix.length,
      prefix,
    )
    .map((r) => ({ sha: r.key.slice(prefix.length), bytes: Number(JSON.parse(r.value).bytes) }));
  if (earlier.length === 0) return importedByFirstVersion(db, s) ? 'all' : 0;
  if (!s.bytes) return 0; // a folder's jobs are written again as a whole (upserts)
  let lines = 0;
  for (const e of earlier) {
    if (!(e.bytes > 0 && e.bytes <= s.bytes.length) || sha256(s.bytes.subarray(0, e.bytes)) !== e.sha)
      continue;
    const head = s.bytes.subarray(0, e.bytes).toString('utf8');
    // Lines that start inside the imported head (a torn last line was reported then).
    lines = Math.max(lines, head.split('\n').length - (head.endsWith('\n') ? 1 : 0));
  }
  return lines;
}

/**
 * The first version with the database recorded one import for all files, not each file's content. A file
 * it imported and then failed to rename was last written before that import; one written later (by an
 * older version) was not imported.
 */
function importedByFirstVersion(db: Database, s: Snapshot): boolean {
  const row = db.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'legacy_import'`);
  if (!row) return false;
  const first = JSON.parse(row.value) as { at?: string; format?: number };
  return first.format === undefined && s.mtimeMs <= Date.parse(String(first.at));
}

export function recordImported(db: Database, s: Snapshot, at: string): void {
  db.run(
    'INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)',
    key(s),
    JSON.stringify({ at, bytes: s.bytes?.length ?? 0 }),
  );
}

/**
 * Renames an imported source to `<name>.imported-<stamp>[.jsonl]`, only if it is still exactly what was
 * read: one written to since is left for the next import, one another process moved is left alone.
 */
export function renameIfUnchanged(s: Snapshot, stamp: string): string | undefined {
  const now = readSource(s.dataDir, s.source);
  if (!now || now.sha !== s.sha) return undefined;
  const base = s.source.endsWith('.jsonl')
    ? s.path.replace(/\.jsonl$/, `.imported-${stamp}`)
    : `${s.path}.imported-${stamp}`;
  const ext = s.source.endsWith('.jsonl') ? '.jsonl' : '';
  let to = `${base}${ext}`;
  for (let n = 2; existsSync(to); n += 1) to = `${base}-${n}${ext}`;
  try {
    renameSync(s.path, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // another process renamed it
    throw e;
  }
  return to;
}
