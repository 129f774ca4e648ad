import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import type { Formatters } from '../../preferences/format';
import { ClosePanel } from './ClosePanel';
import { useCloseRequest } from './mutations';
import { closeRequestButtonId, requestedWords } from './words';

const WORDS = {
  reject: {
    heading: 'Reject request',
    label: 'Why is it rejected? (the requester and the audit log see this)',
    button: 'Reject request',
    done: 'rejected',
  },
  cancel: {
    heading: 'Cancel your request',
    label: 'Why is it cancelled? (kept in the audit log)',
    button: 'Cancel request',
    done: 'cancelled',
  },
} as const;

/**
 * Rejecting (a checker) or cancelling (its requester) a request: a comment is required, nothing is sent.
 * A panel above the list, as "Close as not sent" is: it names the request, and the database's refusal
 * (already approved, expired, not yours) is shown in its words.
 */
export function CloseRequest({
  how,
  request,
  profileId,
  f,
  onDone,
}: {
  how: 'reject' | 'cancel';
  request: IntentView;
  profileId: string;
  f: Formatters;
  onDone(): void;
}) {
  const w = WORDS[how];
  const close = useCloseRequest(how);
  const done = () => {
    onDone();
    requestAnimationFrame(() => document.getElementById(closeRequestButtonId(how, request.id))?.focus());
  };
  return (
    <ClosePanel
      testId={`${how}-request`}
      heading={
        <>
          {w.heading} {request.id}: {f.amountCode(request.amountMinor, request.currency)} for payment{' '}
          <span className="mono">{request.transactionNo}</span>
        </>
      }
      facts={
        request.approval && (
          <p className="small">
            Requested by {requestedWords(request.approval, f)}. Nothing is sent; the request cannot be
            approved once it is {w.done}.
          </p>
        )
      }
      commentLabel={w.label}
      submitLabel={w.button}
      doneWord={w.done}
      pending={close.isPending}
      error={close.isError ? close.error : undefined}
      onSubmit={(comment) => close.mutate({ profileId, id: request.id, comment }, { onSuccess: done })}
      onDone={done}
    />
  );
}
