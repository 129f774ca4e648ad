import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { describe, expect, it } from 'vitest';
import { createConfSettingsStore } from '../../../electron/core/adapters/conf-settings-store';
import {
  createEnvSecretStore,
  createMemorySecretStore,
} from '../../../electron/core/adapters/node-secret-stores';
import {
  createSafeStorageSecretStore,
  type SafeStorageLike,
  UNDECRYPTABLE,
} from '../../../electron/app/adapters/safe-storage-secret-store';
import { testConnection } from '../../../electron/core/services/profiles/connection-test';
import { createProfilesService } from '../../../electron/core/services/profiles/service';
import { AppError } from '../../../shared/domain/errors';
import { createFakeClock } from '../../fakes/clock';
import { createFakeSettingsStore } from '../../fakes/stores';
import { SettingsCorruptError } from '../../../electron/core/services/profiles/ports';
import { createFakeLogger } from '../../fakes/logger';

const confStore = (dir: string) =>
  createConfSettingsStore({
    open: () =>
      new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings', projectName: 'refund-desk' }),
    filePath: join(dir, 'settings.json'),
    now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
  });

describe('conf settings store', () => {
  it('round-trips a document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-conf-'));
    confStore(dir).write({ version: 1, profiles: [] });
    expect(confStore(dir).read()).toEqual({ version: 1, profiles: [] });
  });

  it('reports a corrupt file and moves it aside instead of resetting it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-conf-'));
    writeFileSync(join(dir, 'settings.json'), '{"version":1, "profiles": [');
    const store = confStore(dir);
    expect(() => store.read()).toThrow(SettingsCorruptError);
    const moved = store.quarantine();
    expect(moved).toBe(join(dir, 'settings.corrupt-2026-01-02T03-04-05-000Z.json'));
    expect(readFileSync(moved!, 'utf8')).toBe('{"version":1, "profiles": [');
    expect(store.read()).toEqual({});
    store.write({ version: 1 });
    expect(readdirSync(dir).sort()).toEqual([
      'settings.corrupt-2026-01-02T03-04-05-000Z.json',
      'settings.json',
    ]);
  });
});

function fakeSafeStorage(backend: string, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b) => Buffer.from(b.toString().slice(4), 'hex').toString(),
    getSelectedStorageBackend: () => backend,
  };
}

