import { existsSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { SettingsCorruptError, type SettingsStore } from '../services/profiles/ports';

/** The part of conf / electron-store (same API) this adapter uses. */
export interface ConfLike {
  store: Record<string, unknown>;
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
  const handle = (): ConfLike => {
    if (conf) return conf;
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
