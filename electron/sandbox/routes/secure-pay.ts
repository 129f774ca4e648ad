/**
 * `/online/v3/secure-pay`: hosted checkout (`cashierUrl` to a page the sandbox serves), whitelabel
 * (`terminal=YIP` → `authorization`), vaulting (`creditType=vault`) and charging a stored `vaultId`.
 */
import { toWireAmount } from '../../../shared/domain/money';
import { TERMINALS, VAULT_VENDORS, VENDORS, YIP_VENDORS } from '../catalog';
import { completePayment } from '../payments';
import {
  amountParam,
  bad,
  currencyParam,
  enumParam,
  goodsInfoParam,
  opt,
  req,
  requireAll,
  textParam,
  urlParam,
} from '../params';
import {
  checkCurrencies,
  checkCustomer,
  checkReference,
  checkVault,
  newPayment,
  timeoutParam,
} from './payment-common';
import type { RouteHandler } from './types';

export const securePay: RouteHandler = (ctx, caller, p) => {
  requireAll(p, ['amount', 'currency', 'settleCurrency', 'vendor', 'terminal', 'reference', 'ipnUrl']);
  const terminal = enumParam(p, 'terminal', TERMINALS, true) ?? '';
  const isYip = terminal === 'YIP';
  if (!isYip) req(p, 'callbackUrl');
  if (terminal === 'WAP') req(p, 'osType');
  const creditType = enumParam(p, 'creditType', ['normal', 'recurring', 'vault'], false);
  if (creditType === 'recurring') requireAll(p, ['paymentCount', 'frequency']);

  const vendor = enumParam(p, 'vendor', VENDORS, true) ?? '';
  const currency = currencyParam(p, 'currency');
  const settleCurrency = currencyParam(p, 'settleCurrency');
  checkCurrencies(vendor, currency, settleCurrency);
  if (isYip && !YIP_VENDORS.includes(vendor))
    throw bad(`terminal YIP supports only ${YIP_VENDORS.join(', ')}`);
  if (creditType === 'vault' && !VAULT_VENDORS.includes(vendor))
    throw bad(`creditType vault supports only ${VAULT_VENDORS.join(', ')}`);
  const amountMinor = amountParam(p, 'amount', currency);
  const ipnUrl = urlParam(p, 'ipnUrl', true);
  const callbackUrl = urlParam(p, 'callbackUrl', false);
  enumParam(p, 'osType', ['IOS', 'ANDROID'], false);
  const description = textParam(p, 'description', 100);
  const note = textParam(p, 'note', 100);
  const goodsInfo = goodsInfoParam(p);
  const timeoutMin = timeoutParam(p);
  for (const key of ['paymentCount', 'frequency']) {
    const v = opt(p, key);
    if (v !== undefined && !/^[1-9]\d{0,3}$/.test(v)) throw bad(`${key} must be a positive whole number`);
  }
  const customerNo = checkCustomer(ctx, caller, p);
  const vault = checkVault(ctx, caller, p, vendor);
  const reference = req(p, 'reference');
  checkReference(ctx, caller, reference);

  const payment = newPayment(ctx, caller, {
    reference,
    amountMinor,
    currency,
    settleCurrency,
    vendor,
    terminal,
    timeoutMin,
    ipnUrl,
    callbackUrl,
    description,
    note,
    goodsInfo,
    creditType,
    customerNo,
    vaultId: vault?.vaultId,
    cardLast4: vault?.cardLast4,
    channel: 'secure-pay',
  });
  const result: Record<string, unknown> = {
    amount: toWireAmount(amountMinor, currency),
    currency,
    settleCurrency,
    reference,
    transactionNo: payment.transactionNo,
  };
  const pageUrl = `${ctx.baseUrl()}/checkout/${payment.pageToken ?? ''}`;
  if (vault) {
    // A stored method is charged at once, without a checkout page.
    completePayment(ctx, payment, 'success');
    return {
      result: {
        ...result,
        status: payment.status,
        paymentTime: new Date(payment.paidAt ?? ctx.now()).toISOString(),
        vaultId: vault.vaultId,
      },
    };
  }
  if (isYip) {
    // Stand-in for the vendor SDK client token. approveUrl is a sandbox addition so a YIP payment can
    // be completed by hand (the same page the hosted checkout uses).
    const authorization = Buffer.from(
      JSON.stringify({
        environment: 'sandbox',
        vendor,
        transactionNo: payment.transactionNo,
        clientToken: `sandbox_${payment.pageToken ?? ''}`,
        approveUrl: pageUrl,
      }),
    ).toString('base64');
    return { result: { ...result, authorization } };
  }
  return { result: { ...result, cashierUrl: pageUrl } };
};
