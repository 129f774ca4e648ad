import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createMemorySecretStore } from '../../electron/core/adapters/node-secret-stores';
import { createPostgresBatchStore } from '../../electron/core/adapters/postgres/batch-store';
import { openPostgresIntentStore } from '../../electron/core/adapters/postgres/intent-store';
import { openAppStorage } from '../../electron/core/adapters/sqlite/app-storage';
import { type AppCore, createAppCore } from '../../electron/core/compose';
import type { AppStorage } from '../../electron/core/services/storage';
import { DEMO_MERCHANT, type RunningSandbox } from '../../electron/sandbox/index';
import { createFakeLogger } from '../fakes/logger';
import { createFakeSettingsStore } from '../fakes/stores';

/**
 * One desk of a team, as the app's core: its intents on the team's PostgreSQL (as its person's login,
 * under its desk id), everything else in the SQLite file of its own data directory, and one Custom
 * profile at the test's sandbox (declared a local simulator: no typed amount). Every channel is the
 * real dispatcher; the sandbox is reached over real HTTP.
 */
export interface TeamDesk {
  core: AppCore;
  profileId: string;
  /** Calls a channel; a refusal rejects with the envelope's error (code, message, details). */
  call<T>(channel: string, input?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function openTeamDesk(o: {
  /** The person's connection string (their own login). */
  url: string;
  deskId: string;
  sandbox: Pick<RunningSandbox, 'baseUrl'>;
  /** Background work (resume, sweeps, the change feed); off by default so a test sees only its own calls. */
  background?: boolean;
  /** The sender's lease (default the engine's): tests that wait for one to run out shorten it. */
  leaseMs?: number;
  /** One attempt's limit at the gateway (default 3 s): a test that holds a request out lengthens it. */
  gatewayTimeoutMs?: number;
}): Promise<TeamDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), `rd-team-${o.deskId}-`));
  const log = createFakeLogger();
  const local = openAppStorage({ dataDir, now: Date.now, log });
  const team = await openPostgresIntentStore({
    connectionString: o.url,
    applicationName: `test-${o.deskId}`,
    deskId: o.deskId,
    heartbeatMs: 200,
  });
  let teamClosed: Promise<void> | undefined;
  const closeTeam = () => (teamClosed ??= team.close());
  const storage: AppStorage = {
    ...local,
    intents: team.store,
    batches: createPostgresBatchStore(team.pool),
    close: () => {
      local.close();
      void closeTeam();
    },
  };
  const core = await createAppCore(
    {
      host: 'browser',
      name: 'Refund Desk',
      version: '0.0.0-test',
      dataDir,
      platform: process.platform,
      clock: { now: Date.now },
      log,
      openExternal: async () => undefined,
      settings: createFakeSettingsStore(),
      secrets: createMemorySecretStore(),
      http: createFetchHttpClient(),
      storage,
      identity: { sender: `${o.deskId}:${process.pid}`, osUser: o.deskId },
    },
    {
      demo: false,
      background: o.background ?? false,
      gateway: { timeoutMs: o.gatewayTimeoutMs ?? 3_000, retry: { retries: 0 } },
      ...(o.leaseMs ? { leaseMs: o.leaseMs } : {}),
    },
  );
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await core.dispatch(channel, input);
    if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
    return r.value as T;
  };
  const saved = await call<{ id: string }>('profiles.save', {
    name: `Team ${o.deskId}`,
    environment: 'custom',
    baseUrl: o.sandbox.baseUrl,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    ipnEnabled: false,
    loopbackMoneyMode: 'local',
    operatorName: o.deskId,
  });
  await call('profiles.setToken', { id: saved.id, token: DEMO_MERCHANT.token });
  return {
    core,
    profileId: saved.id,
    call,
    close: async () => {
      await core.close();
      await closeTeam();
    },
  };
}
