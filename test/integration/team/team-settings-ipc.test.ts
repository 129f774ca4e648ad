import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../../electron/core/adapters/postgres/migrations';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { createConfSettingsStore } from '../../../electron/core/adapters/conf-settings-store';
import { openDeskStorage, TEAM_PASSWORD_KEY } from '../../../electron/core/adapters/team-settings';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { InvokeChannel } from '../../../shared/ipc/channels';
import { contract, type Input, type Output } from '../../../shared/ipc/contract';
import { createFakeLogger } from '../../fakes/logger';
import { createFakeSecretStore } from '../../fakes/stores';
import { startPostgres, type TestCluster } from '../../support/postgres';
import Conf from 'conf';

/**
 * Settings → Team database through the real IPC handlers of a real core (the dispatcher parses every
 * input and checks every output against the contract), against a real throw-away PostgreSQL: the
 * password goes to the secret store only and never comes back; Test connection says who the login is.
 */
let cluster: TestCluster;
let db: string;
const PW = { dora: 'Dora-settings-pw!', carl: 'C4rl-checker-pw' } as const;
beforeAll(async () => {
  cluster = await startPostgres();
  db = `team_settings_${process.pid}`;
  const owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  await cluster.createLogin('dora', PW.dora);
  await addPerson({ connectionString: owner }, { login: 'dora', role: 'maker', limits: [] });
  await cluster.createLogin('carl', PW.carl);
  await addPerson(
    { connectionString: owner },
    { login: 'carl', role: 'checker', limits: [{ currency: 'USD', upToMinor: 50_000 }] },
  );
}, 60_000);
afterAll(() => cluster?.stop());

const dir = () => mkdtempSync(join(tmpdir(), 'rd-team-ipc-'));
const address = () => `postgres://${cluster.host}:${cluster.port}/${db}`;
const cores: AppCore[] = [];
afterAll(async () => {
  for (const c of cores) await c.close();
});

async function desk(o: { dataDir?: string; team?: { url: string }; teamHeartbeatMs?: number } = {}) {
  const dataDir = o.dataDir ?? dir();
  const secrets = createFakeSecretStore();
  const core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createFakeLogger(),
    demo: false,
    secrets,
    ...(o.team ? { team: o.team } : {}),
    ...(o.teamHeartbeatMs ? { teamHeartbeatMs: o.teamHeartbeatMs } : {}),
  });
  cores.push(core);
  /** The envelope of one call, its value checked against the contract's output schema. */
  const call = async <C extends InvokeChannel>(channel: C, input?: Input<C>) => {
    const r = await core.dispatch(channel, input);
    return r.ok ? { ok: true as const, value: contract[channel].output.parse(r.value) as Output<C> } : r;
  };
  return { core, dataDir, secrets, call };
}

const settingsFile = (dataDir: string) => readFileSync(join(dataDir, 'settings.json'), 'utf8');

describe('team.setPassword / team.save / team.settings', () => {
  it('the password goes to the secret store only: not in settings.json, not in any answer, only "set"', async () => {
    const { dataDir, secrets, call } = await desk();
    expect(await call('team.settings')).toMatchObject({
      ok: true,
      value: { saved: null, passwordSet: false, restartNeeded: false, appliesAt: 'command-line' },
    });
    const set = await call('team.setPassword', { password: PW.dora });
    expect(set).toEqual({ ok: true, value: { passwordSet: true, persisted: true } });
    expect(secrets.secrets.get(TEAM_PASSWORD_KEY)).toBe(PW.dora);
    const saved = await call('team.save', { address: address(), login: 'dora', caFile: '' });
    expect(saved).toMatchObject({
      ok: true,
      value: { saved: { address: address(), login: 'dora' }, passwordSet: true, restartNeeded: true },
    });
    const file = settingsFile(dataDir);
    expect(JSON.parse(file)).toMatchObject({ teamDatabase: { address: address(), login: 'dora' } });
    expect(file).not.toContain(PW.dora);
    expect(JSON.stringify(saved)).not.toContain(PW.dora);
    expect(JSON.stringify(await call('team.settings'))).not.toContain(PW.dora);
  });

  it('refuses a password written into the address, naming the field and what to do; nothing is saved', async () => {
    const { dataDir, call } = await desk();
    const r = await call('team.save', {
      address: `postgres://dora:${PW.dora}@${cluster.host}:${cluster.port}/${db}`,
    });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/Leave the password out of the address and type it in Password/),
        details: { fields: { address: expect.any(String) } },
      },
    });
    expect(JSON.stringify(r)).not.toContain(PW.dora);
    expect(() => settingsFile(dataDir)).toThrow();
    expect(await call('team.save', { address: 'http://db:5432/x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/must start with postgres:\/\//) },
    });
  });

  it('what Settings saved (and the password set) is what the desktop app opens at its next start', async () => {
    const { dataDir, secrets, call } = await desk();
    await call('team.setPassword', { password: PW.dora });
    await call('team.save', { address: address(), login: 'dora' });
    // The desktop app's own path (electron/app/main.ts): openDeskStorage over the same settings file.
    const settings = createConfSettingsStore({
      open: () =>
        new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName: 'rd' }),
      filePath: join(dataDir, 'settings.json'),
    });
    const storage = await openDeskStorage({
      dataDir: dir(),
      now: Date.now,
      log: createFakeLogger(),
      settings,
      secrets,
      deskId: 'dora-laptop',
    });
    try {
      expect(storage.untrusted()).toBeUndefined();
      expect(storage.team?.()).toMatchObject({ login: 'dora', deskId: 'dora-laptop' });
    } finally {
      await storage.close();
    }
  });

  it('team.forget removes the settings and the password; the profiles stay', async () => {
    const { dataDir, secrets, call, core } = await desk();
    const p = await core.dispatch('profiles.save', {
      name: 'Main store',
      merchantNo: '200101',
      storeNo: '300101',
      environment: 'vendor-sandbox',
      ipnEnabled: false,
    });
    expect(p.ok).toBe(true);
    await call('team.setPassword', { password: PW.dora });
    await call('team.save', { address: address(), login: 'dora' });
    expect(await call('team.forget')).toMatchObject({ ok: true, value: { saved: null, passwordSet: false } });
    expect(secrets.secrets.has(TEAM_PASSWORD_KEY)).toBe(false);
    const doc = JSON.parse(settingsFile(dataDir)) as Record<string, unknown>;
    expect(doc['teamDatabase']).toBeUndefined();
    expect((doc['profiles'] as unknown[]).length).toBe(1);
  });
});

