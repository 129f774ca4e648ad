import './refunds.css';
import { type ReactNode, useMemo, useState } from 'react';
import { RefundDialogContext } from './dialog-context';
import { RefundDialog } from './RefundDialog';
import { useRefundEvents } from './queries';

/**
 * Mounted once in App: provides useRefundDialog() to every screen, renders the one refund dialog, and
 * keeps the refunds list live from `refunds.updated` pushes.
 */
export function RefundDialogHost({ children }: { children: ReactNode }) {
  const [transactionNo, setTransactionNo] = useState<string | null>(null);
  // A new key per opening, so a reopened dialog never shows the previous attempt's state.
  const [opening, setOpening] = useState(0);
  useRefundEvents();
  const api = useMemo(
    () => ({
      open: (no: string) => {
        setOpening((n) => n + 1);
        setTransactionNo(no);
      },
    }),
    [],
  );
  return (
    <RefundDialogContext.Provider value={api}>
      {children}
      {transactionNo !== null && (
        <RefundDialog key={opening} transactionNo={transactionNo} onClose={() => setTransactionNo(null)} />
      )}
    </RefundDialogContext.Provider>
  );
}
