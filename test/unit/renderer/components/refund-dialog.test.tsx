// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';

const TX = '297553638300708562';

const preview = (over: Partial<Output<'refunds.preview'>> = {}): Output<'refunds.preview'> => ({
  transaction: {
    transactionNo: TX,
    reference: 'INV-7',
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
  profileId: 'P-A',
  profileName: 'Shop A',
  operator: 'ana',
  fetchedAt: '2026-11-24T10:00:00.000Z',
  ...over,
});

function renderDialog(fake: ReturnType<typeof createFakeBridge>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <BridgeContext.Provider value={fake.bridge}>
      <QueryClientProvider client={client}>
        <PrefsProvider>
          <RefundDialog profileId="P-A" transactionNo={TX} onClose={() => {}} />
        </PrefsProvider>
      </QueryClientProvider>
    </BridgeContext.Provider>,
  );
}

// Each test renders into a clean document (no test globals, so no automatic cleanup).
afterEach(cleanup);

describe('the refund dialog (component, typed fake bridge)', () => {
  it('asks for the profile it was opened for, shows that profile’s name over its figures, and submits for it and the account it confirmed', async () => {
    const fake = createFakeBridge({
      'refunds.preview': (input) => ok(preview({ profileId: input.profileId })),
      'refunds.submit': (input) =>
        ({
          ok: false,
          error: {
            code: 'conflict',
            message: 'Refused for the test. Nothing was sent.',
            retryable: false,
            correlationId: 't',
            details: { moneyMoved: 'no', profile: input.profileId },
          },
        }) as const,
    });
    renderDialog(fake);
    const amount = await screen.findByLabelText('Refund amount (USD)');
    expect(fake.calls[0]).toMatchObject({
      channel: 'refunds.preview',
      input: { profileId: 'P-A', transactionNo: TX },
    });
    const user = userEvent.setup();
    await user.clear(amount);
    await user.type(amount, '2.50');
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('confirm-summary')).toHaveProperty(
      'textContent',
      expect.stringContaining('Shop A'),
    );
    const send = await screen.findByRole('button', { name: /Refund 2\.50 USD/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    await user.click(send);
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'refunds.submit')).toBe(true));
    const submitted = fake.calls.find((c) => c.channel === 'refunds.submit')!.input;
    expect(submitted).toMatchObject({
      profileId: 'P-A',
      transactionNo: TX,
      amountMinor: 250,
      account: { baseUrl: 'http://127.0.0.1:4100', merchantNo: '200043' },
    });
  });

  it('the money-moving button is never focused first, and names amount, currency and merchant', async () => {
    const fake = createFakeBridge({ 'refunds.preview': () => ok(preview()) });
    renderDialog(fake);
    const user = userEvent.setup();
    await screen.findByLabelText('Refund amount (USD)');
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const send = await screen.findByRole('button', { name: /Refund 50\.00 USD/ });
    expect(send.textContent).toMatch(/200043|Shop A/);
    expect(document.activeElement).not.toBe(send);
  });
});
