import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/ipc/channels';
import { RENDERER_CSP } from '../../../electron/app/security/csp';
import {
  EXTERNAL_HOST_ALLOWLIST,
  isAllowedExternalUrl,
} from '../../../electron/core/services/external-links';

/**
 * Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), item by
 * item, against the configuration the app really produces: the composition root (electron/app/main.ts)
 * is booted with Electron mocked at the edge, and every window, session, protocol and IPC setting it
 * makes is captured and checked. Item 19 (fuses) is checked in fuses.test.ts, item 20 (the preload) in
 * preload.test.ts. Numbers follow the checklist.
 */
type Listener = (...args: unknown[]) => unknown;
type IpcHandler = (event: unknown, input: unknown) => Promise<unknown>;

const dataDir = mkdtempSync(join(tmpdir(), 'rd-checklist-'));
const calls: string[] = [];
const appListeners = new Map<string, Listener[]>();
const ipcHandlers = new Map<string, IpcHandler>();
const ipcListeners = new Map<string, Listener[]>();
const windows: FakeWindow[] = [];
const openExternal = vi.fn(async () => {});
const schemes: { scheme: string; privileges: Record<string, boolean> }[] = [];
const session = {
  permissionRequest: undefined as undefined | ((wc: unknown, p: string, cb: (ok: boolean) => void) => void),
  permissionCheck: undefined as undefined | ((wc: unknown, p: string) => boolean),
  devicePermission: undefined as undefined | ((d: unknown) => boolean),
  requestFilter: undefined as undefined | { urls: string[] },
  onBeforeRequest: undefined as
    undefined | ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void),
};

class FakeWebContents {
  handlers = new Map<string, Listener>();
  windowOpenHandler: ((d: { url: string }) => { action: string }) | undefined;
  mainFrame = { url: 'app://renderer/index.html', parent: null };
  on(event: string, fn: Listener) {
    this.handlers.set(event, fn);
    return this;
  }
  setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = fn;
  }
  send() {}
}
class FakeWindow {
  static getAllWindows = () => windows;
  webContents = new FakeWebContents();
  loaded: string | undefined;
  constructor(readonly options: { webPreferences: Record<string, unknown> }) {
    windows.push(this);
  }
  once() {}
  isDestroyed = () => false;
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
}

const electron = {
  app: {
    isPackaged: true,
    enableSandbox: () => calls.push('app.enableSandbox'),
    requestSingleInstanceLock: () => (calls.push('app.requestSingleInstanceLock'), true),
    on: (event: string, fn: Listener) => appListeners.set(event, [...(appListeners.get(event) ?? []), fn]),
    whenReady: () => Promise.resolve().then(() => void calls.push('ready')),
    getPath: () => dataDir,
    getVersion: () => '0.0.0-test',
    quit: () => {},
  },
  BrowserWindow: FakeWindow,
  ipcMain: {
    handle: (ch: string, fn: IpcHandler) => ipcHandlers.set(ch, fn),
    on: (ch: string, fn: Listener) => ipcListeners.set(ch, [...(ipcListeners.get(ch) ?? []), fn]),
    removeAllListeners: (ch: string) => ipcListeners.delete(ch),
  },
  protocol: {
    registerSchemesAsPrivileged: (list: typeof schemes) => {
      calls.push('protocol.registerSchemesAsPrivileged');
      schemes.push(...list);
    },
    handle: () => calls.push('protocol.handle'),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn: typeof session.permissionRequest) => (session.permissionRequest = fn),
      setPermissionCheckHandler: (fn: typeof session.permissionCheck) => (session.permissionCheck = fn),
      setDevicePermissionHandler: (fn: typeof session.devicePermission) => (session.devicePermission = fn),
      webRequest: {
        onBeforeRequest: (filter: { urls: string[] }, fn: typeof session.onBeforeRequest) => {
          session.requestFilter = filter;
          session.onBeforeRequest = fn;
        },
      },
    },
  },
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
  },
  shell: { openExternal },
};
vi.mock('electron', () => ({ ...electron, default: electron }));

const main = () => windows[0]!;
const prefs = () => main().options.webPreferences;

const quiet = vi.spyOn(process.stderr, 'write').mockImplementation(() => true); // main's log lines

beforeAll(async () => {
  delete process.env['ELECTRON_RENDERER_URL'];
  await import('../../../electron/app/main');
  await vi.waitFor(() => expect(windows).toHaveLength(1), { timeout: 15_000 });
}, 20_000);

afterAll(async () => {
  for (const quit of appListeners.get('will-quit') ?? []) quit();
  // core.close() is fire-and-forget in will-quit; give the sandbox and listeners a moment to stop.
  await new Promise((r) => setTimeout(r, 200));
  quiet.mockRestore();
});

