// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { PREFS_KEY } from '../../../../renderer/src/features/preferences/prefs';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';

const TX = '297553638300708562';

const preview = (over: Partial<Output<'refunds.preview'>> = {}): Output<'refunds.preview'> => ({
  transaction: {
    transactionNo: TX,
    reference: 'INV-7',
    amountMinor: 123_450,
    currency: 'USD',
    status: 'success',
    transactionType: 'payment',
    refunds: [],
  },
  remainingMinor: 123_450,
  pendingIntents: [],
  todayTotalMinor: 0,
  guardrails: { limits: [] },
  environment: 'production',
  moneyMode: 'live',
  baseUrl: 'https://mapi.yuansfer.com',
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

beforeEach(() => localStorage.setItem(PREFS_KEY, JSON.stringify({ locale: 'de-DE' })));
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the refund dialog in the person’s number format (Numbers → Deutsch)', () => {
  it('shows amounts the German way, reads 12,50 as twelve and a half, and sends minor units', async () => {
    const fake = createFakeBridge({
      'refunds.preview': () => ok(preview()),
      'refunds.submit': (input) =>
        ({
          ok: false,
          error: {
            code: 'conflict',
            message: `Refused for the test (${input.confirmation.typedAmount ?? ''}). Nothing was sent.`,
            retryable: false,
            correlationId: 't',
            details: { moneyMoved: 'no' },
          },
        }) as const,
    });
    renderDialog(fake);
    const amount = await screen.findByLabelText('Refund amount (USD)');
    // The full amount, as every other screen writes it in German.
    expect((amount as HTMLInputElement).value).toBe('1.234,50');
    expect(screen.getByTestId('remaining-now').textContent).toBe('1.234,50 USD');
    const user = userEvent.setup();
    await user.clear(amount);
    await user.type(amount, '12,50');
    expect(screen.getByTestId('remaining-after').textContent).toContain('1.222,00 USD');
    expect(screen.getByTestId('amount-message').textContent).toBe('Partial refund.');

    // A dot where German writes a comma is not guessed: the question, and Continue waits.
    await user.clear(amount);
    await user.type(amount, '12.50');
    expect(screen.getByTestId('amount-message').textContent).toContain('Did you mean 12,50?');
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);

    await user.clear(amount);
    await user.type(amount, '12,50');
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // Live money: the amount typed again, in the same format.
    const typed = await screen.findByLabelText(/Type the amount again/);
    await user.type(typed, '12,50');
    const send = await screen.findByRole('button', { name: /Refund 12,50 USD/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    await user.click(send);
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'refunds.submit')).toBe(true));
    // Main gets minor units and the typed amount as a plain decimal it can compare.
    expect(fake.calls.find((c) => c.channel === 'refunds.submit')!.input).toMatchObject({
      amountMinor: 1250,
      confirmation: { typedAmount: '12.50' },
    });
  });
});
