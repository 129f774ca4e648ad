/**
 * Transaction numbers are 18+ digit strings: never Number() them. These helpers only classify text.
 */
/** `refundReference`: the reference a refund was sent with (this desk's `RD…`, or another system's). */
export type IdKind = 'transactionNo' | 'refundTransactionNo' | 'reference' | 'refundReference';

let lastMs = 0;
let counter = 0;

/**
 * Time-sortable short id with a prefix, e.g. `RD` + base36 time + counter + random. Used as the refund
 * intent id and therefore the refundReference the service stores (short, unique, recognisable).
 */
export function newSortableId(
  prefix: string,
  nowMs: number = Date.now(),
  rand: () => number = Math.random,
): string {
  if (nowMs === lastMs) counter += 1;
  else {
    lastMs = nowMs;
    counter = 0;
  }
  const time = nowMs.toString(36).padStart(9, '0');
  const seq = counter.toString(36).padStart(2, '0');
  const r = Math.floor(rand() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${prefix}${time}${seq}${r}`.toUpperCase();
}

/** Correlation id for one IPC call or job, safe to show to a person and to log. */
export function newCorrelationId(): string {
  return newSortableId('C');
}
