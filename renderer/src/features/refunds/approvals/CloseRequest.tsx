import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import { errorOf } from '../../../lib/bridge';
import type { Formatters } from '../../preferences/format';
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
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const close = useCloseRequest(how);
  const fieldId = useId();
  const headingId = useId();
  const hintId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const empty = comment.trim() === '';

  const done = () => {
    onDone();
    requestAnimationFrame(() => document.getElementById(closeRequestButtonId(how, request.id))?.focus());
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (empty) {
      field.current?.focus();
      return;
    }
    close.mutate({ profileId, id: request.id, comment: comment.trim() }, { onSuccess: done });
  };
  return (
    <section
      className="rd-confirm-box rd-close-panel"
      aria-labelledby={headingId}
      data-testid={`${how}-request`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !close.isPending) {
          e.stopPropagation();
          done();
        }
      }}
    >
      <h3 id={headingId}>
        {w.heading} {request.id}: {f.amountCode(request.amountMinor, request.currency)} for payment{' '}
        <span className="mono">{request.transactionNo}</span>
      </h3>
      {request.approval && (
        <p className="small">
          Requested by {requestedWords(request.approval, f)}. Nothing is sent; the request cannot be approved
          once it is {w.done}.
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <div className="rd-field">
          <label htmlFor={fieldId}>{w.label}</label>
          <textarea
            id={fieldId}
            ref={field}
            rows={2}
            maxLength={1000}
            value={comment}
            aria-invalid={tried && empty}
            aria-describedby={tried && empty ? hintId : undefined}
            onChange={(e) => setComment(e.target.value)}
          />
          {tried && empty && (
            <p id={hintId} className="rd-error">
              Say why (a comment is required).
            </p>
          )}
        </div>
        <div className="rd-close-form">
          <button type="submit" className="danger" disabled={close.isPending}>
            {close.isPending ? 'Saving…' : w.button}
          </button>
          <button type="button" onClick={done} disabled={close.isPending}>
            Back
          </button>
        </div>
      </form>
      {close.isError && (
        <p className="rd-error" role="alert">
          Not {w.done}: {errorOf(close.error).message}
        </p>
      )}
    </section>
  );
}
