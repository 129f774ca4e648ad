import type { IdKind } from '../../../../shared/domain/ids';

/**
 * What the search box can tell from the text alone. Transaction and refund numbers are both 18-digit
 * strings, so digits read as "a service number"; which of the two it was is known only after the cache
 * or the service answers (see describeMatchedKind).
 */
export type QueryShape =
  | { shape: 'empty' }
  | { shape: 'service-number'; text: string }
  | { shape: 'reference'; text: string }
  | { shape: 'invalid'; text: string; reason: string };

const SERVICE_NUMBER = /^\d{12,32}$/;
// A merchant reference is free text at the service; we only refuse what cannot be one.
const REFERENCE = /^[\x21-\x7e]{1,64}$/;

/** Classifies the search text. Ids stay strings: nothing here converts digits to a number. */
export function classifyQuery(raw: string): QueryShape {
  const text = raw.trim();
  if (text === '') return { shape: 'empty' };
  if (SERVICE_NUMBER.test(text)) return { shape: 'service-number', text };
  if (/^\d+$/.test(text)) {
    return {
      shape: 'invalid',
      text,
      reason: 'Transaction and refund numbers have 18 digits; check that none is missing.',
    };
  }
  if (!REFERENCE.test(text)) {
    return { shape: 'invalid', text, reason: 'A reference has no spaces and at most 64 characters.' };
  }
  return { shape: 'reference', text };
}

/** The hint shown under the search box while typing. */
export function describeShape(q: QueryShape): string {
  switch (q.shape) {
    case 'empty':
      return 'Enter a transaction number, your reference, or a refund number.';
    case 'service-number':
      return 'Looks like a transaction or refund number.';
    case 'reference':
      return 'Looks like a merchant reference.';
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

/** The query keys to try at the service, in order, for a given shape. */
export function queryKeysFor(q: QueryShape): IdKind[] {
  if (q.shape === 'service-number') return ['transactionNo', 'refundTransactionNo'];
  if (q.shape === 'reference') return ['reference'];
  return [];
}