describe('Electron security checklist, against the real configuration', () => {
  it('1. only secure content: the window loads our own app:// page, nothing remote', () => {
    expect(main().loaded).toBe('app://renderer/index.html');
    expect(schemes).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false },
      },
    ]);
    // No privilege that would let app:// content bypass the CSP or act as a service worker host.
    expect(schemes[0]!.privileges).not.toHaveProperty('bypassCSP');
    expect(schemes[0]!.privileges).not.toHaveProperty('allowServiceWorkers');
  });

  it('2–4. no Node.js integration, context isolation, and the sandbox (per window and app-wide)', () => {
    expect(prefs()).toMatchObject({
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      contextIsolation: true,
      sandbox: true,
    });
    expect(String(prefs()['preload'])).toMatch(/preload[\\/]index\.cjs$/);
    expect(calls.indexOf('app.enableSandbox')).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf('app.enableSandbox')).toBeLessThan(calls.indexOf('ready'));
  });

  it('5. session permission requests, checks and device requests are all denied', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'midi', 'clipboard-read', 'hid', 'serial']) {
      const cb = vi.fn();
      session.permissionRequest!(main().webContents, p, cb);
      expect(cb, p).toHaveBeenCalledWith(false);
      expect(session.permissionCheck!(main().webContents, p), p).toBe(false);
    }
    expect(session.devicePermission!({ deviceType: 'usb' })).toBe(false);
  });

  it('6, 8, 9, 10. webSecurity on; no insecure content, experimental features or extra Blink features', () => {
    expect(prefs()).toMatchObject({
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    });
    expect(prefs()).not.toHaveProperty('enableBlinkFeatures');
    expect(String(prefs()['disableBlinkFeatures'])).toContain('Auxclick');
  });

  it('7. a Content-Security-Policy with no remote code, eval, inline script or network', () => {
    const directives = Object.fromEntries(
      RENDERER_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values.join(' ')];
      }),
    );
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'connect-src': "'none'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(RENDERER_CSP).not.toMatch(/unsafe-|https?:|\*|blob:/);
    expect(calls).toContain('protocol.handle'); // the CSP header itself: protocol.test.ts
  });

  it('1. no remote content: the session cancels every http(s)/ws(s) request of the renderer', () => {
    expect(session.requestFilter!.urls).toEqual(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']);
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const cb = vi.fn();
        session.onBeforeRequest!({ url }, cb);
        expect(cb).toHaveBeenCalledWith({ cancel: true });
      }),
      { seed: 18, numRuns: 100 },
    );
  });

  it('11, 12. no <webview> (so no allowpopups): the tag is off and attaching one is prevented', () => {
    expect(prefs()['webviewTag']).toBe(false);
    const preventDefault = vi.fn();
    main().webContents.handlers.get('will-attach-webview')!({ preventDefault }, {}, {});
    expect(preventDefault).toHaveBeenCalled();
  });

  it('13. navigation is refused: any frame, any URL, redirects too', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl(),
          fc.constantFrom('app://renderer/other.html', 'file:///etc/passwd', 'javascript:1'),
        ),
        (url) => {
          for (const event of ['will-navigate', 'will-redirect']) {
            const preventDefault = vi.fn();
            main().webContents.handlers.get(event)!({ preventDefault, url }, url);
            expect(preventDefault, `${event} ${url}`).toHaveBeenCalled();
          }
          const preventDefault = vi.fn();
          main().webContents.handlers.get('will-frame-navigate')!({ preventDefault, url });
          expect(preventDefault).toHaveBeenCalled();
        },
      ),
      { seed: 12, numRuns: 100 },
    );
  });

  it('14, 15. no new windows; openExternal only for https links to the allow-listed hosts', () => {
    openExternal.mockClear();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl(),
          fc.constantFrom(...EXTERNAL_HOST_ALLOWLIST).map((h) => `https://${h}/docs`),
          fc.constantFrom(
            'http://www.yuansfer.com/',
            'https://www.yuansfer.com.evil.example/',
            'https://user@pockyt.io/',
            'https://pockyt.io:444/',
            'file:///C:/Windows/system32/calc.exe',
            'smb://share/x',
            'javascript:alert(1)',
          ),
        ),
        (url) => {
          expect(main().webContents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
        },
      ),
      { seed: 13, numRuns: 300 },
    );
    for (const [url] of openExternal.mock.calls as unknown as [string][]) {
      const u = new URL(url);
      expect(u.protocol).toBe('https:');
      expect(EXTERNAL_HOST_ALLOWLIST).toContain(u.hostname);
      expect(isAllowedExternalUrl(url)).toBe(true);
    }
    expect(openExternal).toHaveBeenCalled();
  });

  it('13, 14. every other webContents the app creates gets the same guards', () => {
    const other = new FakeWebContents();
    for (const created of appListeners.get('web-contents-created') ?? []) created({}, other);
    expect([...other.handlers.keys()]).toEqual(
      expect.arrayContaining([
        'will-navigate',
        'will-frame-navigate',
        'will-redirect',
        'will-attach-webview',
      ]),
    );
    expect(other.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('16. a current Electron: the version the app is built against is 45 or later', () => {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const major = Number(/(\d+)/.exec(pkg.devDependencies['electron'] ?? '')?.[1]);
    expect(major).toBeGreaterThanOrEqual(45);
  });

  it('17. every IPC channel checks its sender, and main keeps no other IPC listener', async () => {
    expect([...ipcHandlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    // electron-store registers one for its own renderer helper; the composition root removes it.
    expect([...ipcListeners.keys()]).toEqual([]);
    const foreign = [
      null,
      { url: 'app://renderer/index.html', parent: main().webContents.mainFrame }, // a subframe
      { url: 'app://renderer/index.html', parent: null }, // another webContents' frame
      { url: 'https://evil.example/', parent: null },
    ];
    for (const channel of INVOKE_CHANNELS) {
      for (const senderFrame of foreign) {
        const r = (await ipcHandlers.get(channel)!({ senderFrame }, {})) as {
          ok: boolean;
          error?: { code: string };
        };
        expect(r, channel).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      }
    }
    const ok = (await ipcHandlers.get('app.info')!(
      { senderFrame: main().webContents.mainFrame },
      undefined,
    )) as {
      ok: boolean;
    };
    expect(ok.ok).toBe(true);
  });

  it('18. no file:// — the renderer comes from the app:// protocol (the file-privileges fuse is off too)', () => {
    expect(main().loaded!.startsWith('file:')).toBe(false);
  });

  it('single instance: a second launch focuses the first window', () => {
    expect(calls).toContain('app.requestSingleInstanceLock');
    expect(appListeners.get('second-instance')).toHaveLength(1);
  });
});
