/**
 * A window's payments held as objects (a window just fetched, or one an earlier version stored as
 * whole transactions) read as columns (PaymentColumns): each field read from the very object, and
 * `transaction(at)` that very object.
 */
import type { Currency } from '../../../../shared/domain/currencies';
import type { Transaction } from '../../../../shared/domain/transaction';
import { refundCounts } from '../../../../shared/recon/match';
import type { PaymentColumns } from './run-store';

export function objectColumns(transactions: readonly Transaction[]): PaymentColumns {
  return {
    length: transactions.length,
    transactionNo: (at) => transactions[at]!.transactionNo,
    reference: (at) => transactions[at]!.reference,
    isRefund: (at) => transactions[at]!.transactionType === 'refund',
    amountMinor: (at) => transactions[at]!.amountMinor,
    currency: (at): Currency => transactions[at]!.currency,
    status: (at) => transactions[at]!.status,
    refundedMinor: (at) => {
      const tx = transactions[at]!;
      let sum = 0;
      for (const r of tx.refunds)
        if (refundCounts(r.status) && r.currency === tx.currency) sum += r.refundAmountMinor;
      return sum;
    },
    paymentTime: (at) => transactions[at]!.paidAt || transactions[at]!.createdAt || undefined,
    transaction: (at) => transactions[at]!,
  };
}
