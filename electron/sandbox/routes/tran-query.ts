/** `/app-data-search/v3/tran-query`: exactly one of transactionNo, reference, refundTransactionNo. */
import { RET } from '../../../shared/protocol/ret-codes';
import { wirePayment, wireRefundTransaction } from '../payments';
import { ApiError, exactlyOne } from '../params';
import { findOwnPayment } from './lookup';
import type { RouteHandler } from './types';

export const tranQuery: RouteHandler = (ctx, caller, p) => {
  const { key, value } = exactlyOne(p, ['transactionNo', 'reference', 'refundTransactionNo']);
  if (key === 'refundTransactionNo') {
    const r = ctx.store.refund(value);
    const payment = r && ctx.store.payment(r.transactionNo);
    if (!r || !payment || payment.merchantNo !== caller.merchant.merchantNo) {
      throw new ApiError(RET.NO_RECORD, `no refund matches refundTransactionNo ${value}`);
    }
    return { result: wireRefundTransaction(payment, r) };
  }
  return { result: wirePayment(ctx, findOwnPayment(ctx, caller, key, value)) };
};
