import type { RefundRecordRow } from '../../../../shared/domain/refund-record';
import type { Formatters } from '../preferences/format';
import { PLAIN_WORDS, type Words } from './format';
import { checkedWords, type OutcomeText } from './outcome';

/**
 * What a refund made elsewhere says: only what the service lists (no operator, no reason), as of the
 * payment's last fetch.
 */
export function describeServiceRefund(row: RefundRecordRow, f: Words = PLAIN_WORDS): OutcomeText {
  const amount = f.amountCode(row.amountMinor, row.currency);
  switch (row.serviceStatus) {
    case 'success':
      return {
        tone: 'ok',
        title: 'Refunded (made elsewhere)',
        moneyMoved: 'yes',
        body: `The service lists a completed refund of ${amount} as ${row.refundTransactionNo ?? '—'}. It was not made at this desk.`,
        next: 'Nothing to do here. Its operator and reason are wherever it was made.',
      };
    case 'failed':
      return {
        tone: 'bad',
        title: 'Failed (made elsewhere)',
        moneyMoved: 'no',
        body: `The service lists a failed refund of ${amount} as ${row.refundTransactionNo ?? '—'}.`,
        next: 'Nothing to do here unless the customer is still owed the money.',
      };
    default:
      return {
        tone: 'info',
        title: 'Pending at the service (made elsewhere)',
        moneyMoved: 'pending',
        body: `The service lists a refund of ${amount} as ${row.refundTransactionNo ?? '—'} that is not final yet.`,
        next: 'Refresh the payment later to see its final status.',
      };
  }
}

/** When the row's status was last established, in words. */
export function checkedText(row: RefundRecordRow, f: Formatters, fetchedAt: string | undefined): string {
  if (row.intent) return checkedWords(row.intent, f.dateTimeSeconds);
  return fetchedAt
    ? `As the service listed it when the payment was last fetched, ${f.dateTimeSeconds(fetchedAt)}.`
    : 'As the service listed it when the payment was last fetched.';
}
