// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIBERATE_MS } from '../../../../renderer/src/features/refunds/ConfirmStep';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import { moneyModeOf } from '../../../../shared/domain/profile';
import type { Output } from '../../../../shared/ipc/contract';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
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

  it('warns of a refund of the same payment in the last 24 hours: amount, how long ago, by whom, at which desk', async () => {
    const fake = createFakeBridge({
      'refunds.preview': () =>
        ok(
          preview({
            fetchedAt: '2026-11-24T10:00:00.000Z',
            recentRefunds: [
              {
                id: 'RD-1',
                state: 'succeeded',
                amountMinor: 100,
                currency: 'USD',
                at: '2026-11-24T09:58:00.000Z',
                by: 'alice',
                desk: 'desk-2',
              },
              {
                id: 'RD-0',
                state: 'accepted',
                amountMinor: 250,
                currency: 'USD',
                at: '2026-11-24T07:00:00.000Z',
                by: 'ana',
              },
            ],
          }),
        ),
    });
    renderDialog(fake);
    await screen.findByLabelText('Refund amount (USD)');
    const warnings = screen.getAllByTestId('recent-refund').map((e) => e.textContent);
    expect(warnings).toEqual([
      '1.00 USD refunded 2 minutes ago by alice at desk-2 — is this a different refund?',
      '2.50 USD refunded 3 hours ago by ana — is this a different refund?',
    ]);
  });

  it('no warning when the journal has no refund of the payment in the last 24 hours', async () => {
    const fake = createFakeBridge({ 'refunds.preview': () => ok(preview({ recentRefunds: [] })) });
    renderDialog(fake);
    await screen.findByLabelText('Refund amount (USD)');
    expect(screen.queryAllByTestId('recent-refund')).toEqual([]);
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

  describe('a Custom profile at a partner’s https address (not this machine)', () => {
    const PARTNER = 'https://pay.partner.example.com';
    // A single-refund limit of 10.00 USD: the 50.00 USD refund is above the threshold.
    const custom = (over: Partial<Output<'refunds.preview'>> = {}) =>
      preview({
        environment: 'custom',
        baseUrl: PARTNER,
        moneyMode: moneyModeOf('custom', PARTNER),
        guardrails: { limits: [{ currency: 'USD', maxSingleMinor: 1000 }] },
        ...over,
      });

    async function toConfirmStep(p: Output<'refunds.preview'>) {
      const fake = createFakeBridge({
        'refunds.preview': () => ok(p),
        'refunds.submit': () => ok(refundAnswer()),
      });
      renderDialog(fake);
      const user = userEvent.setup();
      await screen.findByLabelText('Refund amount (USD)');
      await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByTestId('confirm-summary');
      return { fake, user };
    }

    it('is live money: red banner, no “no real money moves”, and above the limit the amount must be typed again', async () => {
      const { fake, user } = await toConfirmStep(custom());
      const dialog = screen.getByTestId('refund-dialog');
      expect(dialog.textContent).not.toMatch(/no real money moves/i);
      expect(screen.queryByTestId('environment-note')).toBeNull();
      expect(screen.getByTestId('production-banner').textContent).toMatch(
        /LIVE MONEY.*pay\.partner\.example\.com/,
      );
      const typed = screen.getByLabelText(/Type the amount again to confirm \(USD\)/);
      const limit = screen.getByRole('checkbox', { name: /above the limit/ });
      const send = screen.getByRole('button', { name: /Refund 50\.00 USD/ });
      // Armed by now, yet still disabled: the confirmations are missing.
      await new Promise((r) => setTimeout(r, DELIBERATE_MS + 100));
      expect(send).toHaveProperty('disabled', true);
      await user.click(limit);
      await user.type(typed, '5.00');
      expect(send).toHaveProperty('disabled', true);
      await user.clear(typed);
      await user.type(typed, '50.00');
      await waitFor(() => expect(send).toHaveProperty('disabled', false));
      await user.click(send);
      await waitFor(() => expect(fake.calls.some((c) => c.channel === 'refunds.submit')).toBe(true));
      expect(fake.calls.find((c) => c.channel === 'refunds.submit')!.input).toMatchObject({
        amountMinor: 5000,
        confirmation: { overLimit: true, typedAmount: '50.00' },
        account: { baseUrl: PARTNER },
      });
    });

    it('a preview that calls the partner address local still shows live money (the address decides)', async () => {
      await toConfirmStep(custom({ moneyMode: 'local' }));
      expect(screen.getByTestId('refund-dialog').textContent).not.toMatch(/no real money moves/i);
      expect(screen.getByTestId('production-banner')).toBeTruthy();
      expect(screen.getByLabelText(/Type the amount again to confirm/)).toBeTruthy();
    });

    it('a loopback custom address declared a simulator is the only custom one that says no real money moves', async () => {
      const local = 'http://127.0.0.1:8787';
      await toConfirmStep(
        custom({
          baseUrl: local,
          moneyMode: moneyModeOf('custom', local, 'local'),
          guardrails: { limits: [] },
        }),
      );
      expect(screen.getByTestId('environment-note').textContent).toMatch(/no real money moves/);
      expect(screen.queryByTestId('production-banner')).toBeNull();
      expect(screen.queryByLabelText(/Type the amount again/)).toBeNull();
    });
  });

  describe('a deliberate last step: Enter twice', () => {
    const submits = (fake: ReturnType<typeof createFakeBridge>) =>
      fake.calls.filter((c) => c.channel === 'refunds.submit').length;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    function setUp() {
      const fake = createFakeBridge({
        'refunds.preview': () => ok(preview()),
        // Answers after a moment, as main does: a second Enter arrives while the first is in flight.
        'refunds.submit': () => sleep(80).then(() => ok(refundAnswer())),
      });
      renderDialog(fake);
      return { fake, user: userEvent.setup() };
    }

    it('an Enter that went down on the previous step, then Enter again 120 ms later, sends nothing', async () => {
      const { fake, user } = setUp();
      await screen.findByLabelText('Refund amount (USD)');
      await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
      screen.getByRole('button', { name: 'Continue' }).focus();
      await user.keyboard('{Enter>}'); // held: goes down on Continue, which opens the confirm step
      const send = await screen.findByRole('button', { name: /Refund 50\.00 USD/ });
      expect(document.activeElement).not.toBe(send);
      await user.keyboard('{/Enter}'); // released on the new step
      await sleep(120);
      await user.keyboard('{Enter}');
      // Held past the arming delay, its auto-repeats (marked or not) still send nothing.
      await user.keyboard('{Enter>4}');
      await sleep(DELIBERATE_MS + 100);
      await user.keyboard('{Enter>3/}');
      await sleep(150);
      expect(submits(fake)).toBe(0);
      expect(screen.queryByTestId('confirm-summary')).toBeTruthy();
    });

    it('a key held from before the step and released on the armed send button does not press it', async () => {
      const { fake, user } = setUp();
      await screen.findByLabelText('Refund amount (USD)');
      await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
      const next = screen.getByRole('button', { name: 'Continue' });
      next.focus();
      await user.keyboard('{ >}'); // Space goes down on the amount step and stays down…
      await user.click(next); // …while the mouse moves on to the confirm step
      const send = await screen.findByRole('button', { name: /Refund 50\.00 USD/ });
      await waitFor(() => expect(send).toHaveProperty('disabled', false), { timeout: 3000 });
      send.focus();
      // Space activates a button when it is released: this release belongs to a press this step never saw.
      await user.keyboard('{/ }');
      await sleep(150);
      expect(submits(fake)).toBe(0);
    });

    it('once the button is armed, two quick Enters on it send exactly one refund', async () => {
      const { fake, user } = setUp();
      await screen.findByLabelText('Refund amount (USD)');
      await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      const send = await screen.findByRole('button', { name: /Refund 50\.00 USD/ });
      await waitFor(() => expect(send).toHaveProperty('disabled', false), { timeout: 3000 });
      send.focus();
      await user.keyboard('{Enter}{Enter}');
      await waitFor(() => expect(submits(fake)).toBe(1));
      await sleep(200);
      expect(submits(fake)).toBe(1);
    });
  });
});

/** What main answers to an accepted refund (the dialog then shows its result). */
function refundAnswer(): IntentView {
  return {
    id: 'RD01',
    profileId: 'P-A',
    profileName: 'Shop A',
    environment: 'demo',
    baseUrl: 'http://127.0.0.1:4100',
    merchantNo: '200043',
    storeNo: '300014',
    transactionNo: TX,
    amountMinor: 5000,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: '',
    operator: 'ana',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    state: 'accepted',
    refundTransactionNo: '300000000000000001',
    checks: 0,
    attempts: 1,
  };
}
