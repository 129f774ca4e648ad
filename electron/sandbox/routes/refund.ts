/** `/app-data-search/v3/refund`: rules live in refunds.ts; this file checks the request shape. */
import { toWireAmount } from '../../../shared/domain/money';
import { amountParam, currencyParam, exactlyOne, requireAll, textParam, urlParam } from '../params';
import { findOwnPayment } from './lookup';
import type { RouteHandler } from './types';

export const refund: RouteHandler = async (ctx, caller, p) => {
  requireAll(p, ['refundAmount', 'currency', 'settleCurrency']);
  const { key, value } = exactlyOne(p, ['transactionNo', 'reference']);
  const currency = currencyParam(p, 'currency');
  const settleCurrency = currencyParam(p, 'settleCurrency');
  const refundAmountMinor = amountParam(p, 'refundAmount', currency);
  const refundReference = textParam(p, 'refundReference', 64);
  const ipnUrl = urlParam(p, 'ipnUrl', false);
  const payment = findOwnPayment(ctx, caller, key, value);
  const r = await ctx.refunds.apply(payment, {
    refundAmountMinor,
    currency,
    settleCurrency,
    refundReference,
    ipnUrl,
  });
  return {
    result: {
      amount: toWireAmount(payment.amountMinor, payment.currency),
      refundAmount: toWireAmount(r.refundAmountMinor, r.currency),
      currency: r.currency,
      settleCurrency: r.settleCurrency,
      status: r.status,
      reference: payment.reference,
      refundReference: r.refundReference ?? '',
      refundTransactionNo: r.refundTransactionNo,
      transactionNo: payment.transactionNo,
    },
  };
};
