import type { PaymentKind, PaymentState, PaymentView } from '../../../../shared/ipc/contract/payments';

export interface PaymentFilters {
  kind: PaymentKind | 'all';
  state: PaymentState | 'all' | 'waiting';
  currency: string | 'all';
  text: string;
}

const WAITING = new Set<PaymentState>(['sending', 'open', 'outcome_unknown']);

/** Payments matching the list's filters, newest first. `waiting` = not final yet. */
export function filterPayments<T extends PaymentView>(list: readonly T[], f: PaymentFilters): T[] {
  const needle = f.text.trim().toLowerCase();
  return list
    .filter((p) => f.kind === 'all' || p.kind === f.kind)
    .filter((p) => f.currency === 'all' || p.currency === f.currency)
    .filter((p) => f.state === 'all' || (f.state === 'waiting' ? WAITING.has(p.state) : p.state === f.state))
    .filter(
      (p) =>
        needle === '' ||
        [p.reference, p.transactionNo, p.customerName, p.customerNo, p.description, p.id].some((h) =>
          h?.toLowerCase().includes(needle),
        ),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
