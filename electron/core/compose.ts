import { join } from 'node:path';
import { createFetchHttpClient } from './adapters/http-fetch';
import { createIpnListener } from './adapters/ipn-http-listener';
import { processIdentity } from './adapters/process-identity';
import type { AppStorage } from './services/storage';
import { paymentStoreOn } from './services/payments/store';
import { refundStoreOn } from './services/refunds/store';
import { createDispatcher, type Dispatch, type HandlerMap } from './ipc/dispatcher';
import { appHandlers, bootstrapHandler } from './ipc/handlers/app';
import { profileHandlers } from './ipc/handlers/profiles';
import { transactionHandlers } from './ipc/handlers/transactions';
import { transactionSyncHandlers } from './ipc/handlers/transactions-sync';
import { reconciliationHandlers } from './ipc/handlers/reconciliation';
import { demoLedgerFor } from './demo-ledger';
import { createReconciliationService } from './services/reconciliation/service';
import { createRefundsRuntime, type ProcessIdentity, type SingleAccount } from './services/refunds/runtime';
import { refundHandlers } from './ipc/handlers/refunds';
import { paymentHandlers } from './ipc/handlers/payments';
import { refundBatchHandlers } from './ipc/handlers/refund-batch';
import { createBatchDryRun } from './services/batch/dry-run';
import { createBatchExecutor } from './services/batch/execute';
import { newSortableId } from '../../shared/domain/ids';
import { moneyModeOf } from '../../shared/domain/profile';
import { timelineHandlers } from './ipc/handlers/timeline';
import { createPaymentTimeline } from './services/timeline/service';
import { createPaymentsRuntime, type PaymentsRuntime } from './services/payments/runtime';
import { DEMO_MERCHANT, type RunningSandbox, type SandboxOptions, startSandbox } from '../sandbox';
import { createAppService, type AppServiceDeps } from './services/app-service';
import { createEventBus, type EventBus } from './services/event-bus';
import type { HttpClient } from './services/gateway/http-port';
import type { RetryPolicy } from './services/gateway/transport';
import type { Clock, Logger, OpenExternal } from './services/ports';
import type { SecretStore, SettingsStore } from './services/profiles/ports';
import { createProfilesRuntime, type DemoHandle, type ProfilesRuntime } from './services/profiles/runtime';
import { createLimiters } from './services/gateway/adaptive-limit';
import { createLearnedLimitsFile } from './adapters/learned-limits-file';
import { createTransactionLookup } from './services/transactions/lookup';
import { createTransactionSync } from './services/transactions/sync';
import { teamHandlers } from './ipc/handlers/team';
import { createTeamService } from './services/team/service';

/** Adapters a host provides. Electron passes its own; the browser host and CLI pass plain-Node ones. */
export interface HostAdapters {
  host: AppServiceDeps['host'];
  name: string;
  version: string;
  dataDir: string;
  platform: string;
  clock: Clock;
  log: Logger;
  openExternal: OpenExternal;
  /** Non-secret settings (electron-store in Electron, conf elsewhere). */
  settings: SettingsStore;
  /** API tokens (safeStorage in Electron, memory/env elsewhere). */
  secrets: SecretStore;
  /** Defaults to the plain-Node fetch adapter. */
  http?: HttpClient;
  /**
   * Main's durable state, opened by the host (SQLite in the data directory for a single desk; any
   * implementation of the store port). The core closes it on close().
   */
  storage: AppStorage;
  /** Who this process is (`host:pid`, the OS account). Defaults to this process's. */
  identity?: ProcessIdentity;
}

