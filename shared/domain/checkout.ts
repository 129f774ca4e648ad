import { newSortableId } from './ids';

/**
 * What the payment service accepts when a payment is created (shared/protocol/README.md, "Secure-pay"): vendors, the
 * currencies each takes, the settlement currency, which vendors whitelabel checkout (`terminal=YIP`) and
 * vaulting allow. Shared by main (which checks every create before anything is sent) and the renderer
 * (which offers only valid choices). The service's own answer always decides; these rules only spare a
 * person a round trip that would be rejected anyway.
 */
export interface VendorRule {
  code: string;
  label: string;
  currencies: readonly string[];
  /** Allowed with `terminal=YIP` (whitelabel: the merchant renders payment with the vendor's SDK). */
  whitelabel: boolean;
  /**
   * Not stated by the protocol reference for this vendor's currencies: our assumption, so a rejection from the
   * service is the answer that counts.
   */
  assumed?: true;
}

export const VENDOR_RULES: readonly VendorRule[] = [
  {
    code: 'alipay',
    label: 'Alipay',
    currencies: ['USD', 'CNY', 'GBP', 'PHP', 'IDR', 'KRW', 'HKD'],
    whitelabel: false,
  },
  { code: 'wechatpay', label: 'WeChat Pay', currencies: ['USD', 'CNY'], whitelabel: false },
  { code: 'unionpay', label: 'UnionPay', currencies: ['USD', 'CNY'], whitelabel: false },
  { code: 'creditcard', label: 'Credit card', currencies: ['USD'], whitelabel: true },
  { code: 'paypal', label: 'PayPal', currencies: ['USD'], whitelabel: true },
  { code: 'venmo', label: 'Venmo', currencies: ['USD'], whitelabel: true },
  { code: 'applepay', label: 'Apple Pay', currencies: ['USD'], whitelabel: true, assumed: true },
  { code: 'googlepay', label: 'Google Pay', currencies: ['USD'], whitelabel: true, assumed: true },
  { code: 'cashapppay', label: 'Cash App Pay', currencies: ['USD'], whitelabel: false, assumed: true },
  { code: 'truemoney', label: 'TrueMoney', currencies: ['THB'], whitelabel: false },
  { code: 'alipay_hk', label: 'AlipayHK', currencies: ['HKD'], whitelabel: false },
  { code: 'tng', label: 'Touch ’n Go', currencies: ['MYR'], whitelabel: false },
  { code: 'gcash', label: 'GCash', currencies: ['PHP'], whitelabel: false },
  { code: 'dana', label: 'DANA', currencies: ['IDR'], whitelabel: false },
  { code: 'kakaopay', label: 'KakaoPay', currencies: ['KRW'], whitelabel: false },
  { code: 'bkash', label: 'bKash', currencies: ['BDT'], whitelabel: false },
  { code: 'easypaisa', label: 'Easypaisa', currencies: ['PKR'], whitelabel: false },
  { code: 'paypay', label: 'PayPay', currencies: ['JPY'], whitelabel: false, assumed: true },
];

export const VENDOR_CODES = VENDOR_RULES.map((v) => v.code) as [string, ...string[]];

export function vendorRule(code: string): VendorRule | undefined {
  return VENDOR_RULES.find((v) => v.code === code);
}

export function vendorLabel(code: string): string {
  return vendorRule(code)?.label ?? code;
}

/** Settlement currencies for a payment: USD, except GBP payments (GBP) and Alipay CNY (USD or GBP). */
export function settleCurrenciesFor(vendor: string, currency: string): readonly string[] {
  if (currency === 'GBP') return ['GBP'];
  if (vendor === 'alipay' && currency === 'CNY') return ['USD', 'GBP'];
  return ['USD'];
}

/** Why a vendor / currency / settlement combination would be rejected, or undefined when it is valid. */
export function checkoutProblem(args: {
  vendor: string;
  currency: string;
  settleCurrency: string;
  whitelabel: boolean;
}): { field: 'vendor' | 'currency' | 'settleCurrency'; message: string } | undefined {
  const rule = vendorRule(args.vendor);
  if (!rule) return { field: 'vendor', message: 'Choose a payment method the service offers.' };
  if (args.whitelabel && !rule.whitelabel)
    return {
      field: 'vendor',
      message: `Whitelabel checkout is offered only for ${VENDOR_RULES.filter((v) => v.whitelabel)
        .map((v) => v.label)
        .join(', ')}.`,
    };
  if (!rule.currencies.includes(args.currency))
    return {
      field: 'currency',
      message: `${rule.label} takes ${rule.currencies.join(', ')}, not ${args.currency}.`,
    };
  const settle = settleCurrenciesFor(args.vendor, args.currency);
  if (!settle.includes(args.settleCurrency))
    return {
      field: 'settleCurrency',
      message: `${rule.label} ${args.currency} payments settle in ${settle.join(' or ')}.`,
    };
  return undefined;
}

/** How long an unpaid link stays payable (the service's `timeout`, in minutes; default 120). */
export const TIMEOUT_MIN = { min: 1, max: 43_200, default: 120 } as const;

/** A merchant reference: short, unambiguous in CSV and URLs. The service refuses one used before. */
export const REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
export const REFERENCE_MESSAGE = 'Use 1–64 letters, digits, dots, dashes, colons or underscores (no spaces).';

/** A fresh, time-sortable reference such as `PAYM0ABC1234000XYZ1` (editable before sending). */
export function newPaymentReference(nowMs: number = Date.now()): string {
  return newSortableId('PAY', nowMs);
}

/** The service's goodsInfo: a JSON text of `[{"goods_name":"…","quantity":"1"}]`, signed verbatim. */
export function goodsInfoText(lines: ReadonlyArray<{ name: string; quantity: number }>): string | undefined {
  const kept = lines.filter((l) => l.name.trim() !== '');
  if (kept.length === 0) return undefined;
  return JSON.stringify(kept.map((l) => ({ goods_name: l.name.trim(), quantity: String(l.quantity) })));
}
