import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import {
  openDeskStorage,
  TEAM_PASSWORD_KEY,
  teamConnectionFrom,
} from '../../../electron/core/adapters/team-settings';
import { createFakeLogger } from '../../fakes/logger';
import { createFakeSecretStore, createFakeSettingsStore } from '../../fakes/stores';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * The desktop app's choice of storage (electron/app/main.ts calls openDeskStorage): the team connection
 * from Settings (address, CA file, login — non-secret) and the password from main's secret store, against
 * a real throw-away PostgreSQL.
 */
let cluster: TestCluster;
let db: string;
const PW = 'Dora-desk-pw!';
beforeAll(async () => {
  cluster = await startPostgres();
  db = `desk_settings_${process.pid}`;
  const owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  await cluster.createLogin('dora', PW);
  await addPerson({ connectionString: owner }, { login: 'dora', role: 'maker', limits: [] });
}, 60_000);
afterAll(() => cluster?.stop());

const dir = () => mkdtempSync(join(tmpdir(), 'rd-desk-settings-'));
const address = () => `postgres://${cluster.host}:${cluster.port}/${db}`;

describe('the team connection in Settings', () => {
  it('none set: the SQLite file alone; set: address and login from settings, password only from the secret store', async () => {
    const log = createFakeLogger();
    expect(await teamConnectionFrom(createFakeSettingsStore(), createFakeSecretStore(), log)).toBeUndefined();
    const secrets = createFakeSecretStore();
    await secrets.set(TEAM_PASSWORD_KEY, PW);
    // A password written into the settings' address is never used (it would be on disk in clear).
    const settings = createFakeSettingsStore({
      teamDatabase: {
        address: `postgres://x:in-settings@${cluster.host}:${cluster.port}/${db}`,
        login: 'dora',
      },
    });
    const conn = await teamConnectionFrom(settings, secrets, log);
    expect(conn).toEqual({ url: `postgres://dora@${cluster.host}:${cluster.port}/${db}`, password: PW });
    await expect(
      teamConnectionFrom(
        createFakeSettingsStore({ teamDatabase: { address: 'http://db:5432/x' } }),
        secrets,
        log,
      ),
    ).rejects.toThrow(/must start with postgres:\/\//);
    await expect(
      teamConnectionFrom(
        createFakeSettingsStore({ teamDatabase: { address: address(), caFile: '/nonexistent/ca.pem' } }),
        secrets,
        log,
      ),
    ).rejects.toThrow(/CA file .* cannot be read/);

    const storage = await openDeskStorage({
      dataDir: dir(),
      now: Date.now,
      log,
      settings,
      secrets,
      deskId: 'dora-laptop',
    });
    try {
      expect(storage.untrusted()).toBeUndefined();
      expect(storage.notes?.()[0]!.detail).toMatch(/as dora, schema/);
      expect(JSON.stringify(storage.notes?.())).not.toContain(PW);
    } finally {
      await storage.close();
    }
  });

  it('a team database that cannot be opened leaves the desk read-only with the reason, never alone on its own journal', async () => {
    const secrets = createFakeSecretStore();
    await secrets.set(TEAM_PASSWORD_KEY, 'wrong-pw-xyz');
    const storage = await openDeskStorage({
      dataDir: dir(),
      now: Date.now,
      log: createFakeLogger(),
      settings: createFakeSettingsStore({ teamDatabase: { address: address(), login: 'dora' } }),
      secrets,
      deskId: 'dora-laptop',
    });
    try {
      expect(storage.untrusted()).toMatch(/refused this login: check the login and password/);
      expect(storage.unreadable()).toBe(storage.untrusted());
      await expect(storage.intents.list({ kind: 'refund' })).rejects.toMatchObject({ code: 'unavailable' });
      expect(storage.untrusted()).not.toContain('wrong-pw-xyz');
      // The desk's own records still work.
      expect(storage.customers.customers.list()).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});
