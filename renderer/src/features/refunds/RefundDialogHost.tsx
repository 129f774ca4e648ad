import './refunds.css';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useActiveProfile } from '../profiles/queries';
import { useTeamReadOnly } from '../shell/team';
import { RefundDialogContext } from './dialog-context';
import { useRefundEvents } from './queries';

// The dialog (its steps, requirements, outcome words) loads when first opened: a start shows no dialog,
// and its code is not fetched and compiled before the first screen (issue 30).
const RefundDialog = lazy(() => import('./RefundDialog').then((m) => ({ default: m.RefundDialog })));

/**
 * Mounted once in App: provides useRefundDialog() to every screen, renders the one refund dialog, and
 * keeps the refunds list live from `refunds.updated` pushes.
 */
export function RefundDialogHost({ children }: { children: ReactNode }) {
  // The profile is captured when the dialog opens: every call of that dialog is for that profile.
  const [target, setTarget] = useState<{ profileId: string; transactionNo: string } | null>(null);
  // A new key per opening, so a reopened dialog never shows the previous attempt's state.
  const [opening, setOpening] = useState(0);
  const { profile } = useActiveProfile();
  const activeId = profile?.id;
  useRefundEvents();
  const blocked = useTeamReadOnly();
  const api = useMemo(
    () => ({
      open: (no: string) => {
        if (!activeId) return;
        setOpening((n) => n + 1);
        setTarget({ profileId: activeId, transactionNo: no });
      },
      ...(blocked ? { blocked } : {}),
    }),
    [activeId, blocked],
  );
  // Another profile became active: this dialog's merchant is no longer the one on screen, so it is not
  // shown (and its state is dropped with it).
  const shown = target && target.profileId === activeId ? target : null;
  return (
    <RefundDialogContext.Provider value={api}>
      {children}
      {shown !== null && (
        <Suspense fallback={null}>
          <RefundDialog
            key={opening}
            profileId={shown.profileId}
            transactionNo={shown.transactionNo}
            onClose={() => setTarget(null)}
          />
        </Suspense>
      )}
    </RefundDialogContext.Provider>
  );
}
