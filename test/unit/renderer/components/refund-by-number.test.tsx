// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { RefundDialogContext } from '../../../../renderer/src/features/refunds/dialog-context';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness, twoProfiles } from './harness';

afterEach(cleanup);

describe('Refunds → “Refund a payment by transaction number” (component, typed fake bridge)', () => {
  it('takes a number typed in groups of four, by the one id rule, and refuses a short one with words', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
    });
    const { wrapper } = harness(fake.bridge);
    const opened: string[] = [];
    render(
      <RefundDialogContext.Provider value={{ open: (no) => opened.push(no) }}>
        <RefundsView />
      </RefundDialogContext.Provider>,
      { wrapper },
    );
    const input = await screen.findByLabelText('Refund a payment by transaction number');
    const button = screen.getByRole('button', { name: 'Refund…' });
    const user = userEvent.setup();

    await user.type(input, '4066 0296 6802 8308 5');
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByTestId('new-tx-hint').textContent).toContain('18 digits');

    await user.type(input, '9');
    expect(screen.queryByTestId('new-tx-hint')).toBeNull();
    await user.click(button);
    expect(opened).toEqual(['406602966802830859']);
  });
});
