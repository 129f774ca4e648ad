import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { AppErrorShape } from '../../../../shared/domain/errors';
import type { Input } from '../../../../shared/ipc/contract';
import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import { unwrap, useBridge } from '../../lib/bridge';
import { useRememberPayment } from './queries';

export function useRegisterCustomer() {
  const bridge = useBridge();
  const remember = useRememberPayment();
  return useMutation({
    mutationFn: (input: Input<'customers.register'>) => unwrap(bridge['customers.register'](input)),
    onSuccess: (c) => remember.customer(c),
  });
}

export function useCreateCheckout() {
  const bridge = useBridge();
  const remember = useRememberPayment();
  return useMutation({
    mutationFn: (input: Input<'payments.createCheckout'>) => unwrap(bridge['payments.createCheckout'](input)),
    onSuccess: (p) => remember.payment(p),
  });
}

export function useChargeMethod() {
  const bridge = useBridge();
  const remember = useRememberPayment();
  return useMutation({
    mutationFn: (input: Input<'payments.chargeMethod'>) => unwrap(bridge['payments.chargeMethod'](input)),
    onSuccess: (p) => remember.payment(p),
  });
}

export function useCheckPayment() {
  const bridge = useBridge();
  const remember = useRememberPayment();
  return useMutation({
    mutationFn: (input: Input<'payments.checkAgain'>) => unwrap(bridge['payments.checkAgain'](input)),
    onSuccess: (p) => remember.payment(p),
  });
}

export function useOpenPage() {
  const bridge = useBridge();
  return useMutation({
    mutationFn: (input: Input<'payments.openPage'>) => unwrap(bridge['payments.openPage'](input)),
  });
}

/**
 * Card capture, deliberately NOT a react-query mutation: a mutation keeps its variables (the card) in
 * the query client's cache. Here the card is handed to the bridge and the caller drops it at once; only
 * the answer (last four digits at most) is kept.
 */
export function useCaptureCard() {
  const bridge = useBridge();
  const remember = useRememberPayment();
  const inFlight = useRef(false);
  const [state, setState] = useState<{ pending: boolean; error?: AppErrorShape }>({ pending: false });
  const capture = useCallback(
    async (
      input: Input<'payments.captureCard'>,
      on: { answered: (p: PaymentView) => void; failed: (e: AppErrorShape) => void },
    ) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setState({ pending: true });
      try {
        const r = await bridge['payments.captureCard'](input);
        if (r.ok) {
          remember.payment(r.value);
          setState({ pending: false });
          on.answered(r.value);
        } else {
          setState({ pending: false, error: r.error });
          on.failed(r.error);
        }
      } finally {
        inFlight.current = false;
      }
    },
    [bridge, remember],
  );
  return { ...state, capture };
}
