// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchConfirm } from '../../../../renderer/src/features/refunds/batch/BatchConfirm';
import { createFakeBridge } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(cleanup);

const TOTALS = [
  { currency: 'USD' as const, amountMinor: 123450, rows: 120 },
  { currency: 'JPY' as const, amountMinor: 3000, rows: 3 },
];

function confirm(moneyMode: 'live' | 'test' | 'local') {
  const onConfirm = vi.fn();
  const { wrapper } = harness(createFakeBridge({}).bridge, `batch-confirm-${moneyMode}`);
  render(
    <BatchConfirm
      fileName="claims.xlsx"
      rows={123}
      totals={TOTALS}
      profileName="Shop A"
      moneyMode={moneyMode}
      busy={false}
      error={null}
      onConfirm={onConfirm}
      onCancel={() => {}}
    />,
    { wrapper },
  );
  return onConfirm;
}

describe('the one confirmation of a refund batch (component)', () => {
  it('on a live-money profile the batch is sent only once every currency’s total is typed as it is', async () => {
    const onConfirm = confirm('live');
    const send = screen.getByRole('button', { name: 'Refund 123 rows' });
    expect(screen.getByTestId('batch-confirm-mode').textContent).toBe('LIVE MONEY');
    expect(screen.getByTestId('batch-confirm-totals').querySelectorAll('li')).toHaveLength(2);
    expect(send).toHaveProperty('disabled', true);
    const usd = screen.getByLabelText('Type the total in USD again to confirm');
    const jpy = screen.getByLabelText('Type the total in JPY again to confirm');
    await userEvent.type(usd, '1,234.50');
    // One currency typed, the other not: still not sent.
    expect(send).toHaveProperty('disabled', true);
    await userEvent.type(jpy, '3001');
    expect(send).toHaveProperty('disabled', true);
    await userEvent.clear(jpy);
    await userEvent.type(jpy, '3000');
    expect(send).toHaveProperty('disabled', false);
    await userEvent.click(send);
    expect(onConfirm).toHaveBeenCalledWith(['1,234.50 USD', '3000 JPY']);
  });

  it('a profile that moves no real money asks for no typed total', async () => {
    const onConfirm = confirm('local');
    expect(screen.queryByTestId('batch-typed-totals')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Refund 123 rows' }));
    expect(onConfirm).toHaveBeenCalledWith(undefined);
  });
});
