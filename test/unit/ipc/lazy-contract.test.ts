import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/ipc/channels';
import { contract } from '../../../shared/ipc/contract';
import { specOf } from '../../../shared/ipc/contract/lazy';
import type { HandlerMap } from '../../../electron/core/ipc/dispatcher';
import { createFakeLogger } from '../../fakes/logger';

afterEach(() => {
  vi.doUnmock('../../../shared/ipc/contract/reconciliation');
  vi.resetModules();
});

describe('the contract loaded per group on first use', () => {
  it('gives every operation the very schemas of the contract', async () => {
    for (const channel of INVOKE_CHANNELS) expect(await specOf(channel)).toBe(contract[channel]);
  });

  it('hands a call of a loaded operation to its handler in the same turn, as when every schema was built at start', async () => {
    const { createDispatcher } = await import('../../../electron/core/ipc/dispatcher');
    let called = 0;
    const handlers = Object.fromEntries(
      INVOKE_CHANNELS.map((c) => [c, () => ((called += 1), { deleted: true })]),
    ) as unknown as HandlerMap;
    const dispatch = createDispatcher(handlers, createFakeLogger());
    // The first call of a group waits for its module; later ones (even of another operation) do not.
    await dispatch('profiles.list', undefined);
    called = 0;
    const pending = dispatch('profiles.delete', { id: 'P1' });
    const again = dispatch('profiles.delete', { id: 'P1' });
    await Promise.all([pending, again]);
    expect(called).toBe(2);
    called = 0;
    void dispatch('profiles.delete', { id: 'P1' });
    expect(called).toBe(1);
  });

  it('builds no reconciliation schema until a reconciliation call, which still refuses hostile input and never reaches its handler', async () => {
    vi.resetModules();
    const evaluated: string[] = [];
    vi.doMock('../../../shared/ipc/contract/reconciliation', async (original) => {
      evaluated.push('reconciliation');
      return await original();
    });
    const { createDispatcher } = await import('../../../electron/core/ipc/dispatcher');
    let called = 0;
    const handlers = Object.fromEntries(
      INVOKE_CHANNELS.map((c) => [
        c,
        () => {
          called += 1;
          return { runs: [] };
        },
      ]),
    ) as unknown as HandlerMap;
    const dispatch = createDispatcher(handlers, createFakeLogger());
    const info = await dispatch('app.info', { unexpected: true });
    expect(info.ok).toBe(false);
    // The dispatcher and a call of another group did not run the reconciliation schemas' module.
    expect(evaluated).toEqual([]);

    const hostile: unknown[] = [
      JSON.parse('{"__proto__":{"polluted":true},"profileId":"P1"}'),
      { profileId: 7 },
      { profileId: 'P1', limit: 'all', extra: '<script>' },
      'reconciliation',
      Symbol('unparseable'),
    ];
    for (const input of hostile) {
      const r = await dispatch('reconciliation.list', input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('invalid_input');
    }
    expect(evaluated).toEqual(['reconciliation']);
    expect(called).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
