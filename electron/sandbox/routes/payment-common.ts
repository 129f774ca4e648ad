/** Checks and record construction shared by secure-pay and capture. */
import type { Currency } from '../../../shared/domain/currencies';
import { RET } from '../../../shared/protocol/ret-codes';
import { VENDOR_CURRENCIES, allowedSettleCurrencies } from '../catalog';
import type { Caller, SandboxContext } from '../context';
import { ApiError, bad, opt, type Params } from '../params';
import type { PaymentRecord, VaultRecord } from '../types';

/** Currency and settleCurrency rules of a vendor. */
export function checkCurrencies(vendor: string, currency: Currency, settleCurrency: Currency): void {
  const allowed = VENDOR_CURRENCIES[vendor] ?? [];
  if (!allowed.includes(currency))
    throw bad(`${vendor} does not accept ${currency} (accepts ${allowed.join(', ')})`);
  const settle = allowedSettleCurrencies(vendor, currency);
  if (!settle.includes(settleCurrency))
    throw bad(`settleCurrency for ${vendor} ${currency} must be ${settle.join(' or ')}`);
}

/** A reference is unique per merchant (secure-pay, shared/protocol/README.md): a reused one conflicts. */
export function checkReference(ctx: SandboxContext, caller: Caller, reference: string): void {
  if (reference.length > 128) throw bad('reference is longer than 128 characters');
  if (ctx.store.paymentByReference(caller.merchant.merchantNo, reference)) {
    throw new ApiError(RET.PARAM_CONFLICT, `reference ${reference} was already used`);
  }
}

/** An optional customerNo must belong to this merchant. */
export function checkCustomer(ctx: SandboxContext, caller: Caller, p: Params): string | undefined {
  const customerNo = opt(p, 'customerNo');
  if (customerNo === undefined) return undefined;
  const c = ctx.store.customer(customerNo);
  if (!c || c.merchantNo !== caller.merchant.merchantNo)
    throw new ApiError(RET.NO_RECORD, `customerNo ${customerNo} not found`);
  return customerNo;
}

/** An optional vaultId must belong to this merchant and be usable with `vendor`. */
export function checkVault(
  ctx: SandboxContext,
  caller: Caller,
  p: Params,
  vendor: string,
): VaultRecord | undefined {
  const vaultId = opt(p, 'vaultId');
  if (vaultId === undefined) return undefined;
  if (opt(p, 'creditType') === 'vault')
    throw new ApiError(RET.PARAM_CONFLICT, 'vaultId charges a stored method; do not also ask to vault');
  const v = ctx.store.vault(vaultId);
  if (!v || v.merchantNo !== caller.merchant.merchantNo)
    throw new ApiError(RET.NO_RECORD, `vaultId ${vaultId} not found`);
  if (v.vendor !== vendor) throw bad(`vaultId ${vaultId} is a ${v.vendor} method, not ${vendor}`);
  return v;
}

/** timeout in minutes (default 120). */
export function timeoutParam(p: Params): number {
  const v = opt(p, 'timeout');
  if (v === undefined) return 120;
  if (!/^\d{1,5}$/.test(v) || Number(v) < 1 || Number(v) > 43_200)
    throw bad('timeout must be a whole number of minutes (1–43200)');
  return Number(v);
}

/** A new open payment; the caller decides what happens next. */
export function newPayment(
  ctx: SandboxContext,
  caller: Caller,
  fields: Omit<
    PaymentRecord,
    'transactionNo' | 'merchantNo' | 'storeNo' | 'status' | 'createdAt' | 'refunds' | 'pageToken'
  >,
): PaymentRecord {
  const payment: PaymentRecord = {
    transactionNo: ctx.ids.transactionNo(),
    merchantNo: caller.merchant.merchantNo,
    storeNo: caller.storeNo,
    status: 'init',
    createdAt: ctx.now(),
    pageToken: ctx.ids.pageToken(),
    refunds: [],
    ...fields,
  };
  // Optional fields explicitly undefined would be persisted as missing anyway; drop them for tidiness.
  for (const key of Object.keys(payment) as (keyof PaymentRecord)[])
    if (payment[key] === undefined) delete payment[key];
  ctx.store.addPayment(payment);
  return payment;
}
