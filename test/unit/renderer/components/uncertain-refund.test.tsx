// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';
import { COLUMNS } from '../../../../renderer/src/features/transactions/columns';
import { DetailPanel } from '../../../../renderer/src/features/transactions/DetailPanel';
import { toListRow } from '../../../../renderer/src/db/list-row';
import {
  uncertainByPayment,
  uncertainFor,
} from '../../../../renderer/src/features/transactions/open-refunds';
import { createFakeBridge } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { harness, intent } from './harness';

afterEach(cleanup);

/** A paid 134.00 USD payment in the cache, and this desk's 34.00 refund of it that answered 503. */
function paymentWithUnknownRefund() {
  const tx = makeTx({ amountMinor: 13_400 });
  const row = toListRow({ ...tx, profileId: 'P-A', fetchedAt: '2026-11-24T10:00:00.000Z' });
  const unknown = intent({
    id: 'RD0042',
    transactionNo: tx.transactionNo,
    amountMinor: 3_400,
    state: 'outcome_unknown',
  });
  const settled = intent({ id: 'RD0041', transactionNo: tx.transactionNo, state: 'succeeded' });
  const byPayment = uncertainByPayment([unknown, settled]);
  return { row, unknown, byPayment };
}

describe('a refund whose outcome is unknown, outside the refund dialog', () => {
  it('the detail panel says so, shows the remaining amount as uncertain and keeps Refund… disabled', () => {
    const { row, byPayment } = paymentWithUnknownRefund();
    const { wrapper: Wrapper } = harness(createFakeBridge({}).bridge, 'uncertain-panel');
    render(
      <Wrapper>
        <DetailPanel
          row={row}
          onClose={() => {}}
          onRefresh={() => {}}
          isRefreshing={false}
          onRefund={() => {}}
          uncertain={uncertainFor(row, byPayment)}
          onOpenRefunds={() => {}}
        />
      </Wrapper>,
    );
    const note = screen.getByTestId('detail-uncertain');
    expect(note.textContent).toContain('1 refund outcome unknown (34.00 USD) — check it in Refunds');
    within(note).getByRole('button', { name: 'Open Refunds' });
    const remaining = screen.getByTestId('detail-remaining').textContent ?? '';
    expect(remaining).toContain('Uncertain: 100.00 USD to 134.00 USD');
    expect(remaining).not.toMatch(/^\$134\.00/);
    expect(screen.getByRole('button', { name: 'Refund…' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/No refunds at the service/).textContent).toContain('as of the time above');
    // The unknown refund is listed with its reference; the settled one is not "unknown".
    expect(screen.getByLabelText('This desk’s refunds with an unknown outcome').textContent).toContain(
      'RD0042',
    );
  });

  it('the list row’s Refundable is an upper bound, said as uncertain in words; other rows are unchanged', () => {
    const { row, byPayment } = paymentWithUnknownRefund();
    const f = createFormatters({ ...DEFAULT_PREFS, locale: 'en-US' });
    const column = COLUMNS.find((c) => c.id === 'remaining')!;
    const cell = column.display(row, f, uncertainFor(row, byPayment));
    expect(cell).toMatchObject({ text: '≤ 134.00', uncertain: true });
    expect(cell.title).toContain('1 refund outcome unknown (34.00 USD) — check it in Refunds');
    expect(cell.title).toContain('Between 100.00 and 134.00 remains');
    const other = toListRow({ ...makeTx({ amountMinor: 500 }), profileId: 'P-A', fetchedAt: row.fetchedAt });
    expect(uncertainFor(other, byPayment)).toBeUndefined();
    expect(column.display(other, f, uncertainFor(other, byPayment))).toEqual({ text: '5.00' });
  });

  it('once the service lists the refund (the cache was refreshed), nothing is uncertain any more', () => {
    const { row, unknown, byPayment } = paymentWithUnknownRefund();
    const listed = {
      ...row,
      refunds: [
        {
          refundTransactionNo: '900000000000000001',
          refundReference: unknown.id,
          refundAmountMinor: 3_400,
          currency: 'USD' as const,
          status: 'success' as const,
        },
      ],
    };
    expect(uncertainFor(listed, byPayment)).toBeUndefined();
  });
});
