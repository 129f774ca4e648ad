/**
 * Pure security decisions for the window, kept free of Electron imports so they are unit-tested in
 * plain Node. window.ts wires them to Electron's events.
 */

/** The scheme and host the production renderer is served from. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** webPreferences every Refund Desk window gets. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    // Middle-click opens links through a separate path; the window-open handler denies it anyway.
    disableBlinkFeatures: 'Auxclick',
  } as const;
}

/**
 * The renderer's own origin: the custom protocol in production, the dev server in development.
 * Everything the window may show must come from here.
 */
export function isAppUrl(raw: string, devServerUrl?: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true;
  if (devServerUrl) {
    try {
      return url.origin === new URL(devServerUrl).origin;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Navigation is denied outright: the app is a single page and never leaves it. (A reload of the same
 * document does not fire will-navigate.)
 */
export function shouldBlockNavigation(_targetUrl: string): boolean {
  return true;
}

/** window.open / target=_blank: always denied. Allow-listed links go to the system browser instead. */
export function windowOpenDecision(): { action: 'deny' } {
  return { action: 'deny' };
}

/** URL patterns of the session's network filter: every scheme that reaches beyond this machine's app. */
export const REMOTE_REQUEST_PATTERNS = ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'];

/**
 * Whether the renderer's session may make a network request. The renderer talks to nothing but IPC
 * (the CSP says so too): only the dev server of a development run (page, modules, HMR socket) is let
 * through. Main's own calls to the payment service use Node's HTTP client, not the session.
 */
export function isRendererRequestAllowed(raw: string, devServerUrl?: string): boolean {
  if (!devServerUrl) return false;
  try {
    return new URL(raw).host === new URL(devServerUrl).host;
  } catch {
    return false;
  }
}

/** Permission requests (camera, notifications, geolocation, …): always denied. */
export function permissionDecision(_permission: string): boolean {
  return false;
}

export interface SenderFrameLike {
  url: string;
  parent: unknown;
}

/**
 * An IPC message is trusted only when it comes from the top frame of one of our windows, showing our
 * own origin. Messages from subframes, other webContents or foreign URLs are dropped.
 */
export function isTrustedSender(
  frame: SenderFrameLike | null | undefined,
  isOurWindowFrame: (frame: SenderFrameLike) => boolean,
  devServerUrl?: string,
): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  if (!isOurWindowFrame(frame)) return false;
  return isAppUrl(frame.url, devServerUrl);
}
