import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../services/ports';
import type { SecretStore } from '../services/profiles/ports';

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
export function createSafeStorageSecretStore(opts: { safeStorage: SafeStorageLike; file: string; platform: string; log: Logger }): SecretStore {
  const { safeStorage } = opts;
  const session = new Map<string, string>();
  const backend = () => (opts.platform === 'linux' ? (safeStorage.getSelectedStorageBackend?.() ?? 'unknown') : 'os');
  const weak = () => !safeStorage.isEncryptionAvailable() || backend() === 'basic_text';

  const readFile = (): Record<string, string> => {
    if (!existsSync(opts.file)) return {};
    try {
      const data = JSON.parse(readFileSync(opts.file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, string>) : {};
    } catch {
      // An unreadable vault means every stored token is lost; say so, keep the file for inspection.
      opts.log.error('secrets.unreadable', { file: opts.file });
      return {};
    }
  };
  const writeFile = (data: Record<string, string>) => {
    mkdirSync(dirname(opts.file), { recursive: true });
    const tmp = `${opts.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, opts.file);
  };

  return {
    info: () => ({ backend: `safeStorage:${backend()}`, persistent: !weak(), requiresOptIn: weak() && safeStorage.isEncryptionAvailable() }),
    async get(key) {
      if (session.has(key)) return session.get(key);
      const enc = readFile()[key];
      if (!enc) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(enc, 'base64'));
      } catch {
        opts.log.warn('secrets.decrypt_failed', { key });
        return undefined;
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
