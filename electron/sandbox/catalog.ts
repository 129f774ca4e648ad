/**
 * Static facts of the simulated service: merchants, vendors and their currency rules (secure-pay in
 * shared/protocol/README.md). Where no source says (googlepay, applepay, cashapppay, paypay) the choice
 * is ours and documented in this folder's README.md.
 */
import type { Currency } from '../../shared/domain/currencies';
import type { Merchant } from './types';

/** The vendor's public demo credentials (shared/protocol/README.md): the sandbox's default merchant. */
export const DEMO_MERCHANT = {
  merchantNo: '200043',
  storeNo: '300014',
  token: '5cbfb079f15b150122261c8537086d77a',
} as const;

/**
 * Every merchant the sandbox knows. Fixed (not seed-dependent) so that the app and tests can hold the
 * credentials before the sandbox starts. The extra tokens are sandbox-only inventions.
 */
export const MERCHANTS: readonly Merchant[] = [
  {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNos: [DEMO_MERCHANT.storeNo, '300015'],
    token: DEMO_MERCHANT.token,
  },
  { merchantNo: '200101', storeNos: ['301001', '301002'], token: 'sbx1a2b3c4d5e6f708192a3b4c5d6e7f8091' },
  { merchantNo: '200202', storeNos: ['302001'], token: 'sbx9f8e7d6c5b4a39281706f5e4d3c2b1a0f' },
];

/** Currencies each vendor accepts. */
export const VENDOR_CURRENCIES: Readonly<Record<string, readonly Currency[]>> = {
  alipay: ['USD', 'CNY', 'GBP', 'PHP', 'IDR', 'KRW', 'HKD'],
  wechatpay: ['USD', 'CNY'],
  unionpay: ['USD', 'CNY'],
  creditcard: ['USD'],
  paypal: ['USD'],
  venmo: ['USD'],
  truemoney: ['THB'],
  alipay_hk: ['HKD'],
  tng: ['MYR'],
  gcash: ['PHP'],
  dana: ['IDR'],
  kakaopay: ['KRW'],
  bkash: ['BDT'],
  easypaisa: ['PKR'],
  // No source gives these vendors' currencies: sandbox choices.
  googlepay: ['USD'],
  applepay: ['USD'],
  cashapppay: ['USD'],
  paypay: ['JPY'],
};

export const VENDORS: readonly string[] = Object.keys(VENDOR_CURRENCIES);

/** Vendors allowed with `terminal=YIP` (whitelabel checkout). */
export const YIP_VENDORS: readonly string[] = ['paypal', 'venmo', 'creditcard', 'applepay', 'googlepay'];

/** Vendors that can store a payment method (`creditType=vault`). */
export const VAULT_VENDORS: readonly string[] = ['creditcard', 'paypal', 'venmo'];

export const TERMINALS: readonly string[] = ['ONLINE', 'WAP', 'MWEB', 'YIP'];

/**
 * Settlement currencies allowed for a payment: USD, except GBP payments (GBP) and alipay CNY
 * (USD or GBP).
 */
export function allowedSettleCurrencies(vendor: string, currency: Currency): readonly Currency[] {
  if (currency === 'GBP') return ['GBP'];
  if (vendor === 'alipay' && currency === 'CNY') return ['USD', 'GBP'];
  return ['USD'];
}

/** Finds a merchant by number. */
export function findMerchant(merchants: readonly Merchant[], merchantNo: string): Merchant | undefined {
  return merchants.find((m) => m.merchantNo === merchantNo);
}
