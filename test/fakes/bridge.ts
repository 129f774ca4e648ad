import type { Result } from '../../shared/domain/errors';
import {
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  type EventChannel,
  type InvokeChannel,
} from '../../shared/ipc/channels';
import type { Bridge, EventPayload, Input, Output } from '../../shared/ipc/contract';

type Impl = { [C in InvokeChannel]?: (input: Input<C>) => Promise<Result<Output<C>>> | Result<Output<C>> };

/**
 * A typed fake of the bridge for renderer tests: the channels a test implements answer as it says,
 * every other channel answers `internal` (so a test notices a call it did not expect), `calls` records
 * what was asked, and `emit` pushes an event to the renderer's listeners as main would.
 */
export function createFakeBridge(given: Impl) {
  const impl: Impl = { ...given };
  // app.bootstrap answers what the test's profiles.list (with app.info and app.health, or plain
  // stand-ins for them) answers, as main's does — unless the test says otherwise.
  const profilesList = given['profiles.list'];
  if (!impl['app.bootstrap'] && profilesList)
    impl['app.bootstrap'] = async () => {
      const profiles = await profilesList(undefined);
      if (!profiles.ok) return profiles;
      const info = given['app.info'] ? await given['app.info'](undefined) : ok(FAKE_INFO);
      if (!info.ok) return info;
      const health = given['app.health'] ? await given['app.health'](undefined) : ok(fakeHealth());
      if (!health.ok) return health;
      const team = given['team.status']
        ? await given['team.status'](undefined)
        : ok({ mode: 'single' as const });
      if (!team.ok) return team;
      const active = profiles.value.activeProfileId;
      const intents =
        active && given['refunds.list'] ? await given['refunds.list']({ profileId: active }) : ok([]);
      if (!intents.ok) return intents;
      return ok({
        info: info.value,
        health: health.value,
        profiles: profiles.value,
        team: team.value,
        intents: active ? intents.value : null,
      });
    };
  const calls: { channel: InvokeChannel; input: unknown }[] = [];
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const invoke = Object.fromEntries(
    INVOKE_CHANNELS.map((channel) => [
      channel,
      async (input: unknown) => {
        calls.push({ channel, input });
        const fn = impl[channel] as ((i: unknown) => unknown) | undefined;
        if (!fn)
          return {
            ok: false,
            error: {
              code: 'internal',
              message: `fake bridge: ${channel} not implemented`,
              retryable: false,
              correlationId: 'test',
            },
          };
        return fn(input);
      },
    ]),
  );
  const on = Object.fromEntries(
    EVENT_CHANNELS.map((event) => [
      event,
      (listener: (payload: unknown) => void) => {
        const set = listeners.get(event) ?? new Set();
        set.add(listener);
        listeners.set(event, set);
        return () => set.delete(listener);
      },
    ]),
  );
  // The two maps are built from the channel lists the Bridge type is derived from.
  const bridge = { ...invoke, on } as unknown as Bridge;
  return {
    bridge,
    calls,
    emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

const FAKE_INFO: Output<'app.info'> = {
  name: 'Refund Desk',
  version: '0.0.0-test',
  dataDir: '/tmp/refund-desk-test',
  host: 'browser',
  mode: 'demo',
  platform: 'linux',
};
const fakeHealth = (): Output<'app.health'> => ({
  status: 'ok',
  checkedAt: '2026-11-24T10:00:00.000Z',
  uptimeMs: 1,
  checks: [],
});
