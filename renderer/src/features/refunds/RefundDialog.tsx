import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { AppErrorShape } from '../../../../shared/domain/errors';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { errorOf, useBridge } from '../../lib/bridge';
import { Dialog } from '../../lib/ui/Dialog';
import { checkRefundAmount, defaultAmountText, remainingAfter } from './amount';
import { AmountStep } from './AmountStep';
import { ConfirmStep } from './ConfirmStep';
import { type Confirmations, confirmationPayload, type Draft, reasonProblem } from './draft';
import { useCheckAgain, useSubmitRefund } from './mutations';
import { describeIntent, describeSubmitError } from './outcome';
import { refundPreviewQuery } from './queries';
import {
  mergeRequirements,
  moneyModeShown,
  NO_REQUIREMENTS,
  predictRequirements,
  type Requirements,
  requirementsFromError,
} from './requirements';
import { ResultStep } from './ResultStep';
import { ApproversFact, RequestFactItems } from './approvals/RequestFacts';
import { useFormat } from '../preferences/use-prefs';

type Step = 'amount' | 'confirm' | 'result';

/**
 * The refund dialog: amount and reason → confirmation of exactly what will be sent → outcome in words.
 * Self-contained: give it a transaction number; it fetches a fresh preview from main when it opens.
 */
