import { useState } from 'react';
import type { BatchTotal } from '../../../../../shared/batch/result';
import { totalsTyped } from '../../../../../shared/batch/typed-totals';

/**
 * The typed-totals step of a live-money batch, for the person who starts it and for the checker who
 * approves it: each currency's total typed again, the button enabled by the rule main checks again
 * before anything is sent (shared/batch/typed-totals.ts).
 */
export function useTypedTotals(totals: readonly BatchTotal[], live: boolean) {
  const [typed, setTyped] = useState<Record<string, string>>({});
  const typedTotals = totals.map((t) => `${typed[t.currency] ?? ''} ${t.currency}`);
  return {
    typed,
    type: (currency: string, text: string) => setTyped({ ...typed, [currency]: text }),
    typedTotals,
    ok: !live || totalsTyped(totals, typedTotals),
  };
}
