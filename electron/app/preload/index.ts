import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL, EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc/channels';
import type { Bridge } from '../../../shared/ipc/contract';

/**
 * The only file that touches ipcRenderer. It exposes one plain function per contract operation and a
 * subscribe function per declared event — never ipcRenderer itself, never a generic invoke. It imports
 * only plain constants (a sandboxed preload cannot load packages) and types.
 */
const invoke = (channel: string) => (input?: unknown) => ipcRenderer.invoke(channel, input);

// Built from the channel list, so the cast is checked by the contract test (every channel present).
const operations = Object.fromEntries(INVOKE_CHANNELS.map((ch) => [ch, invoke(ch)])) as Omit<Bridge, 'on'>;
const on = Object.fromEntries(
  EVENT_CHANNELS.map((ev) => [
    ev,
    (listener: (payload: unknown) => void) => {
      // Strip the IpcRendererEvent: the renderer must never get a handle on the sender.
      const wrapped = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(ev, wrapped);
      return () => {
        ipcRenderer.removeListener(ev, wrapped);
      };
    },
  ]),
) as Bridge['on'];

const bridge = { ...operations, on } satisfies Bridge;

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
