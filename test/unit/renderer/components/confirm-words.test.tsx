// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ShortcutHelp } from '../../../../renderer/src/app/ShortcutHelp';
import { ChargeDialog } from '../../../../renderer/src/features/payments/ChargeDialog';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import type { Output } from '../../../../shared/ipc/contract';
import type { CustomerView } from '../../../../shared/ipc/contract/payments';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness, twoProfiles } from './harness';

afterEach(cleanup);

const TX = '297553638300708562';

/** Shop A names no operator: main records this computer's account name ("root") for it. */
function profiles(): Output<'profiles.list'> {
  const list = twoProfiles();
  return {
    ...list,
    profiles: list.profiles.map((p) => (p.id === 'P-A' ? { ...p, operator: 'root' } : p)),
  };
}

const preview: Output<'refunds.preview'> = {
  transaction: {
    transactionNo: TX,
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
  operator: 'root',
  fetchedAt: '2026-11-24T10:00:00.000Z',
};

const customer: CustomerView = {
  id: 'C1',
  profileId: 'P-A',
  customerNo: '1001',
  firstName: 'Mia',
  lastName: 'Wong',
  email: 'mia@example.com',
  countryCode: 'US',
  createdAt: '2026-11-24T10:00:00.000Z',
  operator: 'root',
  methods: [
    { id: 'M1', vendor: 'creditcard', label: 'Card •••• 4242', vaultMasked: 'pp_…9f2c', createdAt: '' },
  ],
};

describe('the confirmation steps say the same thing, and how to send', () => {
  it('the shortcut sheet says Enter alone does not send where money moves: Tab to the button', () => {
    const { wrapper: Wrapper } = harness(createFakeBridge({}).bridge, 'help');
    render(
      <Wrapper>
        <ShortcutHelp onClose={() => {}} />
      </Wrapper>,
    );
    const help = screen.getByTestId('shortcut-help').textContent ?? '';
    expect(help).toContain('Tab, then Enter');
    expect(help).toContain('Enter alone does nothing there');
    expect(help).not.toContain('Continue / confirm');
  });

  it('the refund and the stored-card confirmations name the same operator, as the account name it is', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(profiles()),
      'refunds.preview': () => ok(preview),
    });
    const { wrapper: Wrapper } = harness(fake.bridge, 'operator');
    const user = userEvent.setup();
    render(
      <Wrapper>
        <RefundDialog profileId="P-A" transactionNo={TX} onClose={() => {}} />
      </Wrapper>,
    );
    await screen.findByLabelText('Refund amount (USD)');
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'customer_request');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('confirm-summary');
    await waitFor(() =>
      expect(within(summary).getByTestId('operator-name').textContent).toBe(
        'root (this computer’s account name — set your name in Settings)',
      ),
    );
    expect(screen.getByTestId('send-hint').textContent).toContain('Tab to the “Refund” button');
    cleanup();

    const shopA = profiles().profiles.find((p) => p.id === 'P-A')!;
    const charge = harness(createFakeBridge({}).bridge, 'operator-charge');
    render(
      <charge.wrapper>
        <ChargeDialog
          profile={shopA}
          customer={customer}
          method={customer.methods[0]!}
          live={() => undefined}
          onClose={() => {}}
        />
      </charge.wrapper>,
    );
    await user.type(screen.getByLabelText('Amount (USD)'), '5.00');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('operator-name')).textContent).toBe(
      'root (this computer’s account name — set your name in Settings)',
    );
    expect(screen.getByTestId('send-hint').textContent).toContain('Tab to the “Charge” button');
  });
});
