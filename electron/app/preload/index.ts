import { contextBridge, ipcRenderer } from 'electron';
import { buildBridge } from '../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL } from '../../../shared/ipc/channels';
import { withEarlyBootstrap } from '../../../shared/ipc/early-bootstrap';

/**
 * The only file that touches ipcRenderer. It exposes the bridge that `buildBridge` makes (the same
 * builder the browser host's page uses) over ipcRenderer — never ipcRenderer itself, never a generic
 * invoke. It imports only plain constants, types and small functions of our own (a sandboxed preload
 * cannot load packages). The first screen's data (app.bootstrap) is asked as it runs, so main answers
 * while the renderer's modules load (withEarlyBootstrap), as the browser host's page script does.
 */
const bridge = buildBridge({
  invoke: withEarlyBootstrap((channel, input) => ipcRenderer.invoke(channel, input)),
  subscribe: (event, listener) => {
    // Strip the IpcRendererEvent: the renderer must never get a handle on the sender.
    const wrapped = (_event: unknown, payload: Parameters<typeof listener>[0]) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => {
      ipcRenderer.removeListener(event, wrapped);
    };
  },
});

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
