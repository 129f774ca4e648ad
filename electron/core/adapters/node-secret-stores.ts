import type { SecretStore } from '../services/profiles/ports';

/**
 * Session-only secret store: tokens live in this process's memory and are gone on exit. Used by the
 * browser host (a development/test host: it deliberately never writes tokens to disk).
 */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    info: () => ({ backend: 'memory', persistent: false, requiresOptIn: false }),
    get: async (key) => secrets.get(key),
    has: async (key) => secrets.has(key),
    set: async (key, secret) => {
      secrets.set(key, secret);
      return { persisted: false };
    },
    delete: async (key) => void secrets.delete(key),
  };
}

/**
 * CLI secret store: every profile's token is REFUND_DESK_API_TOKEN from the environment (read when
 * asked, never copied elsewhere). Setting one only lasts for the run.
 */
export function createEnvSecretStore(
  env: NodeJS.ProcessEnv = process.env,
  variable = 'REFUND_DESK_API_TOKEN',
): SecretStore {
  const session = createMemorySecretStore();
  const fromEnv = () => {
    const v = env[variable]?.trim();
    return v ? v : undefined;
  };
  return {
    info: () => ({ backend: 'environment', persistent: false, requiresOptIn: false }),
    get: async (key) => (await session.get(key)) ?? fromEnv(),
    has: async (key) => (await session.has(key)) || fromEnv() !== undefined,
    set: (key, secret) => session.set(key, secret),
    delete: (key) => session.delete(key),
  };
}
