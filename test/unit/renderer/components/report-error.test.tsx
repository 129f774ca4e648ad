// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { installErrorReporting } from '../../../../renderer/src/lib/report-error';
import { createFakeBridge, ok } from '../../../fakes/bridge';

describe('renderer error reporting', () => {
  it('sends window errors and unhandled rejections to main with a correlation id', async () => {
    const fake = createFakeBridge({ 'app.reportError': () => ok({ logged: true }) });
    // A plain event target stands in for the window, so the test's own runner never sees these errors.
    const target = new EventTarget();
    const uninstall = installErrorReporting(fake.bridge, target);
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('boom'), message: 'boom' }));
    const rejection = new Event('unhandledrejection');
    Object.defineProperty(rejection, 'reason', { value: new Error('nope') });
    target.dispatchEvent(rejection);
    uninstall();
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('after'), message: 'after' }));
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