/** Knobs for tests and the browser host; the Electron app uses the defaults. */
export interface CoreOptions {
  /** false: never start the embedded sandbox (no Demo profile is created). Otherwise extra sandbox options. */
  demo?: false | Partial<SandboxOptions>;
  gateway?: { timeoutMs?: number; readBudgetMs?: number; retry?: Partial<RetryPolicy> };
  /**
   * false: no work of the core's own in the background — refunds and payments are neither resumed nor
   * followed, nothing watches for other processes' changes (the CLI: one command, then exit).
   */
  background?: boolean;
  /** Refunds for one account only (the CLI), refusing in its words an intent that went elsewhere. */
  singleAccount?: SingleAccount;
  /** Sender lease length (tests shorten it; default engine/lease.ts DEFAULT_LEASE_MS). */
  leaseMs?: number;
}

export interface AppCore {
  dispatch: Dispatch;
  events: EventBus;
  handlers: HandlerMap;
  /** Profiles, gateway, Demo sandbox and IPN listener (for hosts and tests; the renderer goes through IPC). */
  profiles: ProfilesRuntime;
  /** The embedded sandbox when it runs (tests inject faults through it; the app never needs it). */
  demoSandbox(): RunningSandbox | undefined;
  /** Stops background work (sandbox, listeners, pollers) so the process can exit cleanly. */
  close(): Promise<void>;
}

/** Fixed so every new user's Demo shows the same seeded data; persisted so it survives restarts. */
export const DEMO_SEED = 20_240_601;

function demoStarter(
  dataDir: string,
  log: Logger,
  extra: Partial<SandboxOptions>,
  started: (s: RunningSandbox) => void,
): () => Promise<DemoHandle> {
  return async () => {
    const sandbox = await startSandbox({
      port: 0,
      seed: DEMO_SEED,
      dataFile: join(dataDir, 'demo-sandbox.json'),
      ...extra,
    });
    started(sandbox);
    log.info('demo.sandbox', { port: sandbox.port });
    return {
      baseUrl: sandbox.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      token: DEMO_MERCHANT.token,
      close: () => sandbox.close(),
    };
  };
}

/**
 * Builds every service and the IPC handler map from the host's adapters. Both the Electron composition
 * root and the browser host call this, so the renderer talks to exactly the same code in both.
 */
