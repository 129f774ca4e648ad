import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { SettingsCorruptError, type SettingsStore } from '../services/profiles/ports';

/** The part of conf / electron-store (same API) this adapter uses. */
export interface ConfLike {
  store: Record<string, unknown>;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How a parsed JSON value that is not an object reads in the notice. */
function describeNonObject(value: unknown): string | undefined {
  if (value === null) return 'held null instead of settings';
  if (Array.isArray(value))
    return `held a list (${value.length} item${value.length === 1 ? '' : 's'}) instead of settings`;
  if (typeof value !== 'object') return `held a single ${typeof value} instead of settings`;
  return undefined;
}

/**
 * Looks at the file before conf / electron-store does, for the two cases they get wrong:
 * - a UTF-8 byte-order mark (Notepad adds one): JSON.parse refuses it, so the file would be called
 *   unreadable and moved aside. It is removed in place (same bytes otherwise) and a note is kept.
 * - valid JSON that is not an object (`null`, `[]`, `"x"`): they read it as `{}`, i.e. silently a first
 *   run. It is reported as damage instead, so the file is kept aside and the person is told.
 * Unparseable text is left to the store, which throws SyntaxError (reported as corrupt).
 */
function inspectFile(filePath: string): string[] {
  let raw: Buffer;
  try {
    raw = readFileSync(filePath);
  } catch {
    return []; // missing (first run) or unreadable: the store's own open decides
  }
  const notes: string[] = [];
  if (raw.subarray(0, 3).equals(BOM)) {
    raw = raw.subarray(3);
    const tmp = `${filePath}.bom-${process.pid}.tmp`;
    writeFileSync(tmp, raw, { mode: statSync(filePath).mode & 0o777 });
    renameSync(tmp, filePath);
    notes.push(
      'The settings file began with a byte-order mark (some editors add one). It was read normally and saved without it.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return notes;
  }
  const why = describeNonObject(parsed);
  if (why) throw new SettingsCorruptError('not an object', why);
  return notes;
}

/**
 * Settings store over conf (plain Node) or electron-store (Electron): both read the file in their
 * constructor and throw on bad JSON, so we open lazily and turn that into SettingsCorruptError. The
 * corrupt file is renamed to `<name>.corrupt-<time>.json` beside it, never deleted.
 */
export function createConfSettingsStore(opts: {
  open: () => ConfLike;
  filePath: string;
  now?: () => number;
}): SettingsStore {
  const now = opts.now ?? Date.now;
  let conf: ConfLike | undefined;
  let notes: string[] = [];
  const handle = (): ConfLike => {
    if (conf) return conf;
    notes = inspectFile(opts.filePath);
    try {
      conf = opts.open();
      return conf;
    } catch (e) {
      if (existsSync(opts.filePath))
        throw new SettingsCorruptError(e instanceof Error ? e.name : 'unreadable');
      throw e;
    }
  };
  return {
    read() {
      try {
        return { ...handle().store };
      } catch (e) {
        if (e instanceof SettingsCorruptError) throw e;
        if (e instanceof SyntaxError) throw new SettingsCorruptError('SyntaxError');
        throw e;
      }
    },
    readNotes: () => notes,
    write(doc) {
      handle().store = doc;
    },
    quarantine() {
      if (!existsSync(opts.filePath)) return undefined;
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      const ext = extname(opts.filePath);
      const target = join(
        dirname(opts.filePath),
        `${basename(opts.filePath, ext)}.corrupt-${stamp}${ext || '.json'}`,
      );
      renameSync(opts.filePath, target);
      conf = undefined; // reopen on the (now missing) file: a fresh, empty store
      return target;
    },
  };
}