describe('safeStorage secret store', () => {
  it('persists encrypted tokens in a 0600 file, never in clear text', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rd-sec-')), 'secrets.json');
    const store = createSafeStorageSecretStore({
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      file,
      platform: 'linux',
      log: createFakeLogger(),
    });
    expect(store.info()).toMatchObject({ persistent: true, requiresOptIn: false });
    expect(await store.set('p1', 'sekret-token')).toEqual({ persisted: true });
    expect(readFileSync(file, 'utf8')).not.toContain('sekret-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = createSafeStorageSecretStore({
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      file,
      platform: 'linux',
      log: createFakeLogger(),
    });
    expect(await again.get('p1')).toBe('sekret-token');
    await again.delete('p1');
    expect(await again.has('p1')).toBe(false);
  });

  it('moves an unreadable secrets file aside before the next write, instead of overwriting it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-sec-'));
    const file = join(dir, 'secrets.json');
    writeFileSync(file, '{"profile:P1:token":"ZW5jOjAx", "profile:P2');
    const log = createFakeLogger();
    const store = createSafeStorageSecretStore({
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      file,
      platform: 'linux',
      log,
      now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    expect(await store.has('profile:P1:token')).toBe(false);
    expect(await store.set('profile:P3:token', 'new-token-value')).toEqual({ persisted: true });
    const moved = join(dir, 'secrets.corrupt-2026-01-02T03-04-05-000Z.json');
    expect(readdirSync(dir).sort()).toEqual([
      'secrets.corrupt-2026-01-02T03-04-05-000Z.json',
      'secrets.json',
    ]);
    expect(readFileSync(moved, 'utf8')).toBe('{"profile:P1:token":"ZW5jOjAx", "profile:P2');
    expect(await store.get('profile:P3:token')).toBe('new-token-value');
    expect(log.lines.find((l) => l.event === 'secrets.corrupt')).toMatchObject({ level: 'error' });
    expect(JSON.stringify(log.lines)).toContain(moved);
  });

  it('on basic_text keeps the token for the session only, unless the person opted in', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rd-sec-')), 'secrets.json');
    const mk = () =>
      createSafeStorageSecretStore({
        safeStorage: fakeSafeStorage('basic_text'),
        file,
        platform: 'linux',
        log: createFakeLogger(),
      });
    const store = mk();
    expect(store.info()).toMatchObject({ persistent: false, requiresOptIn: true });
    expect(await store.set('p1', 'sekret-token')).toEqual({ persisted: false });
    expect(await store.get('p1')).toBe('sekret-token');
    expect(await mk().has('p1')).toBe(false); // gone after a "restart"
    expect(await store.set('p1', 'sekret-token', { allowPlainText: true })).toEqual({ persisted: true });
    expect(await mk().get('p1')).toBe('sekret-token');
  });

  it('a saved token the keychain can no longer decrypt is said to be that, with what to do — never “no API token yet”', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rd-sec-')), 'secrets.json');
    const settings = createFakeSettingsStore();
    const profilesOver = (safeStorage: SafeStorageLike, log = createFakeLogger()) =>
      createProfilesService({
        settings,
        secrets: createSafeStorageSecretStore({ safeStorage, file, platform: 'linux', log }),
        clock: createFakeClock(),
        log,
      });
    const before = profilesOver(fakeSafeStorage('gnome_libsecret'));
    const p = await before.save({
      name: 'Main store',
      merchantNo: '123456',
      storeNo: '654321',
      environment: 'production',
      ipnEnabled: false,
    });
    await before.setToken(p.id, 'sekret-token-0001');
    expect((await before.gatewayConfig(p.id)).token).toBe('sekret-token-0001');

    // The keychain changed (reset, another user, data copied from another computer): Electron's
    // safeStorage throws on decrypt, as it does then.
    const log = createFakeLogger();
    const after = profilesOver(
      {
        ...fakeSafeStorage('gnome_libsecret'),
        decryptString: () => {
          throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
        },
      },
      log,
    );
    const refused = await after.gatewayConfig(p.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'unauthorized', message: UNDECRYPTABLE });
    expect((refused as AppError).message).toContain('cannot be decrypted');
    expect((refused as AppError).message).toContain('Enter the API token again in Settings');
    expect((refused as AppError).message).not.toContain('no API token');
    // "Test connection" says the same, before anything is sent.
    const tested = await testConnection(
      () =>
        after.gatewayConfig(p.id).then(() => {
          throw new Error('nothing may be sent');
        }),
      createFakeClock(),
    );
    expect(tested).toMatchObject({ verdict: 'credentials', message: UNDECRYPTABLE });
    // The saved token is kept (a keychain that comes back may open it), and the failure is logged
    // without the token.
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toHaveLength(1);
    expect(log.lines.find((l) => l.event === 'secrets.decrypt_failed')).toMatchObject({ level: 'warn' });
    expect(JSON.stringify(log.lines)).not.toContain('sekret-token-0001');
  });

  it('without any encryption never persists, even with opt-in', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rd-sec-')), 'secrets.json');
    const store = createSafeStorageSecretStore({
      safeStorage: fakeSafeStorage('unknown', false),
      file,
      platform: 'win32',
      log: createFakeLogger(),
    });
    expect(await store.set('p1', 'sekret-token', { allowPlainText: true })).toEqual({ persisted: false });
    expect(store.info().requiresOptIn).toBe(false);
  });
});

describe('plain-Node secret stores', () => {
  it('memory store forgets on restart', async () => {
    const s = createMemorySecretStore();
    await s.set('a', 'tok-12345678');
    expect(await s.get('a')).toBe('tok-12345678');
    expect(await createMemorySecretStore().has('a')).toBe(false);
  });

  it('env store reads REFUND_DESK_API_TOKEN for every profile', async () => {
    const s = createEnvSecretStore({ REFUND_DESK_API_TOKEN: ' tok-from-env ' });
    expect(await s.get('anything')).toBe('tok-from-env');
    expect(await createEnvSecretStore({}).has('x')).toBe(false);
  });
});
