import { join } from 'node:path';
import { app, BrowserWindow, session, shell } from 'electron';
import { createLogger } from './adapters/logger';
import { createAppCore } from './compose';
import { forwardEvents, registerIpc } from './ipc/electron-ipc';
import { registerAppScheme, serveRenderer } from './protocol';
import { createMainWindow, lockDownSession } from './window';

/**
 * Composition root only: adapters → services → IPC handlers → window. No logic lives here.
 */
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  void app.whenReady().then(async () => {
    const dataDir = app.getPath('userData');
    const log = createLogger({ file: join(dataDir, 'logs', 'main.jsonl') });
    lockDownSession(session.defaultSession);
    serveRenderer(join(import.meta.dirname, '../renderer'));
    const core = await createAppCore({
      host: 'electron',
      name: 'Refund Desk',
      version: app.getVersion(),
      dataDir,
      platform: process.platform,
      clock: { now: Date.now },
      log,
      openExternal: (url) => shell.openExternal(url),
    });
    const windows = () => BrowserWindow.getAllWindows();
    registerIpc(core.dispatch, windows, log);
    forwardEvents(core.events, windows);
    createMainWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
    });
    app.on('will-quit', () => void core.close());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
