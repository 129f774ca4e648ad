// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useRefundEvents } from '../../../../renderer/src/features/refunds/queries';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

/** The Refunds screen as mounted in the app: the list, kept live by `refunds.updated` pushes. */
function Screen() {
  useRefundEvents();
  return <RefundsView />;
}

const CLOSED = intent({
  id: 'RD-C1',
  state: 'refused',
  closedNotSentAt: '2026-11-24T12:05:00.000Z',
  detail:
    'Closed as not sent by ana at 2026-11-24T12:05:00.000Z after 4 checks over 125 minute(s). Refund Desk keeps asking the service for it until 2026-12-01T12:05:00.000Z; if it appears there, it becomes the refund it was and you are told.',
});
const FOUND: IntentView = {
  ...CLOSED,
  state: 'succeeded',
  refundTransactionNo: '300000000000000077',
  refundStatus: 'success',
  updatedAt: '2026-11-24T12:09:00.000Z',
  detail:
    'Closed as not sent at 2026-11-24T12:05:00.000Z, but the service has it: refund 300000000000000077 of 1.00 USD was sent and is completed. It counts against what remains refundable; a refund made for this payment after closing it was made in addition to this one.',
};

describe('a refund closed as not sent, in the Refunds list (component, typed fake bridge)', () => {
  it('says it is still watched, and says at once when the service has it after all', async () => {
    let listed: IntentView[] = [CLOSED];
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok(listed),
    });
    const { wrapper } = harness(fake.bridge);
    render(<Screen />, { wrapper });
    const table = await screen.findByTestId('refunds-table');
    const row = () => within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(row().textContent).toContain('Closed as not sent · still watched'));

    // Main's watch found it: the push alone changes the row.
    listed = [FOUND];
    fake.emit('refunds.updated', FOUND);
    await waitFor(() =>
      expect(row().textContent).toContain('Closed as not sent, but the service has it: refunded after all'),
    );
    expect(within(row()).getByTestId('found-after-close').textContent).toMatch(
      /refund 300000000000000077 of 1\.00 USD was sent/,
    );

    // Its details say what it means for the money and what to do.
    await userEvent.setup().click(row());
    const detail = await screen.findByTestId('refund-record-detail');
    expect(within(detail).getByRole('heading').textContent).toBe(
      'Closed as not sent, but the service has it: refunded after all',
    );
    expect(detail.textContent).toContain('Money moved: yes');
    expect(detail.textContent).toMatch(
      /if the customer was refunded again after closing, they were paid twice/,
    );
  });
});