export function RefundDialog({
  profileId,
  transactionNo,
  onClose,
}: {
  /** The profile the dialog was opened for: every call of this dialog names it. */
  profileId: string;
  transactionNo: string;
  onClose(): void;
}) {
  const bridge = useBridge();
  const f = useFormat();
  const titleId = useId();
  const preview = useQuery(refundPreviewQuery(bridge, profileId, transactionNo));
  const submit = useSubmitRefund();
  const checkAgain = useCheckAgain();
  const [step, setStep] = useState<Step>('amount');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [confirmations, setConfirmations] = useState<Confirmations>({ overLimit: false, typedAmount: '' });
  const [asked, setAsked] = useState<Requirements>(NO_REQUIREMENTS);
  const [notice, setNotice] = useState<string>();
  const [result, setResult] = useState<{ intent: IntentView } | { error: AppErrorShape }>();
  // Synchronous guard: a double-click fires twice before React re-renders the disabled button.
  const inFlight = useRef(false);
  // Latest pushed version of each intent of this payment, so the result follows it live (accepted →
  // succeeded, outcome unknown → resolved) while the dialog stays open.
  const [live, setLive] = useState<Record<string, IntentView>>({});
  useEffect(
    () =>
      bridge.on['refunds.updated']((i: IntentView) => {
        if (i.transactionNo === transactionNo) setLive((prev) => ({ ...prev, [i.id]: i }));
      }),
    [bridge, transactionNo],
  );
  const sending = submit.isPending;
  const close = sending ? undefined : onClose;

  const p = preview.data;
  const tx = p?.transaction;
  const current: Draft | null =
    draft ??
    (p && tx
      ? { amountText: defaultAmountText(p.remainingMinor, tx.currency, f), reasonCode: '', reasonNote: '' }
      : null);
  const check =
    p && tx && current ? checkRefundAmount(current.amountText, tx.currency, p.remainingMinor, f) : undefined;
  const amountMinor = check?.ok ? check.amountMinor : 0;
  const predicted =
    p && tx
      ? predictRequirements({
          amountMinor,
          currency: tx.currency,
          moneyMode: moneyModeShown(p),
          todayTotalMinor: p.todayTotalMinor,
          guardrails: p.guardrails,
        })
      : NO_REQUIREMENTS;
  const requirements = mergeRequirements(predicted, asked);

  const toConfirm = () => {
    setShowErrors(true);
    if (!current || !check?.ok || reasonProblem(current)) {
      const id = !check?.ok
        ? 'rd-amount'
        : reasonProblem(current ?? { reasonCode: '', reasonNote: '' })?.field === 'note'
          ? 'rd-note'
          : 'rd-reason';
      document.getElementById(id)?.focus();
      return;
    }
    setStep('confirm');
  };

  const send = () => {
    if (inFlight.current || !current || !tx || !check?.ok) return;
    inFlight.current = true;
    setNotice(undefined);
    const confirmation = confirmationPayload(requirements, confirmations, tx.currency, f);
    submit.mutate(
      {
        transactionNo: tx.transactionNo,
        amountMinor: check.amountMinor,
        currency: tx.currency,
        reasonCode: current.reasonCode,
        reasonNote: current.reasonNote.trim(),
        confirmation,
        profileId,
        // Refused by main if the profile now points at another account than the one confirmed.
        ...(p ? { account: { baseUrl: p.baseUrl, merchantNo: p.merchantNo } } : {}),
      },
      {
        onSuccess: (intent) => {
          setResult({ intent });
          setStep('result');
        },
        onError: (e) => {
          const error = errorOf(e);
          const needed = requirementsFromError(error);
          if (needed) {
            // Main wants a confirmation: stay on this step and ask for it; nothing was sent.
            setAsked(mergeRequirements(asked, needed));
            setNotice(`${error.message} Give the confirmation below and submit again.`);
            return;
          }
          setResult({ error });
          setStep('result');
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  // The newest of: the submit answer, a pushed update, a Check again answer.
  const shownIntent =
    result && 'intent' in result
      ? [live[result.intent.id], checkAgain.data].reduce<IntentView>(
          (best, i) => (i && i.id === best.id && i.updatedAt >= best.updatedAt ? i : best),
          result.intent,
        )
      : undefined;

  let title = `Refund payment ${transactionNo}`;
  let body;
  if (preview.isPending) {
    body = (
      <p className="rd-step" role="status">
        Asking the payment service for this payment’s current status…
      </p>
    );
  } else if (preview.isError || !p || !tx || !current) {
    const e = errorOf(preview.error);
    body = (
      <div className="rd-step">
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load this payment: {e.message} Nothing was sent.
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
  } else if (step === 'amount') {
    body = (
      <AmountStep
        preview={p}
        draft={current}
        showErrors={showErrors}
        onChange={setDraft}
        onContinue={toConfirm}
        onCancel={onClose}
      />
    );
  } else if (step === 'confirm' && check?.ok) {
    title = 'Confirm the refund';
    body = (
      <ConfirmStep
        preview={p}
        amountMinor={check.amountMinor}
        reasonCode={current.reasonCode}
        reasonNote={current.reasonNote}
        remainingAfterMinor={remainingAfter(p.remainingMinor, check)}
        requirements={requirements}
        confirmations={confirmations}
        sending={sending}
        notice={notice}
        onConfirmations={setConfirmations}
        onBack={() => setStep('amount')}
        onSubmit={send}
      />
    );
  } else if (result) {
    title = shownIntent?.approval ? 'Refund request' : 'Refund result';
    const outcome = shownIntent
      ? describeIntent(shownIntent, f)
      : describeSubmitError('error' in result ? result.error : errorOf(undefined));
    const refusedForAmount = 'error' in result && typeof result.error.details?.remainingMinor === 'number';
    body = (
      <ResultStep
        outcome={outcome}
        intent={shownIntent}
        checking={checkAgain.isPending}
        checkError={checkAgain.isError ? errorOf(checkAgain.error).message : undefined}
        onCheckAgain={() => shownIntent && checkAgain.mutate({ profileId, id: shownIntent.id })}
        onBack={
          refusedForAmount
            ? () => {
                setResult(undefined);
                setStep('amount');
                void preview.refetch();
              }
            : undefined
        }
        onClose={onClose}
        facts={
          shownIntent?.approval && (
            <>
              <RequestFactItems request={shownIntent} f={f} withId={false} />
              {shownIntent.state === 'awaiting_approval' && (
                <ApproversFact request={shownIntent} profileId={profileId} />
              )}
            </>
          )
        }
      />
    );
  }

  return (
    <Dialog
      titleId={titleId}
      title={title}
      onClose={close}
      tone={p && moneyModeShown(p) === 'live' ? 'production' : undefined}
      testId="refund-dialog"
    >
      {body}
    </Dialog>
  );
}
