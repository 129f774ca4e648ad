import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { INVOKE_CHANNELS, EVENT_CHANNELS } from '../../../shared/ipc/channels';
import { contract, events } from '../../../shared/ipc/contract';
import { createDispatcher, type HandlerMap } from '../../../electron/core/ipc/dispatcher';
import { createFakeLogger } from '../../fakes/logger';

function handlersWith(overrides: Partial<HandlerMap>): HandlerMap {
  const base = Object.fromEntries(
    INVOKE_CHANNELS.map((c) => [
      c,
      () => {
        throw new Error('not under test');
      },
    ]),
  );
  return { ...base, ...overrides } as HandlerMap;
}

const info = {
  name: 'Refund Desk',
  version: '1',
  dataDir: '/d',
  host: 'cli' as const,
  mode: 'none' as const,
  platform: 'linux',
};

describe('IPC contract', () => {
  it('has exactly one schema pair per channel constant and one schema per event', () => {
    expect(Object.keys(contract).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENT_CHANNELS].sort());
  });
});

describe('dispatcher', () => {
  it('returns the value in the ok envelope', async () => {
    const d = createDispatcher(handlersWith({ 'app.info': () => info }), createFakeLogger());
    expect(await d('app.info', undefined)).toEqual({ ok: true, value: info });
  });

  it('keeps the invalid_input envelope small when the caller sends huge key names', async () => {
    const d = createDispatcher(
      handlersWith({ 'app.openExternal': () => ({ opened: true }) }),
      createFakeLogger(),
    );
    const huge = 'k'.repeat(1024 * 1024);
    for (const input of [
      { url: 'https://docs.pockyt.io/', [huge]: 1 },
      { url: 7, [huge]: 1, [`${huge}2`]: 2 },
    ]) {
      const r = await d('app.openExternal', input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('invalid_input');
      expect(JSON.stringify(r).length).toBeLessThan(5 * 1024);
    }
  });

  it('answers bad input with invalid_input and never calls the handler', async () => {
    let called = false;
    const d = createDispatcher(
      handlersWith({ 'app.openExternal': () => ((called = true), { opened: true }) }),
      createFakeLogger(),
    );
    for (const bad of [
      undefined,
      null,
      5,
      'x',
      { url: 7 },
      { url: 'https://a', extra: 1 },
      { url: 'x'.repeat(5000) },
      JSON.parse('{"__proto__":{"url":"https://docs.pockyt.io/"}}'),
    ]) {
      const r = await d('app.openExternal', bad);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_input');
        expect(r.error.correlationId).toMatch(/^C/);
      }
    }
    expect(called).toBe(false);
  });

  it('answers an unknown channel with invalid_input', async () => {
    const r = await createDispatcher(handlersWith({}), createFakeLogger())('app.__proto__', {});
    expect(r.ok === false && r.error.code).toBe('invalid_input');
  });

  it('passes expected errors through with their code and details', async () => {
    const d = createDispatcher(
      handlersWith({
        'app.health': () => {
          throw new AppError('not_found', 'nope', { details: { ret_code: '000021' } });
        },
      }),
      createFakeLogger(),
    );
    const r = await d('app.health', undefined);
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'nope', retryable: false, details: { ret_code: '000021' } },
    });
  });

  it('turns an exception into an internal error without leaking its text, and logs it', async () => {
    const log = createFakeLogger();
    const d = createDispatcher(
      handlersWith({
        'app.health': () => {
          throw new Error('secret internals');
        },
      }),
      log,
    );
    const r = await d('app.health', undefined);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('internal');
      expect(r.error.message).not.toContain('secret internals');
    }
    expect(log.lines.some((l) => l.level === 'error' && l.event === 'ipc.exception')).toBe(true);
  });

  it('refuses a handler output that breaks the contract', async () => {
    const d = createDispatcher(
      handlersWith({ 'app.info': () => ({ ...info, mode: 'bogus' }) as never }),
      createFakeLogger(),
    );
    const r = await d('app.info', undefined);
    expect(r.ok === false && r.error.code).toBe('internal');
  });
});