export async function createAppCore(adapters: HostAdapters, options: CoreOptions = {}): Promise<AppCore> {
  const events = createEventBus();
  let sandbox: RunningSandbox | undefined;
  // Opened right after the profiles (the one-time import asks them for service addresses); an IPN can
  // only arrive once the listener the profiles start is reachable, and is refused (so resent) until then.
  const opened: { storage?: AppStorage; payments?: PaymentsRuntime } = {};
  const identity = adapters.identity ?? processIdentity();
  const profiles = await createProfilesRuntime({
    settings: adapters.settings,
    secrets: adapters.secrets,
    http: adapters.http ?? createFetchHttpClient(),
    clock: adapters.clock,
    log: adapters.log,
    events,
    osUser: identity.osUser,
    ...(options.demo === false
      ? {}
      : { startDemo: demoStarter(adapters.dataDir, adapters.log, options.demo ?? {}, (s) => (sandbox = s)) }),
    // Verified IPNs are committed (fsync) with their dedup key before the listener answers `success`.
    recordIpn: async (event, key) => {
      if (!opened.storage) throw new Error('storage is not open yet');
      return opened.storage.recordIpn(event, key);
    },
    ...(options.gateway ? { gateway: options.gateway } : {}),
    onIpn: (e) => opened.payments?.hint(e),
    createIpnListener,
  });
  const store = (opened.storage = adapters.storage);
  // Intents of earlier versions did not record their service address: their profile's, if it exists.
  store.importEarlierFiles?.((id) => {
    try {
      return profiles.profiles.get(id).environment === 'demo'
        ? undefined
        : profiles.profiles.effectiveBaseUrl(id);
    } catch {
      return undefined;
    }
  });
  const app = createAppService({
    name: adapters.name,
    version: adapters.version,
    dataDir: adapters.dataDir,
    host: adapters.host,
    platform: adapters.platform,
    clock: adapters.clock,
    log: adapters.log,
    openExternal: adapters.openExternal,
    mode: () => profiles.profiles.mode(),
    healthChecks: async (profileId) => [
      ...(await profiles.healthChecks(profileId)),
      ...(store.notes?.() ?? []).map((p) => ({ name: p.name, ok: true, detail: p.detail })),
      ...store.problems().map((p) => ({ name: p.name, ok: false, detail: p.detail })),
    ],
  });
  // One adaptive limiter per profile, shared by bulk refresh, sync and reconciliation lookups; each
  // starts from what the last batch of that profile learned, in this process or an earlier one.
  const limiterFor = createLimiters(
    adapters.clock,
    createLearnedLimitsFile(join(adapters.dataDir, 'learned-limits.json'), adapters.clock),
  );
  const lookup = createTransactionLookup({
    gateway: (id) => profiles.gatewayOf(id),
    clock: adapters.clock,
    limiterFor,
  });
  const reconciliation = createReconciliationService({
    runs: store.runs,
    closing: store.closing,
    jobs: store.jobs,
    clock: adapters.clock,
    log: adapters.log,
    gatewayFor: (profileId) => profiles.gatewayFor(profileId),
    limiterFor,
    profile: (id) => {
      try {
        const p = profiles.profiles.get(id);
        const account = {
          environment: p.environment,
          baseUrl: profiles.profiles.effectiveBaseUrl(p.id) ?? '',
          merchantNo: p.merchantNo,
          storeNo: p.storeNo,
        };
        return { id: p.id, name: p.name, account };
      } catch {
        return undefined;
      }
    },
    onProgress: (runId, p) => events.emit('reconciliation.progress', { runId, ...p }),
  });
  // Refunds' view of the engine's store, shared by the refund service and the batch dry run's reads.
  const refundStore = refundStoreOn(store.intents);
  const refunds = createRefundsRuntime({
    store: refundStore,
    identity,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    untrusted: store.untrusted,
    unreadable: store.unreadable,
    // Team storage: which of the team's refunds this desk made (the database's stamp, not the operator name).
    ...(store.team ? { desk: () => store.team?.().deskStamp } : {}),
    clock: adapters.clock,
    log: adapters.log,
    events,
    profiles,
    ...(options.background === false ? { background: false } : {}),
    ...(options.singleAccount ? { singleAccount: options.singleAccount } : {}),
  });
  const payments = (opened.payments = createPaymentsRuntime({
    store: paymentStoreOn(store.intents, store.customers),
    identity,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    untrusted: store.untrusted,
    clock: adapters.clock,
    log: adapters.log,
    events,
    profiles,
    openExternal: adapters.openExternal,
    ...(options.background === false ? { background: false } : {}),
  }));
  // Refund batches: the dry run reads this desk's intents through one narrow function, the engine's read
  // of one payment's refunds (throws UnreadableIntentError as a decision does), and the rows batches
  // already refunded from the intents' own row keys; execution sends each row through the refund service.
  const batchProfile = (id: string) => {
    const p = profiles.profiles.get(id);
    const baseUrl = profiles.profiles.effectiveBaseUrl(p.id) ?? '';
    return {
      profileId: p.id,
      profileName: p.name,
      environment: p.environment,
      baseUrl,
      merchantNo: p.merchantNo,
      storeNo: p.storeNo,
      moneyMode: moneyModeOf(p.environment, baseUrl, p.loopbackMoneyMode),
      operator: p.operatorName ?? identity.osUser,
    };
  };
  const batchStore = store.batches;
  const batch = createBatchDryRun({
    profile: batchProfile,
    gatewayFor: (id) => profiles.gatewayFor(id),
    limiterFor,
    intentsOf: (account, transactionNo) =>
      refundStore.forPayment(account.merchantNo, account.storeNo, transactionNo),
    ...(batchStore
      ? {
          doneKeys: async (account) =>
            new Map([...(await batchStore.doneKeys(account))].map(([k, v]) => [k, v.batchId])),
        }
      : {}),
    // Team mode: rows above the account's approval policy (the database's) are classed needs_approval.
    ...(batchStore?.approvals
      ? { approvalLimits: (account) => batchStore.approvals!.policies(account) }
      : {}),
    clock: adapters.clock,
  });
  const batchExec = batchStore
    ? createBatchExecutor({
        store: batchStore,
        dryRun: batch,
        refunds: refunds.service,
        profile: batchProfile,
        limiterFor,
        audit: (e) => refundStore.audit.record(e),
        clock: adapters.clock,
        log: adapters.log,
        newId: () => newSortableId('RB', adapters.clock.now()),
        runner: identity.sender,
        onProgress: (status) => events.emit('refunds.batchProgress', status),
        ...(options.leaseMs ? { settleWaitMs: options.leaseMs + 5_000 } : {}),
      })
    : undefined;
  // A batch that was running when this desk stopped (closed, crashed) resumes where it was.
  if (batchExec && options.background !== false && !store.untrusted())
    void profiles.profiles
      .list()
      .then(({ profiles: list }) => batchExec.resumeRunning(list))
      .catch((e: unknown) =>
        adapters.log.warn('batch.resume_failed', { error: e instanceof Error ? e.message : String(e) }),
      );
  const timeline = createPaymentTimeline({
    store: store.timeline,
    clock: adapters.clock,
    log: adapters.log,
    unreadable: store.unreadable,
    context: (profileId) => {
      const p = profiles.profiles.get(profileId);
      return {
        profileId: p.id,
        profileName: p.name,
        environment: p.environment,
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
        operator: p.operatorName ?? identity.osUser,
      };
    },
  });
  // Settings → Team database. Only the desktop app opens the team database from Settings (at start);
  // the browser host and the CLI take it from --database-url.
  const team = createTeamService({
    settings: adapters.settings,
    secrets: adapters.secrets,
    // Settings → Team database → Test: the pg client is loaded when a person first asks, not at start.
    test: async (c) =>
      (await import('./adapters/team-connection-test')).createTeamConnectionTest({ deskId: 'settings-test' })(
        c,
      ),
    log: adapters.log,
    storage: store,
    appliesAt: adapters.host === 'electron' ? 'restart' : 'command-line',
  });
  const forApp = appHandlers(app);
  const forProfiles = profileHandlers(profiles);
  const forTeam = teamHandlers(team);
  const forRefunds = refundHandlers(refunds.service, adapters.clock.now);
  const handlers: HandlerMap = {
    ...forApp,
    'app.bootstrap': bootstrapHandler({ ...forApp, ...forProfiles, ...forTeam, ...forRefunds }),
    ...forProfiles,
    ...transactionHandlers(lookup, (profileId, found) =>
      timeline.recordLookup(profileId, found.transaction.transactionNo, found.kind),
    ),
    ...transactionSyncHandlers(
      createTransactionSync({ gateway: (id) => profiles.gatewayOf(id), clock: adapters.clock, limiterFor }),
    ),
    ...reconciliationHandlers(
      reconciliation,
      () => {
        const demo = demoLedgerFor(sandbox);
        return { name: 'demo-ledger.csv', text: demo.csv };
      },
      (profileId) => {
        try {
          return profiles.profiles.get(profileId).operatorName ?? identity.osUser;
        } catch {
          return identity.osUser;
        }
      },
    ),
    ...forRefunds,
    ...refundBatchHandlers(batch, batchExec),
    ...paymentHandlers(payments),
    ...timelineHandlers(timeline),
    ...forTeam,
  };
  return {
    dispatch: createDispatcher(handlers, adapters.log),
    events,
    handlers,
    profiles,
    demoSandbox: () => sandbox,
    close: async () => {
      await batchExec?.close();
      refunds.close();
      payments.close();
      await reconciliation.close();
      await profiles.close();
      await store.close();
    },
  };
}
