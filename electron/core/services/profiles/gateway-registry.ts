import type { AccountCandidate } from '../engine/account';
import { createGatewayClient, type GatewayClient, type RetryPolicy } from '../gateway/client';
import type { HttpClient } from '../gateway/http-port';
import type { Clock, Logger } from '../ports';
import type { ProfilesService } from './service';

export interface GatewayRegistryDeps {
  profiles: ProfilesService;
  http: HttpClient;
  clock: Clock;
  log: Logger;
  /** Told of every answer or failure, per profile (health from real traffic). */
  onReachability: (profileId: string | undefined, ok: boolean, detail?: string) => void;
  tuning?: { timeoutMs?: number; readBudgetMs?: number; retry?: Partial<RetryPolicy> };
  random?: () => number;
}

/**
 * The one place that turns a profile into a signed gateway: one client per profile and one token cache,
 * both dropped whenever profiles change (a token set or cleared, a profile saved, retargeted or
 * deleted), so the secret store is read once per profile and change — not on every call or follow-up.
 */
export function createGatewayRegistry(deps: GatewayRegistryDeps) {
  const tokens = new Map<string, Promise<string | undefined>>();
  const clients = new Map<string, GatewayClient>();
  deps.profiles.onChange(() => {
    tokens.clear();
    clients.clear();
  });

  const tokenOf = (id: string): Promise<string | undefined> => {
    let t = tokens.get(id);
    if (!t) {
      t = deps.profiles.tokenFor(id);
      tokens.set(id, t);
      // A failed read is not remembered: the next call tries the store again.
      t.catch(() => tokens.delete(id));
    }
    return t;
  };

  function build(profileId: string, tuning: { timeoutMs?: number; retry?: Partial<RetryPolicy> }) {
    const timeoutMs = tuning.timeoutMs ?? deps.tuning?.timeoutMs;
    const retry = tuning.retry ?? deps.tuning?.retry;
    const readBudgetMs = deps.tuning?.readBudgetMs;
    return createGatewayClient({
      http: deps.http,
      clock: deps.clock,
      log: deps.log,
      config: () => deps.profiles.gatewayConfig(profileId, tokenOf),
      onReachability: (ok, detail) => deps.onReachability(profileId, ok, detail),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(readBudgetMs ? { readBudgetMs } : {}),
      ...(retry ? { retry } : {}),
      ...(deps.random ? { random: deps.random } : {}),
    });
  }

  return {
    /** The signed gateway of one profile (a new client only for one-off tuning, e.g. a connection test). */
    gatewayFor(
      profileId: string,
      tuning?: { timeoutMs?: number; retry?: Partial<RetryPolicy> },
    ): GatewayClient {
      if (tuning) return build(profileId, tuning);
      let c = clients.get(profileId);
      if (!c) {
        c = build(profileId, {});
        clients.set(profileId, c);
      }
      return c;
    },
    tokenOf,
    /**
     * Every profile as a follow-up sees it (where it points, whether it has a token), from the cache:
     * deciding which profile may check a refund never reads every profile's secret again.
     */
    async accountCandidates(): Promise<AccountCandidate[]> {
      return Promise.all(
        deps.profiles.all().map(async (p) => {
          const base = deps.profiles.effectiveBaseUrl(p.id);
          return {
            id: p.id,
            name: p.name,
            environment: p.environment,
            merchantNo: p.merchantNo,
            storeNo: p.storeNo,
            ...(base ? { effectiveBaseUrl: base } : {}),
            hasToken: Boolean(await tokenOf(p.id).catch(() => undefined)),
          };
        }),
      );
    },
  };
}
export type GatewayRegistry = ReturnType<typeof createGatewayRegistry>;
