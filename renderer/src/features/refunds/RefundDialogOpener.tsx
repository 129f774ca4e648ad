import type { ReactNode } from 'react';
import { useRefundDialog } from './dialog-context';

/**
 * Hands the refund dialog's opener to a screen composed in App, where the hook cannot be called
 * because App itself renders RefundDialogHost: `<RefundDialogOpener>{(open) => <X onRefund={open} />}</RefundDialogOpener>`.
 */
export function RefundDialogOpener({ children }: { children: (open: (transactionNo: string) => void) => ReactNode }) {
  const { open } = useRefundDialog();
  return <>{children(open)}</>;
}
