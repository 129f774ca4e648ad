import { describe, expect, it } from 'vitest';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';
import { findByCustomerWords } from '../../../../renderer/src/features/transactions/customer-search';
import { readCustomerWords } from '../../../../renderer/src/features/transactions/customer-words';
import { makeTx } from '../db/helpers';

const en = createFormatters({ ...DEFAULT_PREFS, locale: 'en-US', zone: 'utc', dateFormat: 'iso' });
const de = createFormatters({ ...DEFAULT_PREFS, locale: 'de-DE', zone: 'utc', dateFormat: 'dmy' });

const mug = makeTx({
  amountMinor: 3400,
  currency: 'USD',
  cardLast4: '4242',
  createdAt: '2026-11-24T10:00:00.000Z',
});
const tea = makeTx({ amountMinor: 3400, currency: 'EUR', createdAt: '2026-11-23T09:00:00.000Z' });
const refunded = makeTx({
  amountMinor: 10_000,
  currency: 'USD',
  createdAt: '2026-11-20T09:00:00.000Z',
  refunds: [
    {
      refundTransactionNo: '900000000000000001',
      refundAmountMinor: 3400,
      currency: 'USD',
      status: 'success',
    },
  ],
});
const other = makeTx({ amountMinor: 1250, currency: 'JPY', createdAt: '2026-11-24T23:30:00.000Z' });
const transactions = [mug, tea, refunded, other];

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
  currency: 'EUR',
  settleCurrency: 'EUR',
  goods: [],
  saveCard: false,
  methodSaved: false,
  customerNo: '1001',
  transactionNo: tea.transactionNo,
  createdAt: tea.createdAt!,
  updatedAt: tea.createdAt!,
} as PaymentView;

const find = (text: string, f = en) => {
  const w = readCustomerWords(text, f.dateFormat);
  if (!w) throw new Error(`"${text}" was not read as a customer's words`);
  return findByCustomerWords(w, { transactions, payments: [payment], customers: [customer] }, f);
};
const nos = (ms: ReturnType<typeof find>) => ms.map((m) => m.transactionNo);

describe('finding a payment by what the customer says', () => {
  it('an amount alone matches it in every currency, refunds included, newest first, each with why', () => {
    const ms = find('34.00');
    expect(nos(ms)).toEqual([mug.transactionNo, tea.transactionNo, refunded.transactionNo]);
    expect(ms[0]!.why).toEqual(['Amount 34.00 USD']);
    expect(ms[1]!.why).toEqual(['Amount 34.00 EUR']);
    expect(ms[2]!.why).toEqual(['Refund of 34.00 USD (refund no. 900000000000000001)']);
  });

  it('with its currency (code or sign, before or after), only that currency', () => {
    for (const text of ['34 USD', 'USD 34', '$34.00', '34.00$', 'us$34'])
      expect(nos(find(text)), text).toEqual([mug.transactionNo, refunded.transactionNo]);
    expect(nos(find('34,00 €', de))).toEqual([tea.transactionNo]);
  });

  it('in the person’s number format, never guessing: an ambiguous amount matches nothing', () => {
    expect(nos(find('34,00', de))).toHaveLength(3);
    expect(find('34,00', en)).toEqual([]);
  });

  it('a card’s last four, or four digits that are an amount: both kinds of match are listed', () => {
    expect(find('4242')).toEqual([
      expect.objectContaining({ transactionNo: mug.transactionNo, why: ['Card ending 4242'] }),
    ]);
    expect(nos(find('1250'))).toEqual([other.transactionNo]);
  });

  it('an e-mail or a name finds this desk’s customer, then the payments made for them', () => {
    for (const text of ['ana.lima@example.com', 'Ana Lima', 'lima', 'ANA'])
      expect(find(text), text).toEqual([
        {
          transactionNo: tea.transactionNo,
          tx: tea,
          why: ['Customer Ana Lima (ana.lima@example.com), payment PAY-7 made here'],
        },
      ]);
    expect(find('Bo Chen')).toEqual([]);
    // A name that begins like a currency sign is still a name.
    expect(readCustomerWords('Rmarie', 'iso')).toMatchObject({ name: ['rmarie'], currencies: [] });
  });

  it('a date is the person’s calendar day, in their date format; every part must match', () => {
    expect(nos(find('2026-11-24'))).toEqual([other.transactionNo, mug.transactionNo]);
    expect(nos(find('24/11/2026', de))).toEqual([other.transactionNo, mug.transactionNo]);
    const both = find('34.00 2026-11-24');
    expect(both).toEqual([
      expect.objectContaining({
        transactionNo: mug.transactionNo,
        why: ['Amount 34.00 USD', 'Created 2026-11-24 10:00'],
      }),
    ]);
  });

  it('ids are not a customer’s words: the service is asked for those', () => {
    expect(readCustomerWords('297553638300708562', 'iso')).toBeUndefined();
    expect(readCustomerWords('INV-20261112-001697', 'iso')).toBeUndefined();
    expect(readCustomerWords('PAY1', 'iso')).toBeUndefined();
    expect(readCustomerWords('', 'iso')).toBeUndefined();
  });
});
