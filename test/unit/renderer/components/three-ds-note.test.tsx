// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentDetail } from '../../../../renderer/src/features/payments/PaymentDetail';
import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(cleanup);

const card = (over: Omit<Partial<PaymentView>, 'authUrl'>, authUrl = true): PaymentView => ({
  id: 'PY1',
  kind: 'card',
  state: 'open',
  paymentStatus: 'pending',
  profileId: 'P-A',
  profileName: 'Shop A',
  environment: 'demo',
  operator: 'ana',
  reference: 'CARD1',
  amountMinor: 2500,
  currency: 'USD',
  settleCurrency: 'USD',
  goods: [],
  saveCard: false,
  methodSaved: false,
  cardLast4: '3220',
  vendor: 'creditcard',
  ...(authUrl ? { authUrl: 'http://127.0.0.1:4100/3ds/PY1' } : {}),
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  ...over,
});

describe('the 3-D Secure hand-over note', () => {
  it('is shown beside the waiting payment’s link only: not once it is paid, nor on the next card', async () => {
    const fake = createFakeBridge({
      'payments.openPage': () => ok({ opened: true, url: 'http://127.0.0.1:4100/3ds/PY1' }),
    });
    const { wrapper: Wrapper } = harness(fake.bridge, 'three-ds');
    const { rerender } = render(
      <Wrapper>
        <PaymentDetail payment={card({})} />
      </Wrapper>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open the 3-D Secure page' }));
    expect((await screen.findByTestId('open-page-note')).textContent).toContain('copy the link above');
    rerender(
      <Wrapper>
        <PaymentDetail payment={card({ state: 'succeeded', paymentStatus: 'success' }, false)} />
      </Wrapper>,
    );
    expect(screen.queryByTestId('open-page-note')).toBeNull();
    rerender(
      <Wrapper>
        <PaymentDetail
          payment={card({ id: 'PY2', reference: 'CARD2', state: 'failed', paymentStatus: 'failed' }, false)}
        />
      </Wrapper>,
    );
    expect(screen.queryByTestId('open-page-note')).toBeNull();
  });
});
