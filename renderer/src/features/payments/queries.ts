import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { Bridge } from '../../../../shared/ipc/contract';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
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
