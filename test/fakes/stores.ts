import {
  SettingsCorruptError,
  type SecretStore,
  type SecretStoreInfo,
  type SettingsStore,
} from '../../electron/core/services/profiles/ports';

/** In-memory settings document; `corrupt` makes the next read fail like an unparseable file. */
export function createFakeSettingsStore(initial: Record<string, unknown> = {}): SettingsStore & {
  doc: Record<string, unknown>;
  corrupt: boolean;
  quarantined: number;
} {
  const self = {
    doc: structuredClone(initial),
    corrupt: false,
    quarantined: 0,
    read() {
      if (self.corrupt) throw new SettingsCorruptError('SyntaxError');
      return structuredClone(self.doc);
    },
    write(doc: Record<string, unknown>) {
      self.doc = structuredClone(doc);
    },
    quarantine() {
      self.quarantined += 1;
      self.corrupt = false;
      self.doc = {};
      return '/fake/settings.corrupt-1.json';
    },
  };
  return self;
}

/** In-memory secret store with a configurable info() (e.g. basic_text). */
export function createFakeSecretStore(
  info: Partial<SecretStoreInfo> = {},
): SecretStore & { secrets: Map<string, string> } {
  const secrets = new Map<string, string>();
  return {
    secrets,
    info: () => ({ backend: 'fake', persistent: true, requiresOptIn: false, ...info }),
    get: async (k) => secrets.get(k),
    has: async (k) => secrets.has(k),
    set: async (k, v) => {
      secrets.set(k, v);
      return { persisted: true };
    },
    delete: async (k) => void secrets.delete(k),
  };
}
