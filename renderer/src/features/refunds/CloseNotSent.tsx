import { type FormEvent, useId, useState } from 'react';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { useCloseNotSent } from './mutations';

const WORDS = 'NOT SENT';

/**
 * The way out of "unknown" for a refund the service never lists: a deliberate, typed action. Main
 * refuses it until the refund was checked enough times over enough time, asks the service once more
 * right before closing, and records who closed it with the evidence in the audit log.
 */
export function CloseNotSent({ intent, profileId }: { intent: IntentView; profileId: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const close = useCloseNotSent();
  const inputId = useId();
  if (intent.state !== 'outcome_unknown' || intent.lastCheck?.found) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    close.mutate({ profileId, id: intent.id, confirmation: typed });
  };
  if (!open)
    return (
      <button type="button" className="link" onClick={() => setOpen(true)}>
        Close as not sent…
      </button>
    );
  return (
    <form onSubmit={submit} className="rd-confirm-box" aria-label={`Close refund ${intent.id} as not sent`}>
      <p className="small">
        Only if the service never received it: Refund Desk asks the service once more, and refuses if refund{' '}
        {intent.id} appears there. The payment becomes refundable again; the audit log records that you closed
        it.
      </p>
      <label htmlFor={inputId}>Type {WORDS} to confirm</label>
      <input id={inputId} autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <button
        type="submit"
        className="danger"
        disabled={close.isPending || typed.trim().toUpperCase() !== WORDS}
      >
        Close as not sent
      </button>
      <button type="button" onClick={() => setOpen(false)} disabled={close.isPending}>
        Cancel
      </button>
      {close.isError && (
        <p className="rd-error" role="alert">
          Not closed: {close.error.message}
        </p>
      )}
    </form>
  );
}
