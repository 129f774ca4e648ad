import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { BatchStatus } from '../../../../../shared/batch/execution';
import { errorOf } from '../../../lib/bridge';
import type { Formatters } from '../../preferences/format';
import { TotalsList } from '../batch/totals';
import { useBatchDecision } from './mutations';
import { closeBatchButtonId } from './words';

/**
 * Rejecting a batch awaiting approval (a checker, with the required comment) or cancelling it (its
 * starter). Nothing is sent either way; a panel above the list, as for a single request, naming the
 * batch, with the database's refusal (your own batch, expired, no longer waiting) in its words.
 */
export function CloseBatch({
  how,
  batch,
  profileId,
  f,
  onDone,
}: {
  how: 'reject' | 'cancel';
  batch: BatchStatus;
  profileId: string;
  f: Formatters;
  onDone(): void;
}) {
  const decision = useBatchDecision();
  const m = how === 'reject' ? decision.reject : decision.cancel;
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const fieldId = useId();
  const headingId = useId();
  const hintId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => (how === 'reject' ? field.current : first.current)?.focus(), [how]);
  const empty = comment.trim() === '';

  const done = () => {
    onDone();
    requestAnimationFrame(() => document.getElementById(closeBatchButtonId(how, batch.batchId))?.focus());
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (how === 'cancel') {
      decision.cancel.mutate({ profileId, batchId: batch.batchId }, { onSuccess: done });
      return;
    }
    setTried(true);
    if (empty) {
      field.current?.focus();
      return;
    }
    decision.reject.mutate(
      { profileId, batchId: batch.batchId, comment: comment.trim() },
      { onSuccess: done },
    );
  };
  return (
    <section
      className="rd-confirm-box rd-close-panel"
      aria-labelledby={headingId}
      data-testid={`${how}-batch`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !m.isPending) {
          e.stopPropagation();
          done();
        }
      }}
    >
      <h3 id={headingId}>
        {how === 'reject' ? 'Reject batch' : 'Cancel your batch'} {batch.batchId}: {batch.fileName}
      </h3>
      <p className="small">
        {f.count(batch.toSend)} {batch.toSend === 1 ? 'row' : 'rows'}, <TotalsList totals={batch.totals} />;
        started by {batch.approval?.startedBy ?? batch.operator}, {f.dateTime(batch.createdAt)}. Nothing is
        sent; once {how === 'reject' ? 'rejected' : 'cancelled'} it cannot be approved, and its rows end{' '}
        {how === 'reject' ? 'declined with your reason' : 'cancelled'}.
      </p>
      <form onSubmit={submit} noValidate>
        {how === 'reject' && (
          <div className="rd-field">
            <label htmlFor={fieldId}>Why is it rejected? (its starter and the audit log see this)</label>
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
        )}
        <div className="rd-close-form">
          <button type="submit" className="danger" disabled={m.isPending}>
            {m.isPending ? 'Saving…' : how === 'reject' ? 'Reject batch' : 'Cancel batch'}
          </button>
          <button type="button" ref={first} onClick={done} disabled={m.isPending}>
            Back
          </button>
        </div>
      </form>
      {m.isError && (
        <p className="rd-error" role="alert">
          Not {how === 'reject' ? 'rejected' : 'cancelled'}: {errorOf(m.error).message}
        </p>
      )}
    </section>
  );
}
