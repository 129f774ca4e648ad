import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { errorOf } from '../../../lib/bridge';

/**
 * The panel above the approvals list that closes something without sending it: a request or a batch,
 * rejected by a checker or cancelled by its requester. One shape for both so the required comment, the
 * focus (the comment field, or Back when no comment is asked), Escape and the database's refusal in its
 * own words behave the same everywhere.
 */
export function ClosePanel({
  testId,
  heading,
  facts,
  commentLabel,
  submitLabel,
  doneWord,
  pending,
  error,
  onSubmit,
  onDone,
}: {
  testId: string;
  heading: ReactNode;
  facts: ReactNode;
  /** Asks for a required comment when set; without it the panel only confirms. */
  commentLabel?: string;
  submitLabel: string;
  /** "rejected" / "cancelled": the refusal reads "Not rejected: …". */
  doneWord: string;
  pending: boolean;
  error: unknown;
  onSubmit(comment: string): void;
  onDone(): void;
}) {
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const fieldId = useId();
  const headingId = useId();
  const hintId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  const asks = commentLabel !== undefined;
  useEffect(() => (asks ? field.current : back.current)?.focus(), [asks]);
  const empty = comment.trim() === '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (asks) {
      setTried(true);
      if (empty) {
        field.current?.focus();
        return;
      }
    }
    onSubmit(comment.trim());
  };
  return (
    <section
      className="rd-confirm-box rd-close-panel"
      aria-labelledby={headingId}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !pending) {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <h3 id={headingId}>{heading}</h3>
      {facts}
      <form onSubmit={submit} noValidate>
        {asks && (
          <div className="rd-field">
            <label htmlFor={fieldId}>{commentLabel}</label>
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
          <button type="submit" className="danger" disabled={pending}>
            {pending ? 'Saving…' : submitLabel}
          </button>
          <button type="button" ref={back} onClick={onDone} disabled={pending}>
            Back
          </button>
        </div>
      </form>
      {error !== null && error !== undefined && (
        <p className="rd-error" role="alert">
          Not {doneWord}: {errorOf(error).message}
        </p>
      )}
    </section>
  );
}
