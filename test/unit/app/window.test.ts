import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The Electron edge is mocked (the binary cannot run here); everything asserted is our own wiring:
 * the preferences we pass and the decisions our handlers return.
 */
const created: FakeWindow[] = [];
const openExternal = vi.fn(async () => {});

class FakeWebContents {
  handlers = new Map<string, (...args: unknown[]) => void>();
  windowOpenHandler: ((d: { url: string }) => { action: string }) | undefined;
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, fn);
    return this;
  }
  setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = fn;
  }
}
class FakeWindow {
  webContents = new FakeWebContents();
  loaded: string | undefined;
  constructor(readonly options: { webPreferences: Record<string, unknown> }) {
    created.push(this);
  }
  once() {}
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
}

const fakeApp = { isPackaged: true };

vi.mock('electron', () => ({ app: fakeApp, BrowserWindow: FakeWindow, shell: { openExternal } }));

const { createMainWindow, devServerUrl, lockDownSession } = await import('../../../electron/app/window');

describe('main window security guards', () => {
  beforeEach(() => {
    created.length = 0;
    openExternal.mockClear();
    delete process.env['ELECTRON_RENDERER_URL'];
    fakeApp.isPackaged = true;
  });

  it('uses isolated, sandboxed preferences with no Node in the renderer', () => {
    createMainWindow();
    const prefs = created[0]!.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
    });
    expect(String(prefs['preload'])).toMatch(/preload[\\/]index\.cjs$/);
  });

  it('loads the renderer from the app:// protocol in production', () => {
    createMainWindow();
    expect(created[0]!.loaded).toBe('app://renderer/index.html');
  });

  it('a packaged app ignores ELECTRON_RENDERER_URL (window and IPC sender check alike)', () => {
    process.env['ELECTRON_RENDERER_URL'] = 'http://evil.example:5173/';
    createMainWindow();
    expect(created[0]!.loaded).toBe('app://renderer/index.html');
    expect(devServerUrl()).toBeUndefined();
  });

  it('an unpackaged (development) run loads the dev server it was given', () => {
    fakeApp.isPackaged = false;
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173/';
    createMainWindow();
    expect(created[0]!.loaded).toBe('http://localhost:5173/');
    expect(devServerUrl()).toBe('http://localhost:5173/');
  });

  it('blocks every navigation, redirect and webview attach', () => {
    createMainWindow();
    const wc = created[0]!.webContents;
    for (const [event, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-navigate', 'app://renderer/other.html'],
      ['will-redirect', 'https://evil.example/'],
      ['will-attach-webview', ''],
    ] as const) {
      const preventDefault = vi.fn();
      wc.handlers.get(event)!({ preventDefault }, url);
      expect(preventDefault, `${event} ${url}`).toHaveBeenCalled();
    }
  });

  it('denies window.open and sends only allow-listed https links to the system browser', () => {
    createMainWindow();
    const handler = created[0]!.webContents.windowOpenHandler!;
    expect(handler({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'http://www.yuansfer.com/' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
    expect(handler({ url: 'https://docs.pockyt.io/' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://docs.pockyt.io/');
  });

  it('denies every permission request and check', () => {
    let request: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, permission: string) => boolean) | undefined;
    let device: (() => boolean) | undefined;
    let filter: { urls: string[] } | undefined;
    let onRequest: ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void) | undefined;
    lockDownSession({
      setPermissionRequestHandler: (fn: typeof request) => (request = fn),
      setPermissionCheckHandler: (fn: typeof check) => (check = fn),
      setDevicePermissionHandler: (fn: typeof device) => (device = fn),
      webRequest: {
        onBeforeRequest: (f: typeof filter, fn: typeof onRequest) => {
          filter = f;
          onRequest = fn;
        },
      },
    } as never);
    for (const p of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      request!(null, p, cb);
      expect(cb).toHaveBeenCalledWith(false);
      expect(check!(null, p)).toBe(false);
    }
    expect(device!()).toBe(false);
    expect(filter!.urls).toEqual(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']);
    for (const url of ['https://evil.example/x.js', 'http://127.0.0.1:8787/', 'wss://evil.example/']) {
      const cb = vi.fn();
      onRequest!({ url }, cb);
      expect(cb, url).toHaveBeenCalledWith({ cancel: true });
    }
  });

  it('lets only a development run reach its own dev server through the session', () => {
    fakeApp.isPackaged = false;
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173/';
    let onRequest: ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void) | undefined;
    lockDownSession({
      setPermissionRequestHandler: () => {},
      setPermissionCheckHandler: () => {},
      setDevicePermissionHandler: () => {},
      webRequest: { onBeforeRequest: (_f: unknown, fn: typeof onRequest) => (onRequest = fn) },
    } as never);
    const decide = (url: string) => {
      const cb = vi.fn();
      onRequest!({ url }, cb);
      return cb.mock.calls[0]![0] as { cancel: boolean };
    };
    expect(decide('http://localhost:5173/src/main.tsx')).toEqual({ cancel: false });
    expect(decide('ws://localhost:5173/')).toEqual({ cancel: false });
    expect(decide('http://localhost:5174/')).toEqual({ cancel: true });
    expect(decide('https://evil.example/')).toEqual({ cancel: true });
  });
});
