import { join } from 'node:path';
import { app, BrowserWindow, type Session, shell } from 'electron';
import { isAllowedExternalUrl } from './services/external-links';
import {
  APP_ORIGIN,
  permissionDecision,
  secureWebPreferences,
  shouldBlockNavigation,
  windowOpenDecision,
} from './security/guards';

/**
 * The dev server URL electron-vite sets in development. A packaged app ignores it: otherwise anyone who
 * can set an environment variable could load (and have IPC trust) a renderer from any origin.
 */
export const devServerUrl = (): string | undefined =>
  app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];

/** Denies every permission request for the session, once. */
export function lockDownSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(permissionDecision(permission)),
  );
  session.setPermissionCheckHandler((_wc, permission) => permissionDecision(permission));
}

/**
 * The one BrowserWindow factory. Every guard is here: secure preferences, no navigation, no new windows
 * (allow-listed https links open in the system browser), no webviews.
 */
export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Refund Desk',
    backgroundColor: '#f6f7f9',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  const wc = win.webContents;
  wc.on('will-navigate', (event, url) => {
    if (shouldBlockNavigation(url)) event.preventDefault();
  });
  wc.on('will-redirect', (event) => event.preventDefault());
  wc.on('will-attach-webview', (event) => event.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return windowOpenDecision();
  });
  win.once('ready-to-show', () => win.show());
  const dev = devServerUrl();
  void (dev ? win.loadURL(dev) : win.loadURL(`${APP_ORIGIN}/index.html`));
  return win;
}
