import type { AppErrorShape, Result } from '../../../../shared/domain/errors';
import { buildBridge } from '../../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL, EVENT_CHANNELS, type EventChannel } from '../../../../shared/ipc/channels';
import { withEarlyBootstrap } from '../../../../shared/ipc/early-bootstrap';

/**
 * The browser host's stand-in for the preload, run in the page before the renderer's module: the
 * bridge that `buildBridge` makes (the same builder the preload uses) over loopback HTTP — an operation
 * is `POST /ipc/<channel>`, events arrive as JSON lines on `GET /events`. The per-run secret arrives in
 * the URL fragment (never sent to any server, never in a log), is kept in sessionStorage for reloads and
 * is stripped from the address. The host bundles this file and serves it as /__host/bridge.js.
 */
const KEY = 'refund-desk-host-secret';
const fromHash = new URLSearchParams(location.hash.slice(1)).get('secret');
if (fromHash) {
  sessionStorage.setItem(KEY, fromHash);
  history.replaceState(null, '', location.pathname + location.search);
}
const secret = sessionStorage.getItem(KEY) ?? '';

const offline = (message: string): { ok: false; error: AppErrorShape } => ({
  ok: false,
  error: { code: 'unavailable', message, retryable: true, correlationId: 'host' },
});

async function call(channel: string, input: unknown): Promise<Result<never>> {
  let res: Response;
  try {
    res = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-refund-desk-secret': secret },
      body: JSON.stringify({ input: input === undefined ? null : input }),
    });
  } catch {
    return offline('The Refund Desk host is not running. Restart it with npm run start:web.');
  }
  try {
    // The host answers main's envelope, its value already checked against the contract by the
    // dispatcher: `Result<never>` fits every operation's result type without a cast.
    return await res.json();
  } catch {
    return offline(`The Refund Desk host answered with something unreadable (HTTP ${res.status}).`);
  }
}

// Each set holds one event's listeners and is handed that event's payloads as main emitted them (typed
// by the contract where main emits them); `never` lets one map hold every event's listeners uncast.
const listeners = new Map<EventChannel, Set<(payload: never) => void>>(
  EVENT_CHANNELS.map((e) => [e, new Set()]),
);
let streaming = false;
async function stream(): Promise<void> {
  if (streaming) return;
  streaming = true;
  for (;;) {
    try {
      const res = await fetch('/events', { headers: { 'x-refund-desk-secret': secret } });
      if (!res.ok || !res.body) throw new Error('stream refused');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line) continue;
          const msg: { event: EventChannel; payload: never } = JSON.parse(line);
          for (const l of listeners.get(msg.event) ?? []) {
            try {
              l(msg.payload);
            } catch (e) {
              console.error(e);
            }
          }
        }
      }
    } catch {
      // reconnect below
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const bridge = buildBridge({
  // The first screen's data (app.bootstrap) is asked as this script runs (the document parsed, before
  // the renderer's module runs): the host answers while the browser finishes loading and evaluating the
  // renderer's modules. Not without a secret (refused).
  invoke: secret ? withEarlyBootstrap(call) : call,
  subscribe: (event, listener) => {
    const set = listeners.get(event);
    set?.add(listener);
    void stream();
    return () => {
      set?.delete(listener);
    };
  },
});

Object.defineProperty(window, BRIDGE_GLOBAL, {
  value: Object.freeze(bridge),
  writable: false,
  configurable: false,
});
