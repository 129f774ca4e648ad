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
import { upsertNewest } from '../../../../renderer/src/lib/upsert';
import { fieldErrorsOf } from '../../../../renderer/src/features/payments/server-errors';
import { refundSummaryOf } from '../../../../renderer/src/features/payments/queries';
import { toListRow } from '../../../../renderer/src/db/list-row';
import type { Transaction } from '../../../../shared/domain/transaction';
import { parseCsvText } from '../../../../shared/csv/parser';

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
    expect(upsertNewest(old, newer)![0]!.state).toBe('succeeded');
    expect(upsertNewest([newer], view())![0]!.state).toBe('succeeded');
    expect(
      upsertNewest(old, view({ id: 'PY9', createdAt: '2026-11-23T00:00:00.000Z' }))!.map((p) => p.id),
    ).toEqual(['PY9', 'PY1']);
    expect(upsertNewest(undefined, view())).toBeUndefined();
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

  it('a paid payment’s refunds are its cached transaction’s, by the Transactions list’s rule', () => {
    const paid = view({ state: 'succeeded', amountMinor: 4250, transactionNo: '297553638300708562' });
    const tx = (over: Partial<Transaction> = {}) =>
      toListRow({
        transactionNo: '297553638300708562',
        amountMinor: 4250,
        currency: 'USD',
        status: 'success',
        transactionType: 'payment',
        refunds: [],
        profileId: 'p',
        fetchedAt: '2026-11-22T11:00:00.000Z',
        ...over,
      });
    const refund = (amountMinor: number, over: Partial<Transaction['refunds'][number]> = {}) => ({
      refundTransactionNo: `39755363830070${String(amountMinor).padStart(4, '0')}`,
      refundAmountMinor: amountMinor,
      currency: 'USD' as const,
      status: 'success' as const,
      ...over,
    });
    expect(refundSummaryOf(paid, tx())).toEqual({
      refunded: 'not_refunded',
      refundedMinor: 0,
      remainingMinor: 4250,
      asOf: '2026-11-22T11:00:00.000Z',
    });
    // Pending refunds count, failed ones do not — as in Transactions.
    expect(
      refundSummaryOf(
        paid,
        tx({ refunds: [refund(1250), refund(100, { status: 'pending' }), refund(7, { status: 'failed' })] }),
      ),
    ).toMatchObject({ refunded: 'partially_refunded', refundedMinor: 1350, remainingMinor: 2900 });
    expect(refundSummaryOf(paid, tx({ refunds: [refund(4250)] }))).toMatchObject({
      refunded: 'refunded',
      refundedMinor: 4250,
      remainingMinor: 0,
    });
    // A refund in another currency: nothing honest can be said about what remains.
    const unclear = refundSummaryOf(paid, tx({ refunds: [refund(500, { currency: 'EUR' })] }));
    expect(unclear).toMatchObject({ refunded: 'unclear' });
    expect(unclear?.remainingMinor).toBeUndefined();
    expect(unclear?.notRefundable).toContain('another currency');
    // No longer successful at the service: not refundable, and it says why.
    const reversed = refundSummaryOf(paid, tx({ status: 'reversed', refunds: [refund(1250)] }));
    expect(reversed).toMatchObject({ refunded: 'partially_refunded', refundedMinor: 1250 });
    expect(reversed?.notRefundable).toContain('reversed');
    // Not a payment this screen can vouch for: no figures rather than wrong ones.
    expect(refundSummaryOf(paid, undefined)).toBeUndefined();
    expect(refundSummaryOf(paid, tx({ currency: 'EUR' }))).toBeUndefined();
    expect(refundSummaryOf(paid, tx({ transactionType: 'unknown' }))).toBeUndefined();
  });

  it('the payments export carries a paid payment’s refunds in columns appended after the old ones', () => {
    const before = [
      'createdAt',
      'updatedAt',
      'timezone',
      'paymentId',
      'kind',
      'state',
      'serviceStatus',
      'reference',
      'transactionNo',
      'amount',
      'currency',
      'settleCurrency',
      'vendor',
      'cardLast4',
      'customerNo',
      'description',
      'note',
      'paidAt',
      'expiresAt',
      'ret_code',
      'ret_msg',
      'operator',
      'profile',
      'environment',
    ];
    expect(PAYMENT_COLUMNS.map((c) => c.header)).toEqual([
      ...before,
      'refundState',
      'refunded',
      'refundable',
      'refundsAsOf',
    ]);
    const paid = view({ id: 'PY7', state: 'succeeded', amountMinor: 4250, reference: 'PAY7' });
    const csv = parseCsvText(
      writeCsv(
        PAYMENT_COLUMNS,
        [
          {
            ...paid,
            refundSummary: {
              refunded: 'partially_refunded',
              refundedMinor: 1250,
              remainingMinor: 3000,
              asOf: '2026-11-22T11:00:00.000Z',
            },
          },
          view({ id: 'PY8', reference: 'PAY8' }),
        ],
        { zone: UTC_ZONE },
      ),
    );
    // Time columns name their zone in the header ("refundsAsOf (UTC)").
    const col = (row: number, name: string) =>
      csv.rows[row]!.cells[csv.headers.findIndex((h) => h === name || h.startsWith(`${name} (`))];
    expect(['refundState', 'refunded', 'refundable'].map((h) => col(0, h))).toEqual([
      'partially_refunded',
      '12.50',
      '30.00',
    ]);
    expect(col(0, 'refundsAsOf')).toMatch(/^2026-11-22T11:00:00/);
    // An open payment has no refunds to speak of: the columns are empty, not zero.
    expect(['refundState', 'refunded', 'refundable', 'refundsAsOf'].map((h) => col(1, h))).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });
});
