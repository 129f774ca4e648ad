import { BRIDGE_GLOBAL, EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc/channels';

/**
 * The browser host's stand-in for the preload: the same API (one function per operation, `on` per
 * event) implemented over loopback HTTP. The per-run secret arrives in the URL fragment (never sent to
 * any server, never in a log), is kept in sessionStorage for reloads, and is stripped from the address.
 * Served as a classic script before the renderer's module, so the bridge exists when the app boots.
 */
export function bridgeScript(): string {
  const config = JSON.stringify({ global: BRIDGE_GLOBAL, channels: INVOKE_CHANNELS, events: EVENT_CHANNELS });
  return `(() => {
  'use strict';
  const config = ${config};
  const KEY = 'refund-desk-host-secret';
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('secret');
  if (fromHash) {
    sessionStorage.setItem(KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const secret = sessionStorage.getItem(KEY) || '';
  const offline = (message) => ({ ok: false, error: { code: 'unavailable', message, retryable: true, correlationId: 'host' } });
  const call = async (channel, input) => {
    let res;
    try {
      res = await fetch('/ipc/' + encodeURIComponent(channel), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-refund-desk-secret': secret },
        body: JSON.stringify({ input: input === undefined ? null : input }),
      });
    } catch {
      return offline('The Refund Desk host is not running. Restart it with npm run start:web.');
    }
    try {
      return await res.json();
    } catch {
      return offline('The Refund Desk host answered with something unreadable (HTTP ' + res.status + ').');
    }
  };
  const listeners = new Map(config.events.map((e) => [e, new Set()]));
  let streaming = false;
  const stream = async () => {
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
          let nl;
          while ((nl = buf.indexOf('\\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line) continue;
            const msg = JSON.parse(line);
            for (const l of listeners.get(msg.event) || []) { try { l(msg.payload); } catch (e) { console.error(e); } }
          }
        }
      } catch { /* reconnect below */ }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const api = {};
  for (const ch of config.channels) api[ch] = (input) => call(ch, input);
  api.on = {};
  for (const ev of config.events) {
    api.on[ev] = (listener) => {
      listeners.get(ev).add(listener);
      void stream();
      return () => { listeners.get(ev).delete(listener); };
    };
  }
  Object.defineProperty(window, config.global, { value: Object.freeze(api), writable: false, configurable: false });
})();
`;
}
