import { describe, expect, it } from 'vitest';
import { createIpnListener } from '../../../electron/core/adapters/ipn-http-listener';
import { AppError } from '../../../shared/domain/errors';
import { createEventBus } from '../../../electron/core/services/event-bus';
import { probeTransactionNo, testConnection } from '../../../electron/core/services/profiles/connection-test';
import { createProfilesRuntime } from '../../../electron/core/services/profiles/runtime';
import { createFakeClock } from '../../fakes/clock';
import { createFakeHttp, envelope } from '../../fakes/http';
import { createFakeLogger } from '../../fakes/logger';
import { createFakeSecretStore, createFakeSettingsStore } from '../../fakes/stores';

const failing = (e: AppError) => async () => ({ queryTransaction: async () => Promise.reject(e) });

describe('test connection', () => {
  it('probes an 18-digit number', () => {
    expect(probeTransactionNo(() => 0.5)).toMatch(/^[1-9]\d{17}$/);
  });

  it.each([
    [new AppError('not_found', 'none', { details: { ret_code: '000021', ret_msg: 'no record' } }), 'ok'],
    [
      new AppError('unauthorized', 'refused', { details: { ret_code: '000030', ret_msg: 'denied' } }),
      'credentials',
    ],
    [new AppError('unauthorized', 'no token yet'), 'credentials'],
    [new AppError('network', 'down'), 'network'],
    [new AppError('timeout', 'slow'), 'network'],
    [new AppError('upstream_rejected', 'other', { details: { ret_code: '000010' } }), 'service'],
  ])('%s → %s', async (err, verdict) => {
    const r = await testConnection(failing(err), createFakeClock());
    expect(r.verdict).toBe(verdict);
  });
});

describe('profiles runtime', () => {
  const demoHandle = {
    baseUrl: 'http://127.0.0.1:1',
    merchantNo: '200043',
    storeNo: '300014',
    token: 'demo-token-xyz',
    close: async () => {},
  };

  it('first run creates and activates Demo, and starts the IPN listener for it', async () => {
    let started = 0;
    const events = createEventBus();
    const rt = await createProfilesRuntime({
      settings: createFakeSettingsStore(),
      secrets: createFakeSecretStore(),
      http: createFakeHttp([envelope({ ret_code: '000021' })]),
      clock: createFakeClock(),
      log: createFakeLogger(),
      events,
      recordIpn: async () => {},
      createIpnListener,
      startDemo: async () => {
        started += 1;
        return demoHandle;
      },
    });
    const active = rt.profiles.active()!;
    expect(started).toBe(1);
    expect(active).toMatchObject({ name: 'Demo', environment: 'demo', ipnEnabled: true });
    expect(rt.ipnUrlFor(active.id)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ipn\//);
    expect((await rt.testConnection(active.id)).verdict).toBe('ok');
    // The probe reached the service, so health now vouches for it too.
    expect(await rt.healthChecks()).toEqual([
      { name: 'settings', ok: true },
      { name: 'demo-sandbox', ok: true },
      {
        name: 'service',
        ok: true,
        detail: expect.stringMatching(/^Last answer \d{4}-/),
        lastSuccessAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    await rt.close();
  });

  it('health turns degraded when the active profile’s service stops answering, from the app’s own traffic', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const rt = await createProfilesRuntime({
      settings: createFakeSettingsStore(),
      secrets: createFakeSecretStore(),
      http: createFakeHttp([envelope({ ret_code: '000021' }), down]),
      clock: createFakeClock(),
      log: createFakeLogger(),
      events: createEventBus(),
      recordIpn: async () => {},
      createIpnListener,
      gateway: { retry: { retries: 0 } },
      startDemo: async () => demoHandle,
    });
    const active = rt.profiles.active()!;
    // Before any traffic: nothing is claimed about the service either way.
    expect((await rt.healthChecks()).map((c) => c.name)).not.toContain('service');
    await rt
      .gatewayFor(active.id)
      .queryTransaction({ transactionNo: '1' })
      .catch(() => undefined);
    expect((await rt.healthChecks()).at(-1)).toMatchObject({ name: 'service', ok: true });
    await rt
      .gatewayFor(active.id)
      .queryTransaction({ transactionNo: '1' })
      .catch(() => undefined);
    const last = (await rt.healthChecks()).at(-1)!;
    expect(last).toMatchObject({ name: 'service', ok: false });
    expect(last.detail).toMatch(/Payment service unreachable \(no connection\) since .*; last answer /);
    await rt.close();
  });

  it('offers a loopback ipnUrl only to a service on this machine', async () => {
    const rt = await createProfilesRuntime({
      settings: createFakeSettingsStore(),
      secrets: createFakeSecretStore(),
      http: createFakeHttp([]),
      clock: createFakeClock(),
      log: createFakeLogger(),
      events: createEventBus(),
      recordIpn: async () => {},
      createIpnListener,
      startDemo: async () => demoHandle,
    });
    const base = { merchantNo: '123456', storeNo: '654321', ipnEnabled: true };
    const demo = rt.profiles.active()!;
    const local = await rt.profiles.save({
      ...base,
      name: 'Local simulator',
      environment: 'custom',
      baseUrl: 'http://127.0.0.1:8080',
    });
    const remote = await rt.profiles.save({
      ...base,
      name: 'Partner',
      environment: 'custom',
      baseUrl: 'https://gw.example.com',
    });
    const sandbox = await rt.profiles.save({
      ...base,
      name: 'Vendor sandbox',
      environment: 'vendor-sandbox',
    });
    const prod = await rt.profiles.save({ ...base, name: 'Production', environment: 'production' });
    const off = await rt.profiles.save({
      ...base,
      name: 'Local, IPN off',
      environment: 'custom',
      baseUrl: 'http://localhost:8080',
      ipnEnabled: false,
    });
    expect(rt.ipnUrlFor(demo.id)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ipn\//);
    expect(rt.ipnUrlFor(local.id)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ipn\//);
    for (const p of [remote, sandbox, prod, off]) expect(rt.ipnUrlFor(p.id), p.name).toBeUndefined();
    await rt.close();
  });

  it('with Demo disabled there are no profiles and no sandbox', async () => {
    const rt = await createProfilesRuntime({
      settings: createFakeSettingsStore(),
      secrets: createFakeSecretStore(),
      http: createFakeHttp([]),
      clock: createFakeClock(),
      log: createFakeLogger(),
      events: createEventBus(),
      recordIpn: async () => {},
      createIpnListener,
    });
    expect((await rt.profiles.list()).profiles).toEqual([]);
    expect(rt.profiles.mode()).toBe('none');
    // A call must name its profile: an unknown one is not_found, before any network.
    await expect(rt.gatewayOf('P-gone')).rejects.toMatchObject({ code: 'not_found' });
    await rt.close();
  });

  it('a corrupt settings file degrades health with the reason', async () => {
    const settings = createFakeSettingsStore();
    settings.corrupt = true;
    const rt = await createProfilesRuntime({
      settings,
      secrets: createFakeSecretStore(),
      http: createFakeHttp([]),
      clock: createFakeClock(),
      log: createFakeLogger(),
      events: createEventBus(),
      recordIpn: async () => {},
      createIpnListener,
    });
    const checks = await rt.healthChecks();
    expect(checks[0]).toMatchObject({ name: 'settings', ok: false });
    expect(checks[0]?.detail).toMatch(/moved aside/);
    await rt.close();
  });
});
