// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DbContext } from '../../../../renderer/src/db/context';
import { openDb } from '../../../../renderer/src/db/schema';
import { PREFS_KEY } from '../../../../renderer/src/features/preferences/prefs';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import { HealthIndicator } from '../../../../renderer/src/features/shell/HealthIndicator';
import {
  type Connectivity,
  ConnectivityContext,
} from '../../../../renderer/src/features/transactions/connectivity';
import { SearchBox } from '../../../../renderer/src/features/transactions/SearchBox';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { freshIdb } from '../db/helpers';

/**
 * The health dot in the header (component, typed fake bridge). Main's answer is faked as main builds it
 * from its own traffic: the service check carries the failure and the time of the last answer.
 */
const LAST_ANSWER = '2026-11-24T10:00:05.000Z'; // 18:00:05 at the service (UTC+8), 10:00:05 in UTC
const FAILING_SINCE = '2026-11-24T10:02:00.000Z';

type Health = Output<'app.health'>;
const healthy = (): Health => ({
  status: 'ok',
  checkedAt: LAST_ANSWER,
  uptimeMs: 1000,
  checks: [
    { name: 'settings', ok: true },
    { name: 'service', ok: true, detail: `Last answer ${LAST_ANSWER}`, lastSuccessAt: LAST_ANSWER },
  ],
});
const degraded = (): Health => ({
  status: 'degraded',
  checkedAt: FAILING_SINCE,
  uptimeMs: 2000,
  checks: [
    { name: 'settings', ok: true },
    {
      name: 'service',
      ok: false,
      detail: `Payment service failing (HTTP 503) since ${FAILING_SINCE}; last answer ${LAST_ANSWER}.`,
      problem: 'Payment service failing (HTTP 503)',
      failingSince: FAILING_SINCE,
      lastSuccessAt: LAST_ANSWER,
    },
  ],
});
const unavailable = {
  ok: false,
  error: {
    code: 'unavailable',
    message: 'The payment service is not answering (HTTP 503).',
    retryable: true,
    correlationId: 't',
  },
} as const;

function renderWith(fake: ReturnType<typeof createFakeBridge>, children: ReactNode) {
  const { indexedDB, keyRange } = freshIdb();
  const db = openDb('health', indexedDB, keyRange);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const connectivity: Connectivity = {
    state: 'online',
    report: () => {},
    recheck: () => {},
    isChecking: false,
  };
  render(
    <BridgeContext.Provider value={fake.bridge}>
      <DbContext.Provider value={db}>
        <QueryClientProvider client={client}>
          <PrefsProvider>
            <ConnectivityContext.Provider value={connectivity}>
              <HealthIndicator />
              {children}
            </ConnectivityContext.Provider>
          </PrefsProvider>
        </QueryClientProvider>
      </DbContext.Provider>
    </BridgeContext.Provider>,
  );
}

const prefs = (zone: string, dateFormat: string) =>
  localStorage.setItem(PREFS_KEY, JSON.stringify({ locale: 'en-US', zone, dateFormat }));

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('the health indicator', () => {
  it('before the app has asked the payment service anything, says so instead of "All systems normal"', async () => {
    const untried: Health = { ...healthy(), checks: [{ name: 'settings', ok: true }] };
    renderWith(createFakeBridge({ 'app.health': () => ok(untried) }), null);
    const health = screen.getByTestId('health');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('untried'));
    expect(health.textContent).toContain('Payment service not contacted yet');
    expect(health.textContent).not.toContain('All systems normal');
  });

  it('a failing service is one short line in the header; the whole sentence is its tooltip', async () => {
    prefs('utc', 'iso');
    renderWith(createFakeBridge({ 'app.health': () => ok(degraded()) }), null);
    const detail = await screen.findByTestId('health-detail');
    expect(detail.firstChild?.textContent).toMatch(
      /^Payment service failing \(HTTP 503\) since (2026-11-24 )?10:02$/,
    );
    expect(detail.getAttribute('title')).toContain('Cached data stays available');
  });

  it('shows when the service last answered while all is well, in the chosen zone and date format', async () => {
    prefs('service', 'dmy');
    renderWith(createFakeBridge({ 'app.health': () => ok(healthy()) }), null);
    const health = screen.getByTestId('health');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('ok'));
    expect(health.textContent).toContain('All systems normal');
    expect(screen.getByTestId('health-last-answer').textContent).toBe(
      'Payment service last answered 24/11/2026 18:00:05',
    );
    cleanup();
    prefs('utc', 'iso');
    renderWith(createFakeBridge({ 'app.health': () => ok(healthy()) }), null);
    expect((await screen.findByTestId('health-last-answer')).textContent).toBe(
      'Payment service last answered 2026-11-24 10:00:05',
    );
  });

  it('when degraded, says what fails, since when and the last answer, with those times formatted', async () => {
    prefs('utc', 'iso');
    renderWith(createFakeBridge({ 'app.health': () => ok(degraded()) }), null);
    const health = screen.getByTestId('health');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('degraded'));
    expect(health.textContent).toContain(
      'Payment service failing (HTTP 503) since 2026-11-24 10:02:00; last answer 2026-11-24 10:00:05.',
    );
    expect(health.textContent).not.toContain('T10:');
    expect(screen.queryByTestId('health-last-answer')).toBeNull();
  });

  it('a failed lookup turns it Degraded at once, not at the next 15 s poll', async () => {
    let answer = healthy();
    const fake = createFakeBridge({
      'app.health': () => ok(answer),
      // Main learns of the failure from this very call.
      'transactions.lookup': () => {
        answer = degraded();
        return unavailable;
      },
    });
    renderWith(fake, <SearchBox profileId="P-A" onFound={() => {}} />);
    const health = screen.getByTestId('health');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('ok'));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), '297553638300708562{Enter}');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('degraded'), { timeout: 2000 });
    expect(fake.calls.filter((c) => c.channel === 'app.health').length).toBeGreaterThanOrEqual(2);
  });

  it('a failed refund turns it Degraded at once', async () => {
    let answer = healthy();
    const fake = createFakeBridge({
      'app.health': () => ok(answer),
      'refunds.preview': (input) =>
        ok({
          transaction: {
            transactionNo: input.transactionNo,
            amountMinor: 5000,
            currency: 'USD',
            status: 'success',
            transactionType: 'payment',
            refunds: [],
          },
          remainingMinor: 5000,
          pendingIntents: [],
          todayTotalMinor: 0,
          guardrails: { limits: [] },
          environment: 'demo',
          moneyMode: 'local',
          baseUrl: 'http://127.0.0.1:4100',
          merchantNo: '200043',
          profileId: input.profileId,
          profileName: 'Shop A',
          operator: 'ana',
          fetchedAt: LAST_ANSWER,
        }),
      'refunds.submit': () => {
        answer = degraded();
        return unavailable;
      },
    });
    renderWith(fake, <RefundDialog profileId="P-A" transactionNo="297553638300708562" onClose={() => {}} />);
    const health = screen.getByTestId('health');
    const user = userEvent.setup();
    await screen.findByLabelText('Refund amount (USD)');
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('ok'));
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const send = await screen.findByRole('button', { name: /Refund 50\.00 USD/ });
    await waitFor(() => expect(send).toHaveProperty('disabled', false), { timeout: 3000 });
    await user.click(send);
    await waitFor(() => expect(health.getAttribute('data-state')).toBe('degraded'), { timeout: 2000 });
  });
});
