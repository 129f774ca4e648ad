import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { createFakeLogger } from '../../fakes/logger';

/**
 * settings.json as people and tools actually leave it: `null` or `[]` (a script that wrote the wrong
 * thing), a UTF-8 byte-order mark (Windows Notepad). Checked through the public IPC reads of a real
 * core over a real data directory.
 */
const SETTINGS = {
  version: 1,
  activeProfileId: 'P1',
  profiles: [
    {
      id: 'P1',
      name: 'Main store',
      merchantNo: '200101',
      storeNo: '300101',
      environment: 'vendor-sandbox',
      ipnEnabled: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};

let core: AppCore | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function boot(fileBytes: string | Buffer) {
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-settings-'));
  writeFileSync(join(dataDir, 'settings.json'), fileBytes);
  core = await createNodeCore({ host: 'browser', dataDir, log: createFakeLogger(), demo: false });
  const list = await core.dispatch('profiles.list', undefined);
  const health = await core.dispatch('app.health', undefined);
  if (!list.ok || !health.ok) throw new Error('reads failed');
  return { dataDir, list: list.value as ProfilesList, health: health.value as Health };
}
type ProfilesList = {
  profiles: { name: string }[];
  activeProfileId: string | null;
  notices: { level: string; message: string }[];
};
type Health = { status: string; checks: { name: string; ok: boolean; detail?: string }[] };

describe('settings.json that is not a settings object', () => {
  for (const [text, said] of [
    ['null', 'held null instead of settings'],
    ['[]', 'held a list (0 items) instead of settings'],
    ['[{"version":1}]', 'held a list (1 item) instead of settings'],
    ['"profiles"', 'held a single string instead of settings'],
  ] as const) {
    it(`${text}: reported and kept aside, never silently a first run`, async () => {
      const { dataDir, list, health } = await boot(text);
      expect(list.notices).toEqual([
        expect.objectContaining({ level: 'error', message: expect.stringContaining(said) }),
      ]);
      expect(list.notices[0]!.message).toMatch(/moved aside to .*settings\.corrupt-.*\.json/);
      expect(health.status).toBe('degraded');
      expect(health.checks).toContainEqual(expect.objectContaining({ name: 'settings', ok: false }));
      const aside = readdirSync(dataDir).filter((f) => f.startsWith('settings.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dataDir, aside[0]!), 'utf8')).toBe(text);
    });
  }
});

describe('settings.json with a UTF-8 byte-order mark', () => {
  it('is read normally, with an info notice, and saved without the mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(SETTINGS))]);
    const { dataDir, list, health } = await boot(bytes);
    expect(list.profiles.map((p) => p.name)).toEqual(['Main store']);
    expect(list.activeProfileId).toBe('P1');
    expect(list.notices).toEqual([
      expect.objectContaining({ level: 'info', message: expect.stringContaining('byte-order mark') }),
    ]);
    expect(health.checks).toContainEqual({ name: 'settings', ok: true });
    expect(readdirSync(dataDir).some((f) => f.startsWith('settings.corrupt-'))).toBe(false);
    expect(readFileSync(join(dataDir, 'settings.json')).subarray(0, 1).toString()).toBe('{');
  });

  it('a missing file is still a plain first run, with no notice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-settings-'));
    core = await createNodeCore({ host: 'browser', dataDir, log: createFakeLogger(), demo: false });
    const list = await core.dispatch('profiles.list', undefined);
    expect(list).toMatchObject({ ok: true, value: { profiles: [], notices: [] } });
    expect(existsSync(join(dataDir, 'settings.json'))).toBe(false);
  });
});

describe('settings.json that also holds the team connection (Settings → Team database)', () => {
  const TEAM = { address: 'postgres://db.example.test:5432/refunds', login: 'alice', caFile: '/etc/ca.pem' };
  const fileOf = (dataDir: string) =>
    JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;

  it('keeps `teamDatabase` when the profiles service rewrites the file (save, activate, delete)', async () => {
    const { dataDir } = await boot(JSON.stringify({ ...SETTINGS, teamDatabase: TEAM }));
    const saved = await core!.dispatch('profiles.save', {
      name: 'Second store',
      merchantNo: '200102',
      storeNo: '300102',
      environment: 'vendor-sandbox',
      ipnEnabled: false,
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(fileOf(dataDir)['teamDatabase']).toEqual(TEAM);
    const id = (saved.value as { id: string }).id;
    expect((await core!.dispatch('profiles.activate', { id })).ok).toBe(true);
    expect((await core!.dispatch('profiles.delete', { id: 'P1' })).ok).toBe(true);
    const after = fileOf(dataDir);
    expect(after['teamDatabase']).toEqual(TEAM);
    expect((after['profiles'] as { name: string }[]).map((p) => p.name)).toEqual(['Second store']);
  });

  it('a file holding only the team connection is a first run for profiles, not damage', async () => {
    const { dataDir, list } = await boot(JSON.stringify({ teamDatabase: TEAM }));
    expect(list.notices).toEqual([]);
    expect(readdirSync(dataDir).some((f) => f.startsWith('settings.corrupt-'))).toBe(false);
    const saved = await core!.dispatch('profiles.save', {
      name: 'First store',
      merchantNo: '200103',
      storeNo: '300103',
      environment: 'vendor-sandbox',
      ipnEnabled: false,
    });
    expect(saved.ok).toBe(true);
    expect(fileOf(dataDir)).toMatchObject({ version: 1, teamDatabase: TEAM });
  });
});
