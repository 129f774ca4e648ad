import { join } from 'node:path';
import { type App, app, BrowserWindow, type Session, shell, type WebContents } from 'electron';
import { isAllowedExternalUrl } from '../core/services/external-links';
import {
  APP_ORIGIN,
  isRendererRequestAllowed,
  permissionDecision,
  REMOTE_REQUEST_PATTERNS,
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

/**
 * Locks the session down, once: every permission request, check and device request is denied, and no
 * request leaves for the network (http, https, ws, wss) except to a development run's dev server.
 */
export function lockDownSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(permissionDecision(permission)),
  );
  session.setPermissionCheckHandler((_wc, permission) => permissionDecision(permission));
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest({ urls: REMOTE_REQUEST_PATTERNS }, (details, callback) =>
    callback({ cancel: !isRendererRequestAllowed(details.url, devServerUrl()) }),
  );
}

/**
 * The navigation guards every webContents gets: no navigation (any frame), no redirects, no webviews,
 * no new windows (allow-listed https links go to the system browser instead).
 */
export function guardWebContents(wc: WebContents): void {
  wc.on('will-navigate', (event, url) => {
    if (shouldBlockNavigation(url)) event.preventDefault();
  });
  wc.on('will-frame-navigate', (event) => {
    if (shouldBlockNavigation(event.url)) event.preventDefault();
  });
  wc.on('will-redirect', (event) => event.preventDefault());
  wc.on('will-attach-webview', (event) => event.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return windowOpenDecision();
  });
}

/** Applies the guards to every webContents the app ever creates, not only the main window's. */
export function guardEveryWebContents(electronApp: App): void {
  electronApp.on('web-contents-created', (_event, wc) => guardWebContents(wc));
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
  guardWebContents(win.webContents);
  win.once('ready-to-show', () => win.show());
  const dev = devServerUrl();
  void (dev ? win.loadURL(dev) : win.loadURL(`${APP_ORIGIN}/index.html`));
  return win;
}
