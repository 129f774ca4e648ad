// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';
import { PaymentTimeline } from '../../../../renderer/src/features/transactions/PaymentTimeline';
import type { TimelineEntry } from '../../../../shared/ipc/contract/timeline';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(cleanup);

const TX = '297553638300708562';
const refund: TimelineEntry = {
  at: '2026-11-24T10:00:00.000Z',
  source: 'refund',
  what: 'Refund accepted',
  person: 'Ana Lima',
  automatic: false,
  amountMinor: 1_250,
  currency: 'USD',
};
const ipn: TimelineEntry = {
  at: '2026-11-24T10:00:05.000Z',
  source: 'ipn',
  what: 'Notification: refund 1 success',
  person: 'The payment service',
  automatic: true,
};

describe('the payment timeline in the detail panel', () => {
  it('lists entries newest first with person and time in the person’s format, refreshes on events and after a note', async () => {
    let entries: TimelineEntry[] = [refund];
    const fake = createFakeBridge({
      'payments.timeline': ({ profileId, transactionNo }) => ok({ profileId, transactionNo, entries }),
      'payments.addNote': ({ text }) => {
        entries = [
          {
            at: '2026-11-24T10:01:00.000Z',
            source: 'note',
            what: 'Note',
            person: 'Ana Lima',
            automatic: false,
            detail: text,
          },
          ...entries,
        ];
        return ok({ id: 'NT1', at: '2026-11-24T10:01:00.000Z', operator: 'Ana Lima' });
      },
    });
    const { wrapper: Wrapper } = harness(fake.bridge, 'payment-timeline');
    render(
      <Wrapper>
        <PaymentTimeline profileId="P-A" transactionNo={TX} />
      </Wrapper>,
    );
    const f = createFormatters(DEFAULT_PREFS);
    const list = await screen.findByTestId('payment-timeline');
    expect(list.textContent).toContain('Refund accepted');
    expect(list.textContent).toContain(f.money(1_250, 'USD'));
    expect(list.textContent).toContain(`${f.dateTimeSeconds(refund.at)} · Ana Lima`);

    // A refund event (from this desk or another) refreshes it.
    entries = [ipn, refund];
    fake.emit('refunds.updated', {} as never);
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('Notification'),
    );
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('The payment service');

    fireEvent.change(screen.getByLabelText('Add note'), { target: { value: 'Customer called' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('payment-timeline')).getAllByRole('listitem')[0]!.textContent,
      ).toContain('Customer called'),
    );
    expect(fake.calls.find((c) => c.channel === 'payments.addNote')?.input).toEqual({
      profileId: 'P-A',
      transactionNo: TX,
      text: 'Customer called',
    });
    expect((screen.getByLabelText('Add note') as HTMLTextAreaElement).value).toBe('');
  });

  it('shows main’s refusal of a note and keeps what was typed', async () => {
    const fake = createFakeBridge({
      'payments.timeline': ({ profileId, transactionNo }) => ok({ profileId, transactionNo, entries: [] }),
      'payments.addNote': () => ({
        ok: false,
        error: {
          code: 'invalid_input',
          message: 'The note has a right-to-left override (U+202E) at character 8. Remove it and try again.',
          retryable: false,
          correlationId: 't',
        },
      }),
    });
    const { wrapper: Wrapper } = harness(fake.bridge, 'payment-timeline-refused');
    render(
      <Wrapper>
        <PaymentTimeline profileId="P-A" transactionNo={TX} />
      </Wrapper>,
    );
    await screen.findByText('Nothing recorded on this desk for this payment yet.');
    fireEvent.change(screen.getByLabelText('Add note'), { target: { value: 'Refund \u202E00.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect((await screen.findByRole('alert')).textContent).toContain('right-to-left override');
    expect((screen.getByLabelText('Add note') as HTMLTextAreaElement).value).toBe('Refund \u202E00.1');
  });
});
