import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { PaymentRefunds, PaymentRow } from '../../../../shared/csv/exports/payments';
import { transactionStatusLabel } from '../../../../shared/domain/labels';
import { refundBlocker } from '../../../../shared/domain/transaction';
import type { Bridge } from '../../../../shared/ipc/contract';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { type ListRow, useCache } from '../../db/owner';
import { unwrap, useBridge } from '../../lib/bridge';
import { upsertNewest } from '../../lib/upsert';

/** Query-key factory: payments and customers per profile; the payments audit log. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: (profileId: string) => ['payments', profileId, 'list'] as const,
  customers: (profileId: string) => ['payments', profileId, 'customers'] as const,
  audit: (profileId: string) => ['payments', 'audit', profileId] as const,
};

export const paymentsQuery = (bridge: Bridge, profileId: string) =>
  queryOptions({
    queryKey: paymentKeys.list(profileId),
    queryFn: () => unwrap(bridge['payments.list']({ profileId })),
  });

export const customersQuery = (bridge: Bridge, profileId: string) =>
  queryOptions({
    queryKey: paymentKeys.customers(profileId),
    queryFn: () => unwrap(bridge['customers.list']({ profileId })),
  });

export const paymentAuditQuery = (bridge: Bridge, profileId: string) =>
  queryOptions({
    queryKey: paymentKeys.audit(profileId),
    queryFn: () => unwrap(bridge['payments.audit']({ profileId })),
  });

/** Writes an answer or a pushed update into the cached lists (and refreshes the audit log). */
export function useRememberPayment() {
  const client = useQueryClient();
  return useMemo(
    () => ({
      payment(p: PaymentView) {
        client.setQueryData<PaymentView[]>(paymentKeys.list(p.profileId), (old) => upsertNewest(old, p));
        void client.invalidateQueries({ queryKey: ['payments', 'audit'] });
      },
      customer(c: CustomerView) {
        client.setQueryData<CustomerView[]>(paymentKeys.customers(c.profileId), (old) =>
          upsertNewest(old, c),
        );
        void client.invalidateQueries({ queryKey: ['payments', 'audit'] });
      },
    }),
    [client],
  );
}

/** Keeps payments and customers live from main's pushes while the Payments area is open. */
export function usePaymentEvents(): void {
  const bridge = useBridge();
  const remember = useRememberPayment();
  useEffect(() => {
    const off1 = bridge.on['payments.updated']((p) => remember.payment(p));
    const off2 = bridge.on['customers.updated']((c) => remember.customer(c));
    return () => {
      off1();
      off2();
    };
  }, [bridge, remember]);
}

/** A paid payment's refunds from its cached transaction, by the Transactions list's rule. */
export function refundSummaryOf(p: PaymentView, row: ListRow | undefined): PaymentRefunds | undefined {
  if (!row || row.refunded === undefined || row.currency !== p.currency) return undefined;
  // What Transactions shows as "Refundable": only a successful payment whose refunds are all in its
  // currency; otherwise the same words as its detail panel say why not.
  const notRefundable =
    row.status !== 'success'
      ? `Only successful payments can be refunded; the service now reports this one as ${transactionStatusLabel(row.status).toLowerCase()}.`
      : refundBlocker(row);
  return {
    refunded: row.refunded,
    refundedMinor: row.refundedMinor,
    ...(notRefundable ? { notRefundable } : { remainingMinor: row.remainingMinor }),
    asOf: row.fetchedAt,
  };
}

/** Transaction numbers of payments that were paid (only those can have refunds), sorted, once each. */
const paidNumbers = (payments: readonly PaymentView[]) =>
  [
    ...new Set(
      payments.flatMap((p) => (p.state === 'succeeded' && p.transactionNo ? [p.transactionNo] : [])),
    ),
  ].sort();

/**
 * The payments with their refunds as the Transactions screen shows them: each paid payment is joined
 * with its transaction in the renderer's cache (one indexed read; re-read after every cache write, so a
 * refund made from the card shows on the card, the list and the export as soon as the cache has it).
 * A paid payment the cache does not hold yet is fetched once, through main, into the cache — then it
 * is also in Transactions.
 */
export function usePaymentRows(profileId: string, payments: readonly PaymentView[]): PaymentRow[] {
  const cache = useCache();
  const bridge = useBridge();
  const numbers = useMemo(() => paidNumbers(payments), [payments]);
  const cached = useQuery({ ...cache.byNumbersQuery(profileId, numbers), enabled: numbers.length > 0 });
  const missing = useMemo(
    () => (cached.data ? numbers.filter((no) => !cached.data[no]).slice(0, 500) : []),
    [cached.data, numbers],
  );
  useQuery({
    queryKey: ['payments', profileId, 'cache-missing', ...missing],
    enabled: missing.length > 0,
    retry: false,
    staleTime: Infinity,
    queryFn: async () => {
      const r = await bridge['transactions.refresh']({ profileId, transactionNos: missing });
      // Offline or refused: the payments show without refunds (as the cache would), nothing is guessed.
      if (!r.ok || r.value.profileId !== profileId) return 0;
      const fresh = r.value.items.flatMap((i) => (i.ok ? [i.transaction] : []));
      await cache.store(profileId, fresh, r.value.fetchedAt);
      return fresh.length;
    },
  });
  return useMemo(
    () =>
      payments.map((p) => {
        const summary =
          p.state === 'succeeded' && p.transactionNo
            ? refundSummaryOf(p, cached.data?.[p.transactionNo])
            : undefined;
        return summary ? { ...p, refundSummary: summary } : p;
      }),
    [payments, cached.data],
  );
}
