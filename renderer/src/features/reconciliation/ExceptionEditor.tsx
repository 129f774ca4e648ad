import { useState } from 'react';
import {
  EXCEPTION_STATE_LABELS,
  EXCEPTION_STATES,
  hasLedgerSide,
  type ExceptionState,
  type ExceptionView,
} from '../../../../shared/recon/exceptions';
import { OUTCOME_LABELS } from '../../../../shared/recon/match';
import { useFormat } from '../preferences/use-prefs';
import type { useExceptions } from './use-exceptions';

const errorText = (e: unknown) => (e instanceof Error ? e.message : e ? String(e) : null);

/**
 * (Keyed by id and version by its list: a stored change starts it afresh.)
 * One exception worked: state (leaving "open" needs a note), owner, a note, and for a ledger row a
 * manual match with a service payment or refund and a reason. A signed run shows it read-only.
 */
export function ExceptionEditor({
  exception: e,
  signed,
  actions,
  onClose,
}: {
  exception: ExceptionView;
  signed: boolean;
  actions: Pick<ReturnType<typeof useExceptions>, 'update' | 'match'>;
  onClose: () => void;
}) {
  const f = useFormat();
  const [state, setState] = useState<ExceptionState>(e.state);
  const [owner, setOwner] = useState(e.owner ?? '');
  const [note, setNote] = useState('');
  const [matchKind, setMatchKind] = useState<'payment' | 'refund'>('payment');
  const [matchId, setMatchId] = useState('');
  const [reason, setReason] = useState('');
  const { update, match } = actions;
  const i = e.item;
  const save = () =>
    update.mutate({
      exceptionId: e.id,
      version: e.version,
      ...(state !== e.state ? { state } : {}),
      ...(owner.trim() !== (e.owner ?? '') ? { owner: owner.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    });
  const id = i.ledger?.transactionNo ?? i.service?.transactionNo ?? i.ledger?.reference ?? '—';
  return (
    <aside
      className="recon-detail recon-exception"
      aria-labelledby="recon-exception-title"
      data-testid="recon-exception"
    >
      <div className="recon-head">
        <h3 id="recon-exception-title">
          {i.line !== undefined ? `Line ${i.line}: ` : ''}
          {OUTCOME_LABELS[i.outcome]} · {id}
        </h3>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p>{i.detail}</p>
      <p className="muted small">
        {e.ageDays} day{e.ageDays === 1 ? '' : 's'} old, counted from the{' '}
        {e.ageFromWhat === 'ledger'
          ? 'ledger row’s date'
          : e.ageFromWhat === 'service'
            ? 'service’s date'
            : 'run’s day'}{' '}
        {e.ageFrom}.{e.carried ? ` Carried from run ${e.carried.runId}.` : ''}
      </p>
      {e.carried?.check && (
        <p
          className={e.carried.check.result === 'cleared' ? 'recon-banner' : 'recon-banner bad'}
          data-testid="recon-carry-check"
        >
          {e.carried.check.result === 'cleared'
            ? 'Cleared'
            : e.carried.check.result === 'still_open'
              ? 'Still open'
              : 'Not checked'}
          : {e.carried.check.why}.
        </p>
      )}
      {e.notes.length > 0 && (
        <ul className="recon-notes" aria-label="Notes" data-testid="recon-notes">
          {e.notes.map((n, k) => (
            <li key={k}>
              <span className="muted small">
                {f.dateTime(n.at)} · {n.by}
              </span>
              <br />
              {n.text}
            </li>
          ))}
        </ul>
      )}
      {signed ? (
        <p className="muted">The run is signed: this exception can no longer change.</p>
      ) : (
        <>
          <div className="recon-exception-form">
            <label>
              <span>State</span>
              <select
                aria-label="Set state"
                value={state}
                onChange={(ev) => setState(ev.target.value as ExceptionState)}
                disabled={Boolean(e.match)}
              >
                {EXCEPTION_STATES.map((s) => (
                  <option key={s} value={s}>
                    {EXCEPTION_STATE_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Owner</span>
              <input
                aria-label="Owner name"
                value={owner}
                maxLength={60}
                onChange={(ev) => setOwner(ev.target.value)}
              />
            </label>
            <label className="wide">
              <span>Note{state !== e.state && state !== 'open' ? ' (say why)' : ''}</span>
              <textarea
                aria-label="Note"
                rows={2}
                value={note}
                maxLength={2000}
                onChange={(ev) => setNote(ev.target.value)}
              />
            </label>
            <button type="button" className="button primary" onClick={save} disabled={update.isPending}>
              Save
            </button>
          </div>
          {update.error && (
            <p role="alert" className="recon-error">
              {errorText(update.error)}
            </p>
          )}
          {hasLedgerSide(i) && e.state !== 'resolved' && e.state !== 'written_off' && (
            <fieldset className="recon-fieldset recon-exception-form">
              <legend>Match by hand</legend>
              <label>
                <span>With a service</span>
                <select
                  aria-label="Match with"
                  value={matchKind}
                  onChange={(ev) => setMatchKind(ev.target.value as 'payment' | 'refund')}
                >
                  <option value="payment">payment</option>
                  <option value="refund">refund</option>
                </select>
              </label>
              <label>
                <span>{matchKind === 'payment' ? 'Transaction no.' : 'Refund transaction no.'}</span>
                <input
                  aria-label="Counterpart transaction no."
                  inputMode="numeric"
                  value={matchId}
                  onChange={(ev) => setMatchId(ev.target.value.trim())}
                />
              </label>
              <label className="wide">
                <span>Reason</span>
                <input
                  aria-label="Reason for the match"
                  value={reason}
                  maxLength={500}
                  onChange={(ev) => setReason(ev.target.value)}
                />
              </label>
              <button
                type="button"
                className="button"
                disabled={match.isPending || !matchId || !reason.trim()}
                onClick={() =>
                  match.mutate({
                    exceptionId: e.id,
                    version: e.version,
                    kind: matchKind,
                    id: matchId,
                    reason: reason.trim(),
                  })
                }
              >
                Match
              </button>
              {match.error && (
                <p role="alert" className="recon-error">
                  {errorText(match.error)}
                </p>
              )}
            </fieldset>
          )}
        </>
      )}
      {e.match && (
        <p data-testid="recon-match">
          Matched by hand with {e.match.kind} {e.match.id} (
          {f.money(e.match.amountMinor, e.match.currency as never)}) by {e.match.by}: {e.match.reason}
        </p>
      )}
    </aside>
  );
}
