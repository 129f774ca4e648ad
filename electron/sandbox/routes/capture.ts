/**
 * `/order/v4/capture`: card payments. Test cards decide the outcome (cards.ts); 3-D Secure leaves the
 * payment `pending` with an `authUrl` to a challenge page the sandbox serves; `creditType=vault` stores
 * the card (last 4 only); `vaultId` charges a stored card without card data.
 */
import { toWireAmount } from '../../../shared/domain/money';
import { RET } from '../../../shared/protocol/ret-codes';
import { cardBehaviour, isExpired, luhnValid, type CardBehaviour } from '../cards';
import { completePayment } from '../payments';
import {
  ApiError,
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
import type { PaymentRecord } from '../types';
import {
  checkCurrencies,
  checkCustomer,
  checkReference,
  checkVault,
  newPayment,
  timeoutParam,
} from './payment-common';
import type { RouteHandler } from './types';

const CARD_FIELDS = ['cardNumber', 'cardExpYear', 'cardExpMonth', 'cardCvv'] as const;

export const capture: RouteHandler = (ctx, caller, p) => {
  requireAll(p, ['amount', 'currency', 'settleCurrency', 'reference', 'vendor', 'terminal']);
  const usesVault = opt(p, 'vaultId') !== undefined;
  if (usesVault && CARD_FIELDS.some((k) => opt(p, k) !== undefined)) {
    throw new ApiError(RET.PARAM_CONFLICT, 'send either vaultId or card fields, not both');
  }
  if (!usesVault) requireAll(p, CARD_FIELDS);
  enumParam(p, 'vendor', ['creditcard'], true);
  const terminal = enumParam(p, 'terminal', ['ONLINE', 'WAP'], true) ?? 'ONLINE';
  const creditType = enumParam(p, 'creditType', ['normal', 'vault'], false);
  const currency = currencyParam(p, 'currency');
  const settleCurrency = currencyParam(p, 'settleCurrency');
  checkCurrencies('creditcard', currency, settleCurrency);
  const amountMinor = amountParam(p, 'amount', currency);
  const ipnUrl = urlParam(p, 'ipnUrl', false);
  const callbackUrl = urlParam(p, 'callbackUrl', false);
  const note = textParam(p, 'note', 100);
  const goodsInfo = goodsInfoParam(p);
  const timeoutMin = timeoutParam(p);

  // A stored card (vaultId) is always charged at once.
  let behaviour: CardBehaviour = 'success';
  let cardLast4: string | undefined;
  if (!usesVault) {
    const cardNumber = req(p, 'cardNumber');
    if (!luhnValid(cardNumber)) throw bad('cardNumber is not a valid card number');
    const year = req(p, 'cardExpYear');
    const month = req(p, 'cardExpMonth');
    if (!/^\d{4}$/.test(year)) throw bad('cardExpYear must be 4 digits');
    if (!/^(0[1-9]|1[0-2])$/.test(month)) throw bad('cardExpMonth must be 01–12');
    if (isExpired(year, month, ctx.now())) throw bad('the card has expired');
    if (!/^\d{3,4}$/.test(req(p, 'cardCvv'))) throw bad('cardCvv must be 3 or 4 digits');
    behaviour = cardBehaviour(cardNumber);
    cardLast4 = cardNumber.slice(-4);
  }
  const customerNo = checkCustomer(ctx, caller, p);
  const vault = checkVault(ctx, caller, p, 'creditcard');
  const reference = req(p, 'reference');
  checkReference(ctx, caller, reference);

  const payment = newPayment(ctx, caller, {
    reference,
    amountMinor,
    currency,
    settleCurrency,
    vendor: 'creditcard',
    terminal,
    timeoutMin,
    ipnUrl,
    callbackUrl,
    note,
    goodsInfo,
    creditType,
    customerNo,
    vaultId: vault?.vaultId,
    cardLast4: vault?.cardLast4 ?? cardLast4,
    channel: 'capture',
  });
  const base = {
    transactionNo: payment.transactionNo,
    reference,
    amount: toWireAmount(amountMinor, currency),
    currency,
    settleCurrency,
    ...(customerNo ? { customerNo } : {}),
  };
  if (behaviour === '3ds') {
    ctx.store.updatePayment(payment, { status: 'pending' });
    const authUrl = `${ctx.baseUrl()}/3ds/${payment.pageToken ?? ''}`;
    return { result: { ...base, status: 'pending', authUrl, authenticationUrl: authUrl } };
  }
  if (behaviour === 'declined') {
    completePayment(ctx, payment, 'failed');
    throw new ApiError(RET.UPSTREAM_ERROR, 'card declined by the issuer', { ...base, status: 'failed' });
  }
  completePayment(ctx, payment, 'success');
  return { result: captureResult(payment, base) };
};

function captureResult(payment: PaymentRecord, base: Record<string, string>): Record<string, string> {
  return {
    ...base,
    status: payment.status,
    paymentTime: new Date(payment.paidAt ?? payment.createdAt).toISOString(),
    ...(payment.vaultId ? { vaultId: payment.vaultId } : {}),
    ...(payment.cardLast4 ? { cardLast4: payment.cardLast4 } : {}),
  };
}
