import { describe, expect, it } from 'vitest';
import { createIpnListener } from '../../../electron/core/adapters/ipn-http-listener';
import { signParams } from '../../../shared/protocol/signing';
import { createEventBus } from '../../../electron/core/services/event-bus';
import { createProfilesRuntime } from '../../../electron/core/services/profiles/runtime';
import { createFakeClock } from '../../fakes/clock';
import { createFakeHttp, success } from '../../fakes/http';
import { createFakeLogger } from '../../fakes/logger';
import { createFakeSecretStore, createFakeSettingsStore } from '../../fakes/stores';

/** A secret store that counts reads, to show follow-ups no longer read every profile's secret. */
function countingSecrets() {
  const inner = createFakeSecretStore();
  const reads = { get: 0, has: 0 };
  return {
    store: {
      ...inner,
      get: (k: string) => {
        reads.get += 1;
        return inner.get(k);
      },
      has: (k: string) => {
        reads.has += 1;
        return inner.has(k);
      },
    },
    reads,
  };
}

const payment = {
  transactionNo: '297553638300708562',
  amount: '10.00',
  currency: 'USD',
  status: 'success',
  transactionType: 'payment',
  refundInfo: [],
};

async function setup() {
  const secrets = countingSecrets();
  const http = createFakeHttp([success(payment)]);
  const rt = await createProfilesRuntime({
    settings: createFakeSettingsStore(),
    secrets: secrets.store,
    http,
    clock: createFakeClock(),
    log: createFakeLogger(),
    events: createEventBus(),
    recordIpn: async () => {},
    createIpnListener,
  });
  const a = await rt.profiles.save({
    name: 'A',
    environment: 'custom',
    baseUrl: 'https://a.example.com',
    merchantNo: '1001',
    storeNo: '2001',
    ipnEnabled: false,
  });
  const b = await rt.profiles.save({
    name: 'B',
    environment: 'custom',
    baseUrl: 'https://b.example.com',
    merchantNo: '1002',
    storeNo: '2002',
    ipnEnabled: false,
  });
  await rt.profiles.setToken(a.id, 'token-aaaa-0001');
  await rt.profiles.setToken(b.id, 'token-bbbb-0001');
  return { rt, secrets, http, a, b };
}

describe('gateway registry: one token cache', () => {
  it('reads a profile’s token once, not on every call or follow-up', async () => {
    const { rt, secrets, a } = await setup();
    const before = secrets.reads.get;
    const hasBefore = secrets.reads.has;
    for (let i = 0; i < 5; i += 1)
      await rt.gatewayFor(a.id).queryTransaction({ transactionNo: payment.transactionNo });
    for (let i = 0; i < 5; i += 1) await rt.accountCandidates();
    // One read per profile (A, then B for the candidates), whatever the number of calls.
    expect(secrets.reads.get - before).toBe(2);
    expect(secrets.reads.has - hasBefore).toBe(0);
    await rt.close();
  });

  it('a token set or cleared takes effect on the next call (the cache is dropped)', async () => {
    const { rt, http, a } = await setup();
    await rt.gatewayFor(a.id).queryTransaction({ transactionNo: payment.transactionNo });
    const signedWith = (token: string) => {
      const { verifySign: _v, ...params } = http.calls.at(-1)!.body;
      return signParams(params, token).verifySign === http.calls.at(-1)!.body['verifySign'];
    };
    expect(signedWith('token-aaaa-0001')).toBe(true);
    await rt.profiles.setToken(a.id, 'token-aaaa-0002');
    await rt.gatewayFor(a.id).queryTransaction({ transactionNo: payment.transactionNo });
    expect(signedWith('token-aaaa-0002')).toBe(true);
    await rt.profiles.clearToken(a.id);
    await expect(
      rt.gatewayFor(a.id).queryTransaction({ transactionNo: payment.transactionNo }),
    ).rejects.toMatchObject({
      code: 'unauthorized',
    });
    expect((await rt.accountCandidates()).find((c) => c.id === a.id)?.hasToken).toBe(false);
    await rt.close();
  });
});
