import type { EventBus } from '../event-bus';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { ProfilesService } from '../profiles/service';
import { createIpnConfirmer } from './confirm';
import type { IpnEvent, IpnListenerFactory } from './events';

/**
 * The IPN side of the profiles: the loopback listener runs while any profile wants notifications, a
 * verified notification is recorded (deduplicated) and then confirmed by a fresh query before anything
 * trusts it.
 */
export function createIpnLifecycle(deps: {
  profiles: ProfilesService;
  tokenOf: (profileId: string) => Promise<string | undefined>;
  gatewayFor: (profileId: string) => GatewayClient;
  events: EventBus;
  clock: Clock;
  log: Logger;
  record: (event: IpnEvent, key: string) => Promise<'recorded' | 'duplicate' | void>;
  onIpn?: (event: IpnEvent) => void;
  /** The HTTP listener adapter (the composition root provides it). */
  createListener: IpnListenerFactory;
}) {
  const confirmer = createIpnConfirmer({
    gatewayFor: (id) => deps.gatewayFor(id),
    events: deps.events,
    clock: deps.clock,
    log: deps.log,
  });
  const listener = deps.createListener({
    clock: deps.clock,
    log: deps.log,
    tokenFor: async (id) => {
      try {
        return deps.profiles.get(id).ipnEnabled ? await deps.tokenOf(id) : undefined;
      } catch {
        return undefined;
      }
    },
    record: deps.record,
    onEvent: (e) => {
      try {
        deps.onIpn?.(e);
      } catch (err) {
        deps.log.warn('ipn.hook_failed', { error: err instanceof Error ? err.message : String(err) });
      }
      confirmer.handle(e);
    },
  });

  return {
    listener,
    /** Starts or stops the listener to match the profiles (any with IPN on). */
    async sync(): Promise<void> {
      const wanted = deps.profiles.all().some((p) => p.ipnEnabled);
      if (wanted && !listener.isRunning()) await listener.start();
      if (!wanted && listener.isRunning()) await listener.stop();
    },
    idle: () => confirmer.idle(),
    async close(): Promise<void> {
      await listener.stop();
      await confirmer.idle();
    },
  };
}
