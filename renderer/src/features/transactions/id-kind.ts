import type { IdShape } from '../../../../shared/domain/id-kind';
import type { IdKind } from '../../../../shared/domain/ids';

// What the text itself says is classified by the one shared rule, shared/domain/id-kind.ts (classifyId).

/** The hint shown under the search box while typing. */
export function describeShape(q: IdShape): string {
  switch (q.shape) {
    case 'empty':
      return 'Enter a transaction number, your reference, or a refund number.';
    case 'service-number':
      return 'Looks like a transaction or refund number.';
    case 'refund-reference':
      return 'Looks like a refund reference from this desk.';
    case 'reference':
      return q.note ? `Looks like a merchant reference. ${q.note}` : 'Looks like a merchant reference.';
    case 'invalid':
      return q.reason;
  }
}

const KIND_LABELS: Record<IdKind, string> = {
  transactionNo: 'transaction number',
  reference: 'merchant reference',
  refundTransactionNo: 'refund number',
  refundReference: 'refund reference',
};

/** "Found by refund number" etc., once the cache or the service said which id it was. */
export function describeMatchedKind(kind: IdKind): string {
  return KIND_LABELS[kind];
}