describe('team.testConnection against the real server', () => {
  it('answers who the login is, its groups and limits and both schema versions — with the typed password or the kept one', async () => {
    const { call } = await desk();
    const typed = await call('team.testConnection', { address: address(), login: 'carl', password: PW.carl });
    expect(typed).toEqual({
      ok: true,
      value: {
        address: `postgres://carl@${cluster.host}:${cluster.port}/${db}`,
        login: 'carl',
        groups: ['refund_checker'],
        limits: [{ currency: 'USD', upToMinor: 50_000 }],
        schema: { database: DESK_SCHEMA_VERSION, desk: DESK_SCHEMA_VERSION },
      },
    });
    // No password typed: the one kept in the secret store.
    await call('team.setPassword', { password: PW.dora });
    expect(await call('team.testConnection', { address: address(), login: 'dora' })).toMatchObject({
      ok: true,
      value: { login: 'dora', groups: ['refund_maker'], limits: [] },
    });
  });

  it('a wrong password, an unreachable server, a database nobody migrated, an unreadable CA: words that say what to do, never the password', async () => {
    const { call } = await desk();
    const WRONG = 'Wr0ng-settings-pw';
    const wrong = await call('team.testConnection', { address: address(), login: 'dora', password: WRONG });
    expect(wrong).toMatchObject({
      ok: false,
      error: {
        code: 'unauthorized',
        message: expect.stringMatching(/refused this login: check the login and password/),
      },
    });
    const down = await call('team.testConnection', {
      address: `postgres://127.0.0.1:9/${db}`,
      login: 'dora',
      password: WRONG,
    });
    expect(down).toMatchObject({
      ok: false,
      error: {
        code: 'network',
        message: expect.stringMatching(/Cannot reach the team database at .*check the address/),
      },
    });
    const bare = `team_bare_${process.pid}`;
    await cluster.createDatabase(bare);
    const unmigrated = await call('team.testConnection', {
      address: `postgres://${cluster.host}:${cluster.port}/${bare}`,
      login: 'dora',
      password: PW.dora,
    });
    expect(unmigrated).toMatchObject({
      ok: false,
      error: {
        code: 'unavailable',
        message: expect.stringMatching(
          /no Refund Desk schema yet: the administrator runs “cli team migrate”/,
        ),
      },
    });
    const notPem = join(dir(), 'ca.pem');
    writeFileSync(notPem, 'not a certificate');
    const badCa = await call('team.testConnection', { address: address(), login: 'dora', caFile: notPem });
    expect(badCa).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/holds no certificate/),
        details: { fields: { caFile: expect.any(String) } },
      },
    });
    for (const r of [wrong, down, unmigrated, badCa]) {
      expect(JSON.stringify(r)).not.toContain(WRONG);
      expect(JSON.stringify(r)).not.toContain(PW.dora);
    }
  });
});

describe('team.status', () => {
  it('a single desk: mode single, nothing read-only', async () => {
    const { call } = await desk();
    expect(await call('team.status')).toEqual({ ok: true, value: { mode: 'single' } });
  });

  it('a desk on the team database: who it is; read-only with since when while the server is down, and by itself back', async () => {
    const { call } = await desk({
      team: { url: cluster.loginUrl('dora', PW.dora, db) },
      teamHeartbeatMs: 200,
    });
    const status = async () => {
      const r = await call('team.status');
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    expect(await status()).toMatchObject({
      mode: 'team',
      login: 'dora',
      address: `postgres://dora@${cluster.host}:${cluster.port}/${db}`,
      schema: { database: DESK_SCHEMA_VERSION, desk: DESK_SCHEMA_VERSION },
      deskId: expect.stringMatching(/^browser@/),
    });
    expect((await status()).readOnly).toBeUndefined();
    const until = async (what: (s: Output<'team.status'>) => boolean) => {
      const end = Date.now() + 30_000;
      while (Date.now() < end && !what(await status())) await new Promise((r) => setTimeout(r, 100));
      return status();
    };
    cluster.pause();
    try {
      const down = await until((s) => s.readOnly !== undefined);
      expect(down.readOnly).toMatchObject({
        reason: expect.stringMatching(
          /unreachable since \d\d:\d\d — refunds are refused; browse, search and export still work/,
        ),
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(JSON.stringify(down)).not.toContain(PW.dora);
    } finally {
      cluster.resume();
    }
    expect((await until((s) => s.readOnly === undefined)).readOnly).toBeUndefined();
  }, 90_000);
});
