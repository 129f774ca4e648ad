/**
 * Storage ports of the profiles service. Electron: electron-store + safeStorage adapters; browser host
 * and CLI: conf + in-memory/env adapters; tests: test/fakes/stores.ts.
 */

/**
 * Thrown by SettingsStore.read when the file exists but cannot be used. `why` completes the sentence
 * "The settings file … and was moved aside" for the person (e.g. "held null instead of settings").
 */
export class SettingsCorruptError extends Error {
  override name = 'SettingsCorruptError';
  constructor(
    message: string,
    readonly why?: string,
  ) {
    super(message);
  }
}

/** The non-secret settings document (one JSON file). */
export interface SettingsStore {
  /** The stored document; `{}` when there is none yet. Throws SettingsCorruptError when unreadable. */
  read(): Record<string, unknown>;
  write(doc: Record<string, unknown>): void;
  /** Moves the current file aside (kept for the person to inspect); returns its new path. */
  quarantine(): string | undefined;
  /** What the last read had to work around but could still use (e.g. a byte-order mark), for notices. */
  readNotes?(): readonly string[];
}

export interface SecretStoreInfo {
  /** e.g. 'safeStorage:gnome_libsecret', 'memory', 'environment'. */
  backend: string;
  /** True when a token survives a restart without any opt-in. */
  persistent: boolean;
  /** True on Linux's `basic_text` backend: persisting needs the person's explicit consent. */
  requiresOptIn: boolean;
}

/**
 * Where API tokens live: main only. There is deliberately no way to list secrets, and nothing here is
 * reachable from the renderer except through set/clear/has in the profiles service.
 */
export interface SecretStore {
  info(): SecretStoreInfo;
  get(key: string): Promise<string | undefined>;
  has(key: string): Promise<boolean>;
  /** `allowPlainText`: the person opted in to storing without real encryption (basic_text). */
  set(key: string, secret: string, opts?: { allowPlainText?: boolean }): Promise<{ persisted: boolean }>;
  delete(key: string): Promise<void>;
}
