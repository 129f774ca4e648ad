// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { installErrorReporting } from '../../../../renderer/src/lib/report-error';
import { createFakeBridge, ok } from '../../../fakes/bridge';

describe('renderer error reporting', () => {
  it('sends window errors and unhandled rejections to main with a correlation id', async () => {
    const fake = createFakeBridge({ 'app.reportError': () => ok({ logged: true }) });
    const uninstall = installErrorReporting(fake.bridge);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('boom'), message: 'boom' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rejection, 'reason', { value: new Error('nope') });
    window.dispatchEvent(rejection);
    uninstall();
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('after'), message: 'after' }));
    const reports = fake.calls.filter((c) => c.channel === 'app.reportError').map((c) => c.input);
    expect(reports).toEqual([
      expect.objectContaining({
        source: 'window.onerror',
        message: 'boom',
        correlationId: expect.stringMatching(/^R-/),
      }),
      expect.objectContaining({ source: 'unhandledrejection', message: 'nope' }),
    ]);
  });
});
