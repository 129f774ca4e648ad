/**
 * `/app-data-search/v3/trans-list`: payments of the caller's store created between startDate and
 * endDate (YYYYMMDD, UTC+8 calendar days, both inclusive, endDate − startDate ≤ 15 days). No paging:
 * top-level `transactions` + `size`.
 */
import { serviceDateToMs } from '../../../shared/protocol/time';
import { wirePayment } from '../payments';
import { bad, req, requireAll } from '../params';
import type { RouteHandler } from './types';

const DAY_MS = 86_400_000;
export const MAX_SPAN_DAYS = 15;

function dateParam(value: string, key: string): number {
  const ms = serviceDateToMs(value);
  // Round-trip through Date to reject 20240231 and friends.
  const valid =
    ms !== undefined && new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '') === value;
  if (!valid) throw bad(`${key} must be a date YYYYMMDD`);
  return ms;
}

export const transList: RouteHandler = (ctx, caller, p) => {
  requireAll(p, ['startDate', 'endDate']);
  const start = dateParam(req(p, 'startDate'), 'startDate');
  const end = dateParam(req(p, 'endDate'), 'endDate');
  if (end < start) throw bad('endDate is before startDate');
  if (end - start > MAX_SPAN_DAYS * DAY_MS)
    throw bad(`the date range may span at most ${MAX_SPAN_DAYS} days`);
  const endExclusive = end + DAY_MS;
  const rows = [];
  for (const payment of ctx.store.allPayments()) {
    if (payment.merchantNo !== caller.merchant.merchantNo || payment.storeNo !== caller.storeNo) continue;
    if (payment.createdAt >= start && payment.createdAt < endExclusive) rows.push(payment);
  }
  rows.sort((a, b) => a.createdAt - b.createdAt || (a.transactionNo < b.transactionNo ? -1 : 1));
  return { transactions: rows.map((r) => wirePayment(ctx, r)), size: rows.length };
};
