import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { createFakeLogger } from '../../fakes/logger';

/** Health from the app's own traffic: degraded on the first failing call, back on the next answer. */
let core: AppCore;
beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-health-')),
    log: createFakeLogger(),
    gateway: { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } },
  });
});
afterAll(() => core.close());

type Health = {
  ok: true;
  value: { status: string; checks: { name: string; ok: boolean; detail?: string }[] };
};
const health = async () => (await core.dispatch('app.health', undefined)) as Health;
const lookup = () =>
  core.dispatch('transactions.lookup', {
    profileId: core.profiles.profiles.active()?.id,
    query: '297553638300708562',
  });

it('every tran-query answering HTTP 503 turns health Degraded with the failure and the last answer; the next answer clears it', async () => {
  await lookup(); // an answer (not found is an answer): the service is up
  const before = await health();
  expect(before.value.status).toBe('ok');
  expect(before.value.checks.find((c) => c.name === 'service')).toMatchObject({
    ok: true,
    detail: expect.stringMatching(/^Last answer /),
    // The time on its own too, for the renderer to show in the person's zone and format.
    lastSuccessAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });

  core.demoSandbox()!.setFaults({ endpoints: { 'tran-query': { http5xxRate: 1 } } });
  try {
    await lookup();
    const during = await health();
    expect(during.value.status).toBe('degraded');
    expect(during.value.checks.find((c) => c.name === 'service')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/Payment service failing \(HTTP 50\d\) since .*; last answer \d{4}-/),
      problem: expect.stringMatching(/^Payment service failing \(HTTP 50\d\)$/),
      failingSince: expect.stringMatching(/^\d{4}-/),
      lastSuccessAt: expect.stringMatching(/^\d{4}-/),
    });
  } finally {
    core.demoSandbox()!.resetFaults();
  }
  await lookup();
  expect((await health()).value.status).toBe('ok');
});

it('health is the named profile’s: a second profile whose service does not answer is degraded, the Demo stays ok', async () => {
  const demoId = core.profiles.profiles.active()!.id;
  await lookup();
  // A Custom profile at an address where nothing listens (a closed loopback port).
  const saved = (await core.dispatch('profiles.save', {
    name: 'Nowhere',
    merchantNo: '200043',
    storeNo: '300014',
    environment: 'custom',
    baseUrl: 'http://127.0.0.1:9',
  })) as { ok: true; value: { id: string } };
  expect(saved.ok).toBe(true);
  const other = saved.value.id;
  await core.dispatch('profiles.setToken', { id: other, token: 'abcdefgh12345678' });
  await core.dispatch('transactions.lookup', { profileId: other, query: '297553638300708562' });

  const named = (id: string) => core.dispatch('app.health', { profileId: id }) as Promise<Health>;
  expect((await named(other)).value.checks.find((c) => c.name === 'service')).toMatchObject({ ok: false });
  expect((await named(other)).value.status).toBe('degraded');
  // The Demo profile, still the active one, answers: asked for it (or for nobody), all is well.
  expect(core.profiles.profiles.active()!.id).toBe(demoId);
  expect((await named(demoId)).value.status).toBe('ok');
  expect((await health()).value.status).toBe('ok');
});
