import { useState } from 'react';
import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { useFormat } from '../preferences/use-prefs';
import type { useExceptions } from './use-exceptions';

/** The number a person knows an exception by. */
const key = (i: ReconItem | undefined) =>
  i?.ledger?.transactionNo ?? i?.service?.transactionNo ?? i?.ledger?.reference;

/**
 * Sign-off: a controller signs the run with a comment. Exceptions still open are listed and must be
 * acknowledged as open in the sign-off; once signed the run cannot change, and its exports carry the
 * signature and the content hash (computed again by main each time: "intact" when it is the signed one).
 */
export function SignOffPanel({
  data,
  cancelled,
}: {
  data: ReturnType<typeof useExceptions>;
  cancelled: boolean;
}) {
  const f = useFormat();
  const [comment, setComment] = useState('');
  const [ack, setAck] = useState(false);
  const list = data.list.data;
  if (!list) return null;
  const s = list.signOff;
  if (s)
    return (
      <section className="recon-card" aria-labelledby="recon-signoff" data-testid="recon-signoff">
        <h2 id="recon-signoff">Signed</h2>
        <p>
          Signed by <strong>{s.by}</strong> on {f.dateTime(s.at)} ({f.zoneLabel}): {s.comment}
        </p>
        <p className="muted small">
          {s.openAtSignOff.length === 0
            ? 'No exception was open when it was signed.'
            : `${f.count(s.openAtSignOff.length)} exception${s.openAtSignOff.length === 1 ? ' was' : 's were'} open when it was signed, and listed as open.`}{' '}
          The run can no longer change.
        </p>
        <p className="small">
          Content hash (SHA-256): <code data-testid="recon-hash">{list.contentHash ?? s.contentHash}</code>{' '}
          <span className={list.intact ? 'muted' : 'recon-error'} data-testid="recon-hash-state">
            {list.intact ? '— the run is as it was signed.' : '— the run no longer matches what was signed.'}
          </span>
        </p>
      </section>
    );
  const open = list.outstanding;
  const ids = new Map(list.exceptions.map((e) => [e.id, e]));
  const errorText = data.signOff.error instanceof Error ? data.signOff.error.message : null;
  return (
    <section className="recon-card" aria-labelledby="recon-signoff" data-testid="recon-signoff">
      <h2 id="recon-signoff">Sign off</h2>
      {cancelled ? (
        <p className="muted">
          This run was cancelled before it checked everything: re-check it, then sign the complete run.
        </p>
      ) : (
        <>
          {open.length > 0 && (
            <>
              <p>
                {f.count(open.length)} exception{open.length === 1 ? ' is' : 's are'} still open. They are
                signed as open:
              </p>
              <ul
                className="recon-open-list"
                data-testid="recon-signoff-open"
                // It scrolls when long: reachable and read by keyboard too (axe scrollable-region-focusable).
                tabIndex={0}
                aria-label="Exceptions signed as open"
              >
                {open.slice(0, 50).map((id) => {
                  const e = ids.get(id);
                  const i = e?.item;
                  return (
                    <li key={id}>
                      {e?.carried ? 'Carried' : i?.line !== undefined ? `Line ${i.line}` : 'Service'} ·{' '}
                      {i ? OUTCOME_LABELS[i.outcome] : id}
                      {key(i) ? ` · ${key(i)}` : ''}
                      {e?.state === 'explained' ? ' · explained' : ''}
                    </li>
                  );
                })}
                {open.length > 50 && <li>… and {f.count(open.length - 50)} more</li>}
              </ul>
              <label className="inline">
                <input type="checkbox" checked={ack} onChange={(e) => setAck(e.target.checked)} />
                <span>Sign with these {f.count(open.length)} exceptions listed as open</span>
              </label>
            </>
          )}
          <label className="recon-signoff-comment">
            <span>Comment</span>
            <textarea
              aria-label="Sign-off comment"
              rows={2}
              maxLength={2000}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
          </label>
          <button
            type="button"
            className="button primary"
            disabled={data.signOff.isPending || !comment.trim() || (open.length > 0 && !ack)}
            onClick={() => data.signOff.mutate({ comment: comment.trim(), open })}
          >
            Sign the run
          </button>
          {errorText && (
            <p role="alert" className="recon-error">
              {errorText}
            </p>
          )}
        </>
      )}
    </section>
  );
}
