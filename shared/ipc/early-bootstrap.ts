import type { BridgeTransport } from './bridge';

/**
 * A transport's `invoke` that asks main for the first screen's data (app.bootstrap) right away, as the
 * bridge is made — in the preload, or in the browser host's page script, both of which run before the
 * renderer's modules — so main answers while the renderer is still loading, instead of after it. That
 * answer is handed once, to the renderer's own first app.bootstrap (which it makes as it starts, without
 * input); every other call, and every later app.bootstrap, asks anew. No new capability: the same call
 * the renderer makes, made a little earlier.
 */
export function withEarlyBootstrap(invoke: BridgeTransport['invoke']): BridgeTransport['invoke'] {
  let early: ReturnType<BridgeTransport['invoke']> | undefined = invoke('app.bootstrap', undefined);
  // Whoever takes it sees a failure; one nobody took is not an unhandled rejection.
  early.catch(() => undefined);
  return (channel, input) => {
    if (channel === 'app.bootstrap' && input === undefined && early) {
      const answer = early;
      early = undefined;
      // The same operation's envelope: typed as app.bootstrap's, asked for as the generic channel's.
      return answer as ReturnType<typeof invoke<typeof channel>>;
    }
    return invoke(channel, input);
  };
}
