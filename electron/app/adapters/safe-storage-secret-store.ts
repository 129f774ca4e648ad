import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from '../../core/services/ports';
import type { SecretStore } from '../../core/services/profiles/ports';
import { AppError } from '../../../shared/domain/errors';

/** What a person reads when a saved token cannot be decrypted: what happened, why, and what to do. */
export const UNDECRYPTABLE =
  'This profile’s API token is saved on this computer but cannot be decrypted: the system keychain that encrypted it is no longer available to Refund Desk (it was reset or changed, or the app’s data was copied from another computer or user account). Nothing was sent. Enter the API token again in Settings (Credentials and connection → Replace the API token), then try again.';

/**
 * The part of Electron's `safeStorage` we use, typed structurally so this adapter does not import
 * Electron (the composition root passes the real object; tests pass a fake).
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only; 'basic_text' means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

/**
 * Tokens encrypted with the OS keychain through safeStorage, stored as base64 in a 0600 JSON file.
 * When the only backend is Linux's `basic_text` (or encryption is unavailable) a token is kept in
 * memory for the session unless the person explicitly opted in to storing it anyway.
 */
export function createSafeStorageSecretStore(opts: {
  safeStorage: SafeStorageLike;
  file: string;
  platform: string;
  log: Logger;
  now?: () => number;
}): SecretStore {
  const { safeStorage } = opts;
  const now = opts.now ?? Date.now;
  /** The file on disk could not be read: the next write must not replace it (it may hold other tokens). */
  let unreadable = false;
  const session = new Map<string, string>();
  const backend = () =>
    opts.platform === 'linux' ? (safeStorage.getSelectedStorageBackend?.() ?? 'unknown') : 'os';
  const weak = () => !safeStorage.isEncryptionAvailable() || backend() === 'basic_text';

  const readFile = (): Record<string, string> => {
    unreadable = false;
    if (!existsSync(opts.file)) return {};
    try {
      const data = JSON.parse(readFileSync(opts.file, 'utf8')) as unknown;
      if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, string>;
    } catch {
      // handled below
    }
    // An unreadable vault means every stored token is lost; say so, keep the file for inspection.
    unreadable = true;
    opts.log.error('secrets.unreadable', { file: opts.file });
    return {};
  };
  /** Moves an unreadable file aside (`secrets.corrupt-<time>.json`, like settings) before it is replaced. */
  const quarantine = () => {
    const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
    const ext = extname(opts.file);
    const target = join(dirname(opts.file), `${basename(opts.file, ext)}.corrupt-${stamp}${ext || '.json'}`);
    renameSync(opts.file, target);
    unreadable = false;
    opts.log.error('secrets.corrupt', { file: opts.file, movedTo: target });
  };
  const writeFile = (data: Record<string, string>) => {
    if (unreadable && existsSync(opts.file)) quarantine();
    mkdirSync(dirname(opts.file), { recursive: true });
    const tmp = `${opts.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, opts.file);
  };

  return {
    info: () => ({
      backend: `safeStorage:${backend()}`,
      persistent: !weak(),
      requiresOptIn: weak() && safeStorage.isEncryptionAvailable(),
    }),
    async get(key) {
      if (session.has(key)) return session.get(key);
      const enc = readFile()[key];
      if (!enc) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(enc, 'base64'));
      } catch {
        // A token is there but this computer's keychain cannot open it. Saying "no token" would send the
        // person looking for a token they did add; the stored one is kept (a keychain that comes back
        // may open it again) until they enter it anew.
        opts.log.warn('secrets.decrypt_failed', { key });
        throw new AppError('unauthorized', UNDECRYPTABLE, { retryable: false });
      }
    },
    async has(key) {
      return session.has(key) || readFile()[key] !== undefined;
    },
    async set(key, secret, setOpts = {}) {
      const data = readFile();
      delete data[key];
      if (weak() && !(setOpts.allowPlainText && safeStorage.isEncryptionAvailable())) {
        session.set(key, secret);
        writeFile(data);
        return { persisted: false };
      }
      session.delete(key);
      data[key] = safeStorage.encryptString(secret).toString('base64');
      writeFile(data);
      return { persisted: true };
    },
    async delete(key) {
      session.delete(key);
      const data = readFile();
      if (key in data) {
        delete data[key];
        writeFile(data);
      }
    },
  };
}
