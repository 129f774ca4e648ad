import { describe, expect, it } from 'vitest';
import { createProfilesService, type DemoRuntime } from '../../../electron/core/services/profiles/service';
import { createFakeClock } from '../../fakes/clock';
import { createFakeLogger } from '../../fakes/logger';
import { createFakeSecretStore, createFakeSettingsStore } from '../../fakes/stores';
import { caughtAppError as rejects } from '../../fakes/app-error';

const DEMO: DemoRuntime = {
  baseUrl: 'http://127.0.0.1:5555',
  merchantNo: '200043',
  storeNo: '300014',
  token: 'demo-token-123',
};

function setup(doc: Record<string, unknown> = {}, demo: DemoRuntime | null = DEMO) {
  const settings = createFakeSettingsStore(doc);
  const secrets = createFakeSecretStore();
  const log = createFakeLogger();
  const svc = createProfilesService({
    settings,
    secrets,
    clock: createFakeClock(),
    log,
    demo: () => demo ?? undefined,
  });
  return { svc, settings, secrets, log };
}

const prod = {
  name: 'Main store',
  merchantNo: '123456',
  storeNo: '654321',
  environment: 'production' as const,
  ipnEnabled: false,
};

describe('profiles service', () => {
  it('creates, lists, activates, updates and deletes profiles', async () => {
    const { svc, settings } = setup();
    const a = await svc.save(prod);
    expect(a.hasToken).toBe(false);
    expect(a.effectiveBaseUrl).toBe('https://mapi.yuansfer.com');
    expect(svc.active()?.id).toBe(a.id); // the first profile becomes active
    const b = await svc.save({
      ...prod,
      name: 'Partner sub-merchant',
      environment: 'custom',
      baseUrl: 'https://gw.example.com/',
    });
    expect(b.effectiveBaseUrl).toBe('https://gw.example.com');
    await svc.activate(b.id);
    expect(svc.mode()).toBe('custom');
    await svc.save({ ...prod, id: a.id, name: 'Renamed' });
    expect((await svc.list()).profiles.map((p) => p.name)).toEqual(['Renamed', 'Partner sub-merchant']);
    await svc.remove(b.id);
    expect(svc.active()?.id).toBe(a.id);
    expect(settings.doc).toMatchObject({ version: 1, activeProfileId: a.id });
  });

  it('stores refund limits, keeps them when an edit omits them, and clears them only when asked', async () => {
    const { svc } = setup();
    const limits = {
      limits: [{ currency: 'USD' as const, maxSingleMinor: 50_000, dailyTotalMinor: 200_000 }],
    };
    const a = await svc.save({ ...prod, guardrails: limits });
    expect(svc.get(a.id).guardrails).toEqual(limits);
    await svc.save({ ...prod, id: a.id, name: 'Renamed' });
    expect(svc.get(a.id).guardrails).toEqual(limits);
    await svc.save({ ...prod, id: a.id, guardrails: { limits: [] } });
    expect(svc.get(a.id).guardrails).toEqual({ limits: [] });
  });

  it('editing only the limits keeps the profile’s "close as not sent" policy; giving one replaces it', async () => {
    const { svc } = setup();
    const policy = { minChecks: 5, minMinutes: 150 };
    const a = await svc.save({ ...prod, guardrails: { limits: [], unknownClose: policy } });
    expect(svc.get(a.id).guardrails?.unknownClose).toEqual(policy);
    // What the Settings limits editor used to send: the limits alone.
    const limits = [{ currency: 'USD' as const, maxSingleMinor: 10_000 }];
    await svc.save({ ...prod, id: a.id, guardrails: { limits } });
    expect(svc.get(a.id).guardrails).toEqual({ limits, unknownClose: policy });
    await svc.save({ ...prod, id: a.id, name: 'Renamed' });
    expect(svc.get(a.id).guardrails).toEqual({ limits, unknownClose: policy });
    await svc.save({
      ...prod,
      id: a.id,
      guardrails: { limits, unknownClose: { minChecks: 3, minMinutes: 120 } },
    });
    expect(svc.get(a.id).guardrails?.unknownClose).toEqual({ minChecks: 3, minMinutes: 120 });
  });

  it('refuses a "close as not sent" policy below the floor (3 checks over 120 minutes), saying why', async () => {
    const { svc } = setup();
    const a = await svc.save({
      ...prod,
      guardrails: { limits: [], unknownClose: { minChecks: 3, minMinutes: 120 } },
    });
    const e = await rejects(
      svc.save({
        ...prod,
        id: a.id,
        guardrails: { limits: [], unknownClose: { minChecks: 1, minMinutes: 0 } },
      }),
    );
    expect(e.code).toBe('invalid_input');
    expect(e.details?.fields).toEqual({
      'guardrails.unknownClose.minChecks': expect.stringMatching(
        /^At least 3 checks: fewer could close a refund/,
      ),
      'guardrails.unknownClose.minMinutes': expect.stringMatching(
        /^At least 120 minutes \(2 hours\): the payment service keeps working on a request for up to 2 hours, so a refund closed sooner may still arrive and be paid twice\.$/,
      ),
    });
    expect(svc.get(a.id).guardrails?.unknownClose).toEqual({ minChecks: 3, minMinutes: 120 });
  });

  it('raises a stored policy below the floor (an earlier version allowed 1 check over 0 minutes) and says so', () => {
    const stored = (unknownClose: { minChecks: number; minMinutes: number }, id: string, name: string) => ({
      ...prod,
      name,
      id,
      guardrails: { limits: [], unknownClose },
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });
    const { svc } = setup({
      version: 1,
      activeProfileId: 'P1',
      profiles: [
        stored({ minChecks: 1, minMinutes: 0 }, 'P1', 'Old'),
        stored({ minChecks: 10, minMinutes: 30 }, 'P2', 'Many checks'),
        stored({ minChecks: 4, minMinutes: 600 }, 'P3', 'Stricter'),
      ],
    });
    expect(svc.get('P1').guardrails?.unknownClose).toEqual({ minChecks: 3, minMinutes: 120 });
    expect(svc.get('P2').guardrails?.unknownClose).toEqual({ minChecks: 10, minMinutes: 120 });
    expect(svc.get('P3').guardrails?.unknownClose).toEqual({ minChecks: 4, minMinutes: 600 });
    expect(svc.notices().map((n) => n.message)).toEqual([
      expect.stringMatching(
        /^Profile “Old” allowed closing an unknown refund as not sent sooner than is safe; it now needs at least 3 checks over 120 minutes/,
      ),
      expect.stringMatching(/^Profile “Many checks” allowed closing/),
    ]);
  });

  it('explains invalid input per field', async () => {
    const { svc } = setup();
    const e = await rejects(
      svc.save({
        ...prod,
        name: ' ',
        merchantNo: '12a',
        environment: 'custom',
        baseUrl: 'http://evil.example.com',
      }),
    );
    expect(e.code).toBe('invalid_input');
    const fields = e.details?.['fields'] as Record<string, string>;
    expect(fields['name']).toMatch(/Give the profile a name/);
    expect(fields['merchantNo']).toMatch(/digits only/);
    expect(fields['baseUrl']).toMatch(/https:\/\//);
  });

  it('refuses a duplicate name', async () => {
    const { svc } = setup();
    await svc.save(prod);
    expect((await rejects(svc.save({ ...prod, name: 'MAIN STORE' }))).code).toBe('conflict');
  });

  it('keeps tokens in the secret store only, and never returns them', async () => {
    const { svc, settings, secrets, log } = setup();
    const p = await svc.save(prod);
    const r = await svc.setToken(p.id, '  sekret-token-value  ');
    expect(r).toEqual({ hasToken: true, persisted: true });
    expect(JSON.stringify(settings.doc)).not.toContain('sekret');
    expect(JSON.stringify(await svc.list())).not.toContain('sekret');
    expect(JSON.stringify(log.lines)).not.toContain('sekret');
    expect([...secrets.secrets.values()]).toEqual(['sekret-token-value']);
    expect((await svc.gatewayConfig()).token).toBe('sekret-token-value');
    await svc.clearToken(p.id);
    expect((await svc.list()).profiles[0]?.hasToken).toBe(false);
    expect((await rejects(svc.gatewayConfig())).code).toBe('unauthorized');
    expect((await rejects(svc.setToken(p.id, 'x'))).code).toBe('invalid_input');
  });

  it('forgets the token when an edit changes where the profile connects to', async () => {
    const { svc, secrets } = setup();
    const p = await svc.save({ ...prod, environment: 'custom', baseUrl: 'https://gw.example.com' });
    await svc.setToken(p.id, 'sekret-token-value');
    // Same destination (a trailing slash is normalised away), other fields edited: the token stays.
    expect(
      await svc.save({
        ...prod,
        id: p.id,
        name: 'Renamed',
        environment: 'custom',
        baseUrl: 'https://gw.example.com/',
      }),
    ).toMatchObject({ hasToken: true });
    // Another host: main must not sign for it with the old token.
    const moved = await svc.save({
      ...prod,
      id: p.id,
      environment: 'custom',
      baseUrl: 'https://attacker.example.net',
    });
    expect(moved.hasToken).toBe(false);
    expect(secrets.secrets.size).toBe(0);
    expect((await rejects(svc.gatewayConfig(p.id))).code).toBe('unauthorized');
    // Another environment likewise.
    await svc.setToken(p.id, 'sekret-token-value');
    expect((await svc.save({ ...prod, id: p.id, environment: 'production' })).hasToken).toBe(false);
    expect(secrets.secrets.size).toBe(0);
  });

  it('deleting a profile deletes its token', async () => {
    const { svc, secrets } = setup();
    const p = await svc.save(prod);
    await svc.setToken(p.id, 'sekret-token-value');
    await svc.remove(p.id);
    expect(secrets.secrets.size).toBe(0);
    expect(svc.mode()).toBe('none');
  });

  it('a Demo profile uses the running sandbox and its public credentials', async () => {
    const { svc } = setup();
    const d = await svc.save({
      name: 'Demo',
      environment: 'demo',
      merchantNo: '1',
      storeNo: '2',
      ipnEnabled: true,
    });
    expect(d).toMatchObject({
      merchantNo: '200043',
      storeNo: '300014',
      hasToken: true,
      effectiveBaseUrl: DEMO.baseUrl,
    });
    expect(await svc.gatewayConfig(d.id)).toMatchObject({ baseUrl: DEMO.baseUrl, token: DEMO.token });
    expect((await rejects(svc.setToken(d.id, 'another-token'))).code).toBe('invalid_input');
  });

  it('a Demo profile without a running sandbox is reported, not faked', async () => {
    const { svc } = setup({}, null);
    expect(
      (
        await rejects(
          svc.save({ name: 'Demo', environment: 'demo', merchantNo: '1', storeNo: '2', ipnEnabled: true }),
        )
      ).code,
    ).toBe('unavailable');
  });

  it('moves an unparseable settings file aside and reports it', () => {
    const settings = createFakeSettingsStore();
    settings.corrupt = true;
    const log = createFakeLogger();
    const svc = createProfilesService({
      settings,
      secrets: createFakeSecretStore(),
      clock: createFakeClock(),
      log,
    });
    expect(settings.quarantined).toBe(1);
    expect(svc.settingsProblem()).toMatch(/moved aside to \/fake\/settings.corrupt-1.json/);
    expect(svc.notices()[0]?.level).toBe('error');
    expect(log.lines.some((l) => l.event === 'settings.corrupt')).toBe(true);
  });

  it('treats a well-formed file of the wrong shape as corrupt too', () => {
    const settings = createFakeSettingsStore({ version: 1, profiles: [{ id: 'x' }], activeProfileId: null });
    const svc = createProfilesService({
      settings,
      secrets: createFakeSecretStore(),
      clock: createFakeClock(),
      log: createFakeLogger(),
    });
    expect(settings.quarantined).toBe(1);
    expect(svc.settingsProblem()).toMatch(/expected shape/);
  });

  it('keeps a settings file whose refund limit is in a currency this app does not handle, dropping that limit with a notice', async () => {
    const stored = {
      id: 'p1',
      name: 'Main store',
      merchantNo: '123456',
      storeNo: '654321',
      environment: 'production',
      ipnEnabled: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      guardrails: {
        limits: [
          { currency: 'ZAR', maxSingleMinor: 100 },
          { currency: 'USD', maxSingleMinor: 5000 },
        ],
      },
    };
    const { svc, settings } = setup({ version: 1, profiles: [stored], activeProfileId: 'p1' });
    expect(settings.quarantined).toBe(0);
    expect(svc.settingsProblem()).toBeUndefined();
    const [p] = (await svc.list()).profiles;
    expect(p?.guardrails?.limits).toEqual([{ currency: 'USD', maxSingleMinor: 5000 }]);
    expect(svc.notices()).toEqual([
      expect.objectContaining({ level: 'warning', message: expect.stringContaining('ZAR') as string }),
    ]);
  });
});
