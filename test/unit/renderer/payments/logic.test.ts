import { describe, expect, it } from 'vitest';
import { PAYMENT_STATES, type PaymentView } from '../../../../shared/ipc/contract/payments';
import { PAYMENT_COLUMNS } from '../../../../shared/csv/exports/payments';
import { writeCsv } from '../../../../shared/csv/writer';
import { UTC_ZONE } from '../../../../shared/domain/zones';
import { unsafeLinkNotice } from '../../../../shared/domain/card-scrub';
import { parseAmountField } from '../../../../renderer/src/features/payments/amount';
import { filterPayments } from '../../../../renderer/src/features/payments/filters';
import { describePayment } from '../../../../renderer/src/features/payments/format';
import { parseGoods } from '../../../../renderer/src/features/payments/goods';
import { upsertById } from '../../../../renderer/src/features/payments/queries';
import { fieldErrorsOf } from '../../../../renderer/src/features/payments/server-errors';

const view = (over: Partial<PaymentView> = {}): PaymentView => ({
  id: 'PY1',
  kind: 'link',
  state: 'open',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  operator: 'Ana',
  reference: 'PAY1',
  amountMinor: 2500,
  currency: 'USD',
  settleCurrency: 'USD',
  vendor: 'alipay',
  goods: [],
  saveCard: false,
  methodSaved: false,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...over,
});

describe('payments view logic', () => {
  it('every state is described in words that say whether money moved', () => {
    for (const state of PAYMENT_STATES) {
      const d = describePayment(view({ state, retMsg: 'bad amount', retCode: '000023' }));
      expect(d.title.length).toBeGreaterThan(3);
      expect(['yes', 'no', 'unknown', 'not yet']).toContain(d.moneyMoved);
    }
    expect(
      describePayment(view({ state: 'rejected', retMsg: 'bad amount', retCode: '000023' })).body,
    ).toContain('bad amount (code 000023)');
    expect(describePayment(view({ kind: 'card', paymentStatus: 'pending' })).body).toContain('3-D Secure');
    expect(describePayment(view({ state: 'outcome_unknown' })).body).toMatch(/never sends it again/);
  });

  it('a card payment whose 3-D Secure link carried card data says what to do instead of waiting for the page', () => {
    const notice = unsafeLinkNotice('3ds');
    const body = describePayment(view({ kind: 'card', paymentStatus: 'pending', detail: notice })).body;
    expect(body).toContain(notice);
    expect(body).not.toMatch(/confirms the payment on the bank’s page/);
  });

  it('the export masks a card number or code in a service text once more (rows an older version kept)', () => {
    const csv = writeCsv(
      PAYMENT_COLUMNS,
      [view({ retMsg: 'card 4000 0566 5566 5556 cvv 987 refused', note: 'n 4000-0566-5566-5556' })],
      { zone: UTC_ZONE },
    );
    expect(csv).toContain('card •••• 5556 cvv ••• refused');
    expect(csv.replace(/(\d)[ -](?=\d)/g, '$1')).not.toContain('4000056655665556');
  });

  it('filters by kind, state (or "not final yet") and text, newest first', () => {
    const list = [
      view(),
      view({
        id: 'PY2',
        kind: 'card',
        state: 'succeeded',
        reference: 'CARD7',
        createdAt: '2026-11-22T11:00:00.000Z',
      }),
      view({
        id: 'PY3',
        state: 'outcome_unknown',
        customerName: 'Ana Lima',
        createdAt: '2026-11-22T09:00:00.000Z',
      }),
    ];
    expect(
      filterPayments(list, { kind: 'all', state: 'all', currency: 'all', text: '' }).map((p) => p.id),
    ).toEqual(['PY2', 'PY1', 'PY3']);
    expect(
      filterPayments(list, { kind: 'all', state: 'waiting', currency: 'all', text: '' }).map((p) => p.id),
    ).toEqual(['PY1', 'PY3']);
    expect(
      filterPayments(list, { kind: 'card', state: 'all', currency: 'all', text: '' }).map((p) => p.id),
    ).toEqual(['PY2']);
    expect(filterPayments(list, { kind: 'all', state: 'all', currency: 'JPY', text: '' })).toEqual([]);
    expect(
      filterPayments(list, { kind: 'all', state: 'all', currency: 'all', text: 'lima' }).map((p) => p.id),
    ).toEqual(['PY3']);
  });

  it('a pushed update never replaces a newer one; new items go first', () => {
    const old = [view()];
    const newer = view({ state: 'succeeded', updatedAt: '2026-11-22T10:05:00.000Z' });
    expect(upsertById(old, newer)![0]!.state).toBe('succeeded');
    expect(upsertById([newer], view())![0]!.state).toBe('succeeded');
    expect(
      upsertById(old, view({ id: 'PY9', createdAt: '2026-11-23T00:00:00.000Z' }))!.map((p) => p.id),
    ).toEqual(['PY9', 'PY1']);
    expect(upsertById(undefined, view())).toBeUndefined();
  });

  it('amounts are parsed strictly in the currency’s units; goods lines are checked', () => {
    expect(parseAmountField('25.5', 'USD')).toEqual({ ok: true, amountMinor: 2550 });
    expect(parseAmountField('1000', 'JPY')).toEqual({ ok: true, amountMinor: 1000 });
    expect(parseAmountField('10.5', 'JPY')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no decimals/),
    });
    expect(parseAmountField('1,000', 'USD')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/plain amount/),
    });
    expect(parseAmountField('0', 'USD')).toMatchObject({ ok: false });
    expect(
      parseGoods([
        { name: ' Mug ', quantity: '2' },
        { name: '', quantity: '' },
      ]),
    ).toEqual({
      lines: [{ name: 'Mug', quantity: 2 }],
    });
    expect(parseGoods([{ name: '', quantity: '2' }])).toHaveProperty('error');
    expect(parseGoods([{ name: 'Mug', quantity: '0' }])).toHaveProperty('error');
  });

  it('field messages come from the service’s fields or the contract’s issues', () => {
    const e = (details: Record<string, unknown>) => ({
      code: 'invalid_input' as const,
      message: 'm',
      retryable: false,
      correlationId: 'c',
      details,
    });
    expect(fieldErrorsOf(e({ fields: { reference: 'used' } }))).toEqual({ reference: 'used' });
    expect(fieldErrorsOf(e({ issues: [{ path: 'customer.email', message: 'bad' }] }), 'customer.')).toEqual({
      email: 'bad',
    });
  });

  it('the export carries no vaultId or card data beyond the last four, and guards formulas', () => {
    expect(PAYMENT_COLUMNS.map((c) => c.header)).not.toContain('vaultId');
    // As the payments screen writes it (features/payments/exports.ts): times in UTC, as its column says.
    const csv = writeCsv(
      PAYMENT_COLUMNS,
      [view({ note: '=HYPERLINK("x")', cardLast4: '3220', transactionNo: '297553638300708562' })],
      { zone: UTC_ZONE },
    );
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).toContain('3220');
  });
});
