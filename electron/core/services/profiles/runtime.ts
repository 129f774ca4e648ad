import { isLoopbackUrl } from '../../../../shared/domain/profile';
import type { Output } from '../../../../shared/ipc/contract';
import type { EventBus } from '../event-bus';
import { createReachabilityTracker } from '../gateway/reachability';
import type { GatewayClient, RetryPolicy } from '../gateway/client';
import type { HttpClient } from '../gateway/http-port';
import { createIpnLifecycle } from '../ipn/lifecycle';
import type { IpnEvent, IpnListenerFactory } from '../ipn/events';
import type { Clock, Logger } from '../ports';
import { testConnection } from './connection-test';
import type { SecretStore, SettingsStore } from './ports';
import { bootDemo, createDemoProfileIfFirstRun } from './demo-boot';
import { createGatewayRegistry } from './gateway-registry';
import { createProfilesService, type DemoRuntime } from './service';

/** A started embedded sandbox, as the runtime needs it. */
export interface DemoHandle extends DemoRuntime {
  close(): Promise<void>;
}

export interface ProfilesRuntimeDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  http: HttpClient;
  clock: Clock;
  log: Logger;
  events: EventBus;
  /** Starts the embedded sandbox; undefined disables Demo (no sandbox is started). */
  startDemo?: () => Promise<DemoHandle>;
  /** Durable IPN record with its dedup key (the app database); 'duplicate' if the key was seen before. */
  recordIpn: (event: IpnEvent, key: string) => Promise<'recorded' | 'duplicate' | void>;
  /** Gateway tuning (tests); the defaults are the stated time budget in gateway/transport.ts. */
  gateway?: { timeoutMs?: number; readBudgetMs?: number; retry?: Partial<RetryPolicy> };
  random?: () => number;
  /** Told of every recorded IPN before it is confirmed (payments follow theirs at once). Must not throw. */
  onIpn?: (event: IpnEvent) => void;
  /** The IPN HTTP listener adapter. */
  createIpnListener: IpnListenerFactory;
  /** The operator's name when a profile names none (the host's OS account). */
  osUser?: string;
}

/**
 * Profiles plus everything that follows the active profile: the gateway, the embedded Demo sandbox and
 * the IPN listener. First run (no profiles) creates "Demo" against the embedded sandbox so a new user
 * sees a working app without credentials.
 */
