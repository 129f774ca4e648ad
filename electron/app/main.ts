import { hostname } from 'node:os';
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, safeStorage, session, shell } from 'electron';
import ElectronStore from 'electron-store';
import { createConfSettingsStore } from '../core/adapters/conf-settings-store';
import { createLogger } from '../core/adapters/logger';
import { createSafeStorageSecretStore } from './adapters/safe-storage-secret-store';
import { createAppCore } from '../core/compose';
import { openDeskStorage } from '../core/adapters/team-settings';
import { forwardEvents, registerIpc } from './ipc';
import { registerAppScheme, serveRenderer } from './protocol';
import { createMainWindow, guardEveryWebContents, lockDownSession } from './window';

/**
 * Composition root only: adapters → services → IPC handlers → window. No logic lives here.
 */
registerAppScheme();
// Every renderer sandboxed, whatever its webPreferences say (before 'ready').
app.enableSandbox();
guardEveryWebContents(app);

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
    const settings = createConfSettingsStore({
      open: () => new ElectronStore<Record<string, unknown>>({ name: 'settings', cwd: dataDir }),
      filePath: join(dataDir, 'settings.json'),
    });
    const secrets = createSafeStorageSecretStore({
      safeStorage,
      file: join(dataDir, 'secrets.json'),
      platform: process.platform,
      log,
    });
    const core = await createAppCore({
      host: 'electron',
      name: 'Refund Desk',
      version: app.getVersion(),
      dataDir,
      platform: process.platform,
      clock: { now: Date.now },
      log,
      openExternal: (url) => shell.openExternal(url),
      settings,
      secrets,
      // Storage is chosen here: the SQLite file in the data directory (one desk), or the team database
      // for the journal when Settings name one (its password from safeStorage, main only).
      storage: await openDeskStorage({ dataDir, now: Date.now, log, settings, secrets, deskId: hostname() }),
    });
    // electron-store answers 'electron-store-get-data' to any sender (paths and version, for its own
    // renderer-side use, which we do not have). Main keeps no IPC listener that skips the sender check.
    ipcMain.removeAllListeners('electron-store-get-data');
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
