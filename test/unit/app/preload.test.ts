import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { BridgeTransport } from '../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL, EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc/channels';

/**
 * The preload is the only file that touches ipcRenderer (checklist item 19: do not expose Electron
 * APIs to untrusted content). Run against a fake contextBridge and ipcRenderer, it must expose one
 * global of plain functions, one per contract operation, each bound to its own channel — no
 * ipcRenderer, no generic invoke(channel), no send/sendSync, and listeners never see the IPC event.
 */
const exposed = new Map<string, unknown>();
const ipcRenderer = {
  invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
  on: vi.fn(),
  removeListener: vi.fn(),
  send: vi.fn(),
  sendSync: vi.fn(),
  postMessage: vi.fn(),
};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer,
}));

// The one builder, watched: the preload must expose what it returns, not a bridge of its own.
const built: unknown[] = [];
vi.mock('../../../shared/ipc/bridge', async (importActual) => {
  const actual = await importActual<typeof import('../../../shared/ipc/bridge')>();
  return {
    ...actual,
    buildBridge: vi.fn((transport: BridgeTransport) => {
      const bridge = actual.buildBridge(transport);
      built.push(bridge);
      return bridge;
    }),
  };
});
const { buildBridge } = await import('../../../shared/ipc/bridge');
const actual = await vi.importActual<typeof import('../../../shared/ipc/bridge')>(
  '../../../shared/ipc/bridge',
);

await import('../../../electron/app/preload/index');
const bridge = exposed.get(BRIDGE_GLOBAL) as Record<string, unknown> & {
  on: Record<string, (l: (p: unknown) => void) => () => void>;
};

describe('preload bridge', () => {
  it('asks main for app.bootstrap once as it loads, and hands that answer to the renderer’s first app.bootstrap', async () => {
    // The preload runs before the renderer's modules: main answers while they load.
    expect(ipcRenderer.invoke.mock.calls).toEqual([['app.bootstrap', undefined]]);
    const first = await (bridge['app.bootstrap'] as () => Promise<unknown>)();
    expect(first).toEqual({ ok: true, value: { channel: 'app.bootstrap', input: undefined } });
    expect(ipcRenderer.invoke).toHaveBeenCalledTimes(1);
    await (bridge['app.bootstrap'] as () => Promise<unknown>)();
    expect(ipcRenderer.invoke).toHaveBeenCalledTimes(2);
  });

  it('exposes exactly one global, with one plain function per operation and an `on` per event', () => {
    expect([...exposed.keys()]).toEqual([BRIDGE_GLOBAL]);
    expect(Object.keys(bridge).sort()).toEqual([...INVOKE_CHANNELS, 'on'].sort());
    for (const ch of INVOKE_CHANNELS) expect(typeof bridge[ch], ch).toBe('function');
    expect(Object.keys(bridge.on).sort()).toEqual([...EVENT_CHANNELS].sort());
    // Plain data: no getters or proxies a compromised page could use to reach behind the bridge.
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(bridge))) {
      expect(d.get ?? d.set, key).toBeUndefined();
    }
    for (const value of [bridge, ...Object.values(bridge), ...Object.values(bridge.on)]) {
      expect(value).not.toBe(ipcRenderer);
      expect(Object.values(value as object)).not.toContain(ipcRenderer.invoke);
    }
  });

  it('is the bridge the shared builder made, and nothing but the channel list', () => {
    expect(buildBridge).toHaveBeenCalledTimes(1);
    expect(built).toHaveLength(1);
    expect(bridge).toBe(built[0]);
    // Same keys in the same order as the builder gives any transport — the browser host's page too.
    const reference = actual.buildBridge({
      invoke: async () => ({ ok: true, value: undefined as never }),
      subscribe: () => () => {},
    });
    expect(Object.keys(bridge)).toEqual(Object.keys(reference));
    expect(Object.keys(bridge.on)).toEqual(Object.keys(reference.on));
    // An unknown channel is absent, not a function that fails later.
    for (const name of ['nope.nothing', 'invoke', 'send', 'ipcRenderer', 'refunds.delete']) {
      expect(name in bridge, name).toBe(false);
    }
    expect('nope.event' in bridge.on).toBe(false);
  });

  it('each operation invokes only its own channel, whatever it is given', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INVOKE_CHANNELS),
        fc.anything(),
        fc.anything(),
        async (ch, a, b) => {
          ipcRenderer.invoke.mockClear();
          await (bridge[ch] as (...args: unknown[]) => Promise<unknown>)(a, b);
          expect(ipcRenderer.invoke).toHaveBeenCalledTimes(1);
          expect(ipcRenderer.invoke.mock.calls[0]![0]).toBe(ch);
          // Only the input goes over: extra arguments cannot choose a channel or add data.
          expect(ipcRenderer.invoke.mock.calls[0]).toHaveLength(2);
        },
      ),
      { seed: 19, numRuns: 200 },
    );
    expect(ipcRenderer.send).not.toHaveBeenCalled();
    expect(ipcRenderer.sendSync).not.toHaveBeenCalled();
    expect(ipcRenderer.postMessage).not.toHaveBeenCalled();
  });

  it('event listeners get the payload only, never the IpcRendererEvent (its sender), and can unsubscribe', () => {
    for (const ev of EVENT_CHANNELS) {
      ipcRenderer.on.mockClear();
      const listener = vi.fn();
      const off = bridge.on[ev]!(listener);
      expect(ipcRenderer.on).toHaveBeenCalledWith(ev, expect.any(Function));
      const wrapped = ipcRenderer.on.mock.calls[0]![1] as (e: unknown, p: unknown) => void;
      wrapped({ sender: ipcRenderer, senderFrame: {} }, { hello: ev });
      expect(listener).toHaveBeenCalledWith({ hello: ev });
      expect(listener.mock.calls[0]).toHaveLength(1);
      off();
      expect(ipcRenderer.removeListener).toHaveBeenCalledWith(ev, wrapped);
    }
  });
});
