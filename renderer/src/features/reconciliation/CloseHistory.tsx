import { useQuery } from '@tanstack/react-query';
import { EXCEPTION_STATE_LABELS } from '../../../../shared/recon/exceptions';
import { unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { auditKeys } from './use-exceptions';

const ACTIONS: Readonly<Record<string, string>> = {
  update: 'Changed',
  match: 'Matched by hand',
  carry: 'Carried forward',
  carry_check: 'Re-checked',
  sign_off: 'Signed the run',
};

/**
 * The run's close history as stored (main's audit, append-only in the team database): every change of
 * an exception and the sign-off, with the person and — in team mode — the login and desk the database
 * stamped, so the controller sees who worked what before signing.
 */
export function CloseHistory({ profileId, runId }: { profileId: string; runId: string }) {
  const bridge = useBridge();
  const f = useFormat();
  const audit = useQuery({
    queryKey: auditKeys.run(profileId, runId),
    queryFn: () => unwrap(bridge['reconciliation.audit']({ profileId, runId })),
  });
  if (audit.isError)
    return (
      <p role="alert" className="recon-error">
        The history of this run could not be read: {audit.error.message}
      </p>
    );
  const entries = audit.data?.entries ?? [];
  if (entries.length === 0) return null;
  return (
    <section className="recon-card" aria-labelledby="recon-history">
      <h2 id="recon-history">History</h2>
      <ol className="recon-history" data-testid="recon-history">
        {entries.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <span className="muted small">
              {f.dateTime(e.at)} ({f.zoneLabel})
            </span>{' '}
            <strong>{e.by}</strong>
            {e.login ? ` (login ${e.login}${e.desk ? ` at ${e.desk}` : ''})` : ''} ·{' '}
            {ACTIONS[e.action] ?? e.action}
            {e.exceptionId ? ` ${e.exceptionId}` : ''}
            {e.from && e.to && e.from !== e.to
              ? `: ${EXCEPTION_STATE_LABELS[e.from]} → ${EXCEPTION_STATE_LABELS[e.to]}`
              : ''}
            {e.note ? ` — “${e.note}”` : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}
