import { createContext, useContext } from 'react';

/** Opens the refund dialog for a payment from any screen (transactions detail, Refunds view…). */
export interface RefundDialogApi {
  open(transactionNo: string): void;
  /**
   * Why no refund can be made on this desk now (team database unreachable, schema out of step), in
   * words: every Refund… button is disabled with it. Main refuses all the same.
   */
  blocked?: string;
}

export const RefundDialogContext = createContext<RefundDialogApi | null>(null);

/** The refund dialog opener; RefundDialogHost must be mounted above the caller (App does it). */
export function useRefundDialog(): RefundDialogApi {
  const api = useContext(RefundDialogContext);
  if (!api) throw new Error('RefundDialogHost is not mounted above this component.');
  return api;
}
