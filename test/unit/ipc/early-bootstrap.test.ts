import { describe, expect, it, vi } from 'vitest';
import type { BridgeTransport } from '../../../shared/ipc/bridge';
import { withEarlyBootstrap } from '../../../shared/ipc/early-bootstrap';

type Invoke = BridgeTransport['invoke'];
const answering = () => {
  let n = 0;
  return vi.fn((channel: string, input: unknown) =>
    Promise.resolve({ ok: true as const, value: { channel, input, n: ++n } }),
  ) as unknown as Invoke & ReturnType<typeof vi.fn>;
};

describe('withEarlyBootstrap (the preload and the page script ask for the first screen early)', () => {
  it('asks app.bootstrap as it is made, and hands that answer to the first app.bootstrap without asking again', async () => {
    const invoke = answering();
    const wrapped = withEarlyBootstrap(invoke);
    expect(invoke.mock.calls).toEqual([['app.bootstrap', undefined]]);
    expect(await wrapped('app.bootstrap', undefined)).toEqual({
      ok: true,
      value: { channel: 'app.bootstrap', input: undefined, n: 1 },
    });
    expect(invoke).toHaveBeenCalledTimes(1);
  });

  it('every later app.bootstrap, one with input and every other operation ask anew', async () => {
    const invoke = answering();
    const wrapped = withEarlyBootstrap(invoke);
    await wrapped('app.info', undefined);
    await wrapped('app.bootstrap', { any: 1 } as never);
    await wrapped('app.bootstrap', undefined);
    await wrapped('app.bootstrap', undefined);
    expect(invoke.mock.calls).toEqual([
      ['app.bootstrap', undefined],
      ['app.info', undefined],
      ['app.bootstrap', { any: 1 }],
      ['app.bootstrap', undefined],
    ]);
  });

  it('a failed early call reaches whoever takes it, and is no unhandled rejection when nobody does', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('main is gone'))) as unknown as Invoke;
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      withEarlyBootstrap(failing); // never taken
      const taken = withEarlyBootstrap(failing);
      await expect(taken('app.bootstrap', undefined)).rejects.toThrow('main is gone');
      await new Promise((r) => setTimeout(r, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
