// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchBox } from '../../../../renderer/src/features/transactions/SearchBox';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { harness } from './harness';

afterEach(cleanup);

describe('the look-up box finds a payment by the customer’s e-mail (component, typed fake bridge)', () => {
  it('lists the payment made for that customer with why, asks the service nothing, and opens it', async () => {
    const tx = makeTx({ amountMinor: 3400, currency: 'USD' });
    const customer: CustomerView = {
      id: 'C1',
      profileId: 'P-A',
      customerNo: '1001',
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana.lima@example.com',
      countryCode: 'US',
      createdAt: '2026-11-01T00:00:00.000Z',
      operator: 'ana',
      methods: [],
    };
    const payment = {
      id: 'PY1',
      kind: 'link',
      state: 'succeeded',
      profileId: 'P-A',
      profileName: 'Shop A',
      environment: 'demo',
      operator: 'ana',
      reference: 'PAY-7',
      vendor: 'alipay',
      amountMinor: 3400,
      currency: 'USD',
      settleCurrency: 'USD',
      goods: [],
      saveCard: false,
      methodSaved: false,
      customerNo: '1001',
      transactionNo: tx.transactionNo,
      createdAt: '2026-11-24T10:00:00.000Z',
      updatedAt: '2026-11-24T10:00:00.000Z',
    } as PaymentView;
    const fake = createFakeBridge({
      'payments.list': () => ok([payment]),
      'customers.list': () => ok([customer]),
    });
    const { wrapper: Wrapper, cache } = harness(fake.bridge, 'customer-words');
    await cache.store('P-A', [tx], '2026-11-24T10:00:00.000Z');
    const found: string[] = [];
    render(
      <Wrapper>
        <SearchBox profileId="P-A" onFound={(no) => found.push(no)} />
      </Wrapper>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), 'ana.lima@example.com{Enter}');
    const results = await screen.findByTestId('tx-matches');
    const item = within(results).getByText(tx.transactionNo).closest('li')!;
    expect(item.textContent).toContain('Customer Ana Lima (ana.lima@example.com), payment PAY-7 made here');
    expect(item.textContent).toContain('34.00 USD');
    // One match: it is opened as well; nothing was asked of the payment service.
    expect(found).toEqual([tx.transactionNo]);
    expect(fake.calls.some((c) => c.channel.startsWith('transactions.'))).toBe(false);
  });
});
