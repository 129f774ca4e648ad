import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { AppErrorShape } from '../../../../../shared/domain/errors';
import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import { errorOf, useBridge } from '../../../lib/bridge';
import { Dialog } from '../../../lib/ui/Dialog';
import { useFormat } from '../../preferences/use-prefs';
import { ConfirmStep } from '../ConfirmStep';
import { type Confirmations, confirmationPayload } from '../draft';
import { useCheckAgain } from '../mutations';
import { describeIntent } from '../outcome';
import { refundPreviewQuery } from '../queries';
import {
  mergeRequirements,
  moneyModeShown,
  NO_REQUIREMENTS,
  predictRequirements,
  type Requirements,
  requirementsFromError,
} from '../requirements';
import { ResultStep } from '../ResultStep';
import { useApproveAndSend } from './mutations';
import { RequestFactItems } from './RequestFacts';
import { describeApprovalError, todayWithoutRequest } from './words';

/**
 * Approve another person's request and send it — through the refund's own confirm step: a fresh look at
 * the payment, exactly what will be sent (the request's amount, reason and payment, which the approver
 * cannot change), the same confirmations (live money: the amount typed again), then the outcome in words,
 * followed live. Main and the database decide; a refusal is shown in their words.
 */
export function ApproveDialog({
  profileId,
  request,
  onClose,
}: {
  /** The approver's profile (the request's account): every call names it. */
  profileId: string;
  request: IntentView;
  onClose(): void;
}) {
  const bridge = useBridge();
  const f = useFormat();
  const titleId = useId();
  const preview = useQuery(refundPreviewQuery(bridge, profileId, request.transactionNo));
  const approve = useApproveAndSend();
  const checkAgain = useCheckAgain();
  const [confirmations, setConfirmations] = useState<Confirmations>({ overLimit: false, typedAmount: '' });
  const [asked, setAsked] = useState<Requirements>(NO_REQUIREMENTS);
  const [notice, setNotice] = useState<string>();
  const [result, setResult] = useState<{ intent: IntentView } | { error: AppErrorShape }>();
  // Synchronous guard: a double-click fires twice before React re-renders the disabled button.
  const inFlight = useRef(false);
  // The refund this approval sent, followed live (sending → accepted → succeeded) while the dialog is open.
  const [live, setLive] = useState<IntentView>();
  useEffect(
    () =>
      bridge.on['refunds.updated']((i: IntentView) => {
        if (i.id === request.id) setLive((prev) => (prev && prev.updatedAt > i.updatedAt ? prev : i));
      }),
    [bridge, request.id],
  );
  const sending = approve.isPending;
  const close = sending ? undefined : onClose;
  const p = preview.data;
  const currency = request.currency;

  const predicted = p
    ? predictRequirements({
        amountMinor: request.amountMinor,
        currency,
        moneyMode: moneyModeShown(p),
        // The day of the preview's answer (main's clock when the figures were taken).
        todayTotalMinor: todayWithoutRequest(p.todayTotalMinor, request, Date.parse(p.fetchedAt)),
        guardrails: p.guardrails,
      })
    : NO_REQUIREMENTS;
  const requirements = mergeRequirements(predicted, asked);

  const send = () => {
    if (inFlight.current || !p) return;
    inFlight.current = true;
    setNotice(undefined);
    approve.mutate(
      {
        profileId,
        id: request.id,
        confirmation: confirmationPayload(requirements, confirmations, currency, f),
        // Refused by main if the profile now points at another account than the one confirmed.
        account: { baseUrl: p.baseUrl, merchantNo: p.merchantNo },
      },
      {
        onSuccess: (intent) => setResult({ intent }),
        onError: (e) => {
          const error = errorOf(e);
          const needed = requirementsFromError(error);
          if (needed) {
            // Main wants a confirmation: stay on this step and ask for it; nothing was sent.
            setAsked(mergeRequirements(asked, needed));
            setNotice(`${error.message} Give the confirmation below and approve again.`);
            return;
          }
          setResult({ error });
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  // The newest of: the answer, a pushed update, a Check again answer (an outcome that became unknown).
  const shown =
    result && 'intent' in result
      ? [live, checkAgain.data].reduce<IntentView>(
          (best, i) => (i && i.id === best.id && i.updatedAt >= best.updatedAt ? i : best),
          result.intent,
        )
      : undefined;
  let title = `Approve request ${request.id}`;
  let body;
  if (result) {
    title = 'Approval result';
    body = (
      <ResultStep
        outcome={
          shown
            ? describeIntent(shown, f)
            : describeApprovalError('error' in result ? result.error : errorOf(undefined))
        }
        intent={shown}
        checking={checkAgain.isPending}
        checkError={checkAgain.isError ? errorOf(checkAgain.error).message : undefined}
        onCheckAgain={() => shown && checkAgain.mutate({ profileId, id: shown.id })}
        onClose={onClose}
        facts={shown && <RequestFactItems request={shown} f={f} withId={false} />}
      />
    );
  } else if (preview.isPending) {
    body = (
      <p className="rd-step" role="status">
        Asking the payment service for this payment’s current status…
      </p>
    );
  } else if (preview.isError || !p) {
    body = (
      <div className="rd-step">
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load this payment: {errorOf(preview.error).message} Nothing was sent.
        </p>
        <footer className="rd-actions">
          <button type="button" onClick={() => void preview.refetch()}>
            Try again
          </button>
          <button type="button" className="primary" onClick={onClose}>
            Close
          </button>
        </footer>
      </div>
    );
  } else {
    title = 'Approve and send';
    body = (
      <ConfirmStep
        preview={p}
        amountMinor={request.amountMinor}
        reasonCode={request.reasonCode}
        reasonNote={request.reasonNote}
        // The request already counts against what remains: approving it leaves what the preview says.
        remainingAfterMinor={Math.max(0, p.remainingMinor)}
        requirements={requirements}
        confirmations={confirmations}
        sending={sending}
        notice={notice}
        onConfirmations={setConfirmations}
        onBack={onClose}
        backLabel="Cancel"
        onSubmit={send}
        action={{
          lead: `Refund Desk will approve ${request.approval ? `${request.approval.requestedBy}’s request` : 'this request'} and send this refund — the amount as requested (an approver cannot change it):`,
          name: 'Approve and send',
          verb: 'Approve and send',
          facts: <RequestFactItems request={request} f={f} />,
        }}
      />
    );
  }

  return (
    <Dialog
      titleId={titleId}
      title={title}
      onClose={close}
      tone={p && moneyModeShown(p) === 'live' ? 'production' : undefined}
      testId="approve-dialog"
    >
      {body}
    </Dialog>
  );
}