export async function createProfilesRuntime(deps: ProfilesRuntimeDeps) {
  let demo: DemoHandle | undefined;
  const profiles = createProfilesService({
    settings: deps.settings,
    secrets: deps.secrets,
    clock: deps.clock,
    log: deps.log,
    demo: () => demo,
    ...(deps.osUser !== undefined ? { osUser: deps.osUser } : {}),
  });

  const reachability = createReachabilityTracker(deps.clock);
  const registry = createGatewayRegistry({
    profiles,
    http: deps.http,
    clock: deps.clock,
    log: deps.log,
    onReachability: (profileId, ok, detail) => {
      if (profileId) reachability.record(profileId, ok, detail);
    },
    ...(deps.gateway ? { tuning: deps.gateway } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
  const gatewayFor = (
    profileId: string,
    tuning?: { timeoutMs?: number; retry?: Partial<RetryPolicy> },
  ): GatewayClient => registry.gatewayFor(profileId, tuning);

  const ipn = createIpnLifecycle({
    profiles,
    tokenOf: registry.tokenOf,
    gatewayFor: (id) => gatewayFor(id),
    events: deps.events,
    clock: deps.clock,
    log: deps.log,
    record: deps.recordIpn,
    createListener: deps.createIpnListener,
    ...(deps.onIpn ? { onIpn: deps.onIpn } : {}),
  });
  const syncIpn = () => ipn.sync();

  demo = await bootDemo({
    profiles,
    log: deps.log,
    ...(deps.startDemo ? { startDemo: deps.startDemo } : {}),
  });
  // The profile is saved once `demo` is set: saving a Demo profile asks for the running sandbox.
  await createDemoProfileIfFirstRun(profiles, demo);
  await syncIpn();
  profiles.onChange(() => {
    void syncIpn().catch((e: unknown) =>
      deps.log.error('ipn.sync_failed', { error: e instanceof Error ? e.message : String(e) }),
    );
    deps.events.emit('profiles.changed', { activeProfileId: profiles.active()?.id ?? null });
  });

  return {
    profiles,
    gatewayFor,
    /** Profiles as follow-ups see them (address, merchant, whether a token is set), from the token cache. */
    accountCandidates: () => registry.accountCandidates(),
    /**
     * The gateway of the profile a call names (never "whichever is active now"): `not_found` for a
     * profile that no longer exists, before any network.
     */
    async gatewayOf(profileId: string): Promise<{ profileId: string; client: GatewayClient }> {
      const p = profiles.get(profileId);
      return { profileId: p.id, client: gatewayFor(p.id) };
    },
    testConnection: (profileId: string) => {
      profiles.get(profileId); // not_found for a stale id, before any network
      // A person is waiting on this button: one attempt with a shorter timeout, no silent retries.
      return testConnection(
        async () =>
          gatewayFor(profileId, {
            timeoutMs: Math.min(deps.gateway?.timeoutMs ?? 8_000, 8_000),
            retry: { retries: 0 },
          }),
        deps.clock,
        deps.random,
      );
    },
    /**
     * ipnUrl for a profile's payments and refunds: undefined when IPN is off for it, or when the service
     * it talks to is not on this machine (a remote service could never reach 127.0.0.1, and the URL
     * would only tell it our port and profile id).
     */
    ipnUrlFor(profileId: string): string | undefined {
      if (!profiles.get(profileId).ipnEnabled) return undefined;
      const base = profiles.effectiveBaseUrl(profileId);
      return base && isLoopbackUrl(base) ? ipn.listener.urlFor(profileId) : undefined;
    },
    demoBaseUrl: () => demo?.baseUrl,
    ipnIdle: () => ipn.idle(),
    /** Health as seen by the named profile (the active one when none is named, or it is gone). */
    async healthChecks(profileId?: string): Promise<Output<'app.health'>['checks']> {
      const checks: Output<'app.health'>['checks'] = [];
      const problem = profiles.settingsProblem();
      checks.push(
        problem ? { name: 'settings', ok: false, detail: problem } : { name: 'settings', ok: true },
      );
      const named = profileId
        ? (() => {
            try {
              return profiles.get(profileId);
            } catch {
              return undefined; // gone meanwhile: the active profile's health instead
            }
          })()
        : undefined;
      const active = named ?? profiles.active();
      if (active?.environment === 'demo') {
        checks.push(
          demo
            ? { name: 'demo-sandbox', ok: true }
            : { name: 'demo-sandbox', ok: false, detail: 'The built-in sandbox is not running.' },
        );
      }
      // Learnt from the app's own traffic: no extra requests just to colour a dot.
      const reach = active ? reachability.get(active.id) : undefined;
      if (reach && !reach.reachable) {
        const since = reach.failingSince ? ` since ${reach.failingSince}` : '';
        const lastOk = reach.lastSuccessAt
          ? `last answer ${reach.lastSuccessAt}`
          : 'no answer since Refund Desk started';
        const problem = `Payment service ${reach.detail?.startsWith('HTTP') ? 'failing' : 'unreachable'} (${reach.detail ?? 'no connection'})`;
        checks.push({
          name: 'service',
          ok: false,
          detail: `${problem}${since}; ${lastOk}. Cached data stays available; refunds may end as “outcome unknown”.`,
          problem,
          ...(reach.failingSince ? { failingSince: reach.failingSince } : {}),
          ...(reach.lastSuccessAt ? { lastSuccessAt: reach.lastSuccessAt } : {}),
        });
      } else if (reach) {
        const lastSuccessAt = reach.lastSuccessAt ?? reach.at;
        checks.push({ name: 'service', ok: true, detail: `Last answer ${lastSuccessAt}`, lastSuccessAt });
      }
      return checks;
    },
    async close(): Promise<void> {
      await ipn.close();
      await demo?.close();
      demo = undefined;
    },
  };
}
export type ProfilesRuntime = Awaited<ReturnType<typeof createProfilesRuntime>>;
