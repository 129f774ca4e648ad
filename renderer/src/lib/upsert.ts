/**
 * Writes one pushed or answered record into a list already loaded: the one rule for every list of
 * main's records (payments, customers, refund intents), so no list shows an older version than another.
 * - by `id`, in place; never with an older version (`updatedAt`): pushes and answers may arrive out of
 *   order, and a late one must not turn a final state back into a pending one;
 * - a new record joins newest first (`createdAt`);
 * - an absent list stays absent: it is read whole when it is opened, never built from one record.
 */
export function upsertNewest<T extends { id: string; createdAt: string; updatedAt?: string }>(
  list: readonly T[] | undefined,
  item: T,
): T[] | undefined {
  if (!list) return undefined;
  const at = list.findIndex((x) => x.id === item.id);
  if (at < 0) return [item, ...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const cur = list[at]!;
  if (cur.updatedAt && item.updatedAt && item.updatedAt < cur.updatedAt) return [...list];
  return list.map((x, i) => (i === at ? item : x));
}
