import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../electron/core/ipc/dispatcher';
import { appHandlers } from '../../../electron/core/ipc/handlers/app';
import type { HandlerMap } from '../../../electron/core/ipc/dispatcher';
import { createAppService } from '../../../electron/core/services/app-service';
import { createFakeLogger } from '../../fakes/logger';

function setup() {
  const log = createFakeLogger();
  const clock = { ms: Date.parse('2026-11-24T10:00:00Z'), now: () => clock.ms };
  const app = createAppService({
    name: 'Refund Desk',
    version: '0.0.0',
    dataDir: '/tmp/x',
    host: 'browser',
    platform: 'linux',
    clock,
    log,
    openExternal: async () => {},
    mode: () => 'demo',
  });
  // Only the app handlers matter here; the dispatcher is the real one (parse → call → envelope).
  const dispatch = createDispatcher(appHandlers(app) as HandlerMap, log);
  return { dispatch, log, clock };
}

describe('renderer exceptions reach main’s log', () => {
  it('logs the exception with the renderer’s correlation id', async () => {
    const { dispatch, log } = setup();
    const r = await dispatch('app.reportError', {
      correlationId: 'R-ABC-123',
      source: 'unhandledrejection',
      message: 'Cannot read properties of undefined',
      stack: 'TypeError: Cannot read…\n    at x (app.js:1:1)',
    });
    expect(r).toEqual({ ok: true, value: { logged: true } });
    expect(log.lines).toContainEqual({
      level: 'error',
      event: 'renderer.exception',
      fields: expect.objectContaining({ correlationId: 'R-ABC-123', source: 'unhandledrejection' }),
    });
  });

  it('a flood is capped per minute, and the cap lifts a minute later', async () => {
    const { dispatch, log, clock } = setup();
    const send = () =>
      dispatch('app.reportError', { correlationId: 'R-LOOP-1', source: 'window.onerror', message: 'loop' });
    for (let i = 0; i < 30; i += 1) await send();
    expect(log.lines.filter((l) => l.event === 'renderer.exception')).toHaveLength(20);
    clock.ms += 60_000;
    expect(await send()).toEqual({ ok: true, value: { logged: true } });
  });

  it('refuses oversized or malformed reports at the contract', async () => {
    const { dispatch } = setup();
    expect(
      await dispatch('app.reportError', { correlationId: 'x y', source: 'window.onerror', message: 'm' }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(
      await dispatch('app.reportError', {
        correlationId: 'R-1234',
        source: 'window.onerror',
        message: 'm'.repeat(2000),
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
