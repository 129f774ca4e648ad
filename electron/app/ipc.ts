import { type BrowserWindow, ipcMain } from 'electron';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../shared/ipc/channels';
import type { EventBus } from '../core/services/event-bus';
import type { Logger } from '../core/services/ports';
import { isTrustedSender } from './security/guards';
import { devServerUrl } from './window';
import { type Dispatch, forbiddenEnvelope } from '../core/ipc/dispatcher';

/**
 * Electron half of `handle()`: for each contract channel, check the sender is the top frame of one of
 * our windows, then hand over to the shared dispatcher (parse → call → envelope).
 */
export function registerIpc(dispatch: Dispatch, windows: () => BrowserWindow[], log: Logger): void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, input: unknown) => {
      const trusted = isTrustedSender(
        event.senderFrame,
        (frame) => windows().some((w) => w.webContents.mainFrame === frame),
        devServerUrl(),
      );
      if (!trusted) {
        log.warn('ipc.foreign_sender', { channel });
        return forbiddenEnvelope();
      }
      return dispatch(channel, input);
    });
  }
}

/** Forwards declared main → renderer events to every open window. */
export function forwardEvents(bus: EventBus, windows: () => BrowserWindow[]): () => void {
  const known = new Set<string>(EVENT_CHANNELS);
  return bus.subscribe((event, payload) => {
    if (!known.has(event)) return;
    for (const w of windows()) if (!w.isDestroyed()) w.webContents.send(event, payload);
  });
}
