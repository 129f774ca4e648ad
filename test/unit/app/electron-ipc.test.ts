import { describe, expect, it, vi } from 'vitest';

type Handler = (event: unknown, input: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();
vi.mock('electron', () => ({
  app: { isPackaged: true },
  ipcMain: { handle: (ch: string, fn: Handler) => handlers.set(ch, fn) },
  BrowserWindow: class {},
  shell: {},
}));

const { registerIpc } = await import('../../../electron/app/ipc');
const { createFakeLogger } = await import('../../fakes/logger');

describe('ipcMain registration', () => {
  const mainFrame = { url: 'app://renderer/index.html', parent: null };
  const win = { webContents: { mainFrame } };
  const dispatch = vi.fn(async (channel: string) => ({ ok: true as const, value: channel }));
  const log = createFakeLogger();
  registerIpc(dispatch, () => [win as never], log);

  it('registers every contract channel', async () => {
    const { INVOKE_CHANNELS } = await import('../../../shared/ipc/channels');
    expect([...handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('dispatches calls from our window’s top frame', async () => {
    const r = await handlers.get('app.info')!({ senderFrame: mainFrame }, undefined);
    expect(r).toEqual({ ok: true, value: 'app.info' });
  });

  it('a packaged app trusts no dev-server origin, even when ELECTRON_RENDERER_URL is set', async () => {
    const devFrame = { url: 'http://localhost:5173/', parent: null };
    const devWin = { webContents: { mainFrame: devFrame } };
    handlers.clear();
    registerIpc(dispatch, () => [devWin as never], log);
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173/';
    try {
      const r = (await handlers.get('app.info')!({ senderFrame: devFrame }, undefined)) as {
        ok: boolean;
        error: { code: string };
      };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('forbidden');
    } finally {
      delete process.env['ELECTRON_RENDERER_URL'];
      handlers.clear();
      registerIpc(dispatch, () => [win as never], log);
    }
  });

  it('rejects a message from a foreign sender without dispatching it', async () => {
    dispatch.mockClear();
    const foreign = { url: 'app://renderer/index.html', parent: null };
    const iframe = { url: 'app://renderer/index.html', parent: mainFrame };
    for (const senderFrame of [foreign, iframe, null]) {
      const r = (await handlers.get('app.info')!({ senderFrame }, undefined)) as {
        ok: boolean;
        error: { code: string };
      };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('forbidden');
    }
    expect(dispatch).not.toHaveBeenCalled();
    expect(log.lines.some((l) => l.event === 'ipc.foreign_sender')).toBe(true);
  });
});
