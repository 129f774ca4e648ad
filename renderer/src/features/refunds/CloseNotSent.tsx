import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { Formatters } from '../preferences/format';
import { closeButtonId } from './close-words';
import { useCloseNotSent } from './mutations';

const WORDS = 'NOT SENT';

/**
 * The way out of "unknown" for a refund the service never lists: a deliberate, typed action. Main
 * refuses it until the refund was checked enough times over enough time, asks the service once more
 * right before closing, and records who closed it with the evidence in the audit log.
 *
 * A panel above the list (not a form inside the row): it names the refund and payment being closed, and
 * its field and buttons never run past the table's edge or scroll the table sideways when focused.
 */
export function CloseNotSent({
  intent,
  profileId,
  f,
  onDone,
}: {
  intent: IntentView;
  /** The profile whose list shows the refund: main checks the refund belongs to it. */
  profileId: string;
  f: Formatters;
  onDone(): void;
}) {
  const [typed, setTyped] = useState('');
  const close = useCloseNotSent();
  const inputId = useId();
  const headingId = useId();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);

  const done = () => {
    onDone();
    // Back to the row's action, if it is still there (it goes once the refund is closed).
    requestAnimationFrame(() => document.getElementById(closeButtonId(intent.id))?.focus());
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    close.mutate({ profileId, id: intent.id, confirmation: typed }, { onSuccess: done });
  };
  return (
    <section
      className="rd-confirm-box rd-close-panel"
      aria-labelledby={headingId}
      data-testid="close-not-sent"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !close.isPending) {
          e.stopPropagation();
          done();
        }
      }}
    >
      <h3 id={headingId}>
        Close refund {intent.id} of payment <span className="mono">{intent.transactionNo}</span> as not sent
      </h3>
      <p className="small">
        {f.amountCode(intent.amountMinor, intent.currency)}, sent {f.dateTime(intent.createdAt)} by{' '}
        {intent.operator || 'an unnamed operator'} ({intent.profileName}).
        {intent.lastCheck
          ? ` Last checked ${f.dateTime(intent.lastCheck.at)}: not found at the service.`
          : ''}
      </p>
      <p className="small">
        Only if the service never received it: Refund Desk asks the service once more, and refuses if this
        refund appears there. The payment becomes refundable again; the audit log records that you closed it.
      </p>
      <form onSubmit={submit} className="rd-close-form">
        <label htmlFor={inputId}>Type {WORDS} to confirm</label>
        <input
          id={inputId}
          ref={field}
          autoComplete="off"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button
          type="submit"
          className="danger"
          disabled={close.isPending || typed.trim().toUpperCase() !== WORDS}
        >
          Close as not sent
        </button>
        <button type="button" onClick={done} disabled={close.isPending}>
          Cancel
        </button>
      </form>
      {close.isError && (
        <p className="rd-error" role="alert">
          Not closed: {close.error.message}
        </p>
      )}
    </section>
  );
}
