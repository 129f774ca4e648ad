export interface GoodsDraft {
  name: string;
  quantity: string;
}

/** Lines as the contract takes them, or why they cannot be sent. */
export function parseGoods(
  rows: readonly GoodsDraft[],
): { lines: { name: string; quantity: number }[] } | { error: string } {
  const lines: { name: string; quantity: number }[] = [];
  for (const [i, r] of rows.entries()) {
    if (r.name.trim() === '' && r.quantity.trim() === '') continue;
    if (r.name.trim() === '') return { error: `Name item ${i + 1} or remove it.` };
    if (!/^\d{1,4}$/.test(r.quantity.trim()) || Number(r.quantity) < 1)
      return { error: `Item ${i + 1}: the quantity is a whole number from 1 to 9999.` };
    lines.push({ name: r.name.trim(), quantity: Number(r.quantity) });
  }
  return { lines };
}
