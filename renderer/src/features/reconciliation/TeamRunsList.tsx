import { useQuery } from '@tanstack/react-query';
import { unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { teamRunsKeys } from './report-parts';

/**
 * Team mode: the runs awaiting a controller's sign-off for this profile's account, whichever desk ran
 * them (main lists those of the account only). Opening one shows it like a run of this desk, read from
 * the copy its desk published. On a single desk there are none and nothing is shown.
 */
export function TeamRunsList({ profileId, onOpen }: { profileId: string; onOpen: (runId: string) => void }) {
  const bridge = useBridge();
  const f = useFormat();
  const runs = useQuery({
    queryKey: teamRunsKeys.list(profileId),
    queryFn: () => unwrap(bridge['reconciliation.awaitingSignOff']({ profileId })),
  });
  if (runs.isError)
    return (
      <p role="alert" className="recon-error">
        The runs awaiting sign-off could not be read from the team database: {runs.error.message}
      </p>
    );
  const list = runs.data?.runs ?? [];
  if (list.length === 0) return null;
  return (
    <section className="recon-card" aria-labelledby="recon-awaiting">
      <h2 id="recon-awaiting">Awaiting sign-off</h2>
      <p className="muted small">
        Runs of this account in the team database that nobody has signed yet, from every desk.
      </p>
      <table className="recon-table recon-runs" data-testid="recon-awaiting">
        <thead>
          <tr>
            <th>Ledger</th>
            <th>Period</th>
            <th>Run by</th>
            <th>Published</th>
            <th className="num">Exceptions</th>
          </tr>
        </thead>
        <tbody>
          {list.map((r) => (
            <tr key={r.runId} data-run={r.runId}>
              <td>
                <button type="button" className="link" onClick={() => onOpen(r.runId)}>
                  {r.label}
                </button>
              </td>
              <td>{r.period ? `${r.period.from} – ${r.period.to}` : '—'}</td>
              <td>
                {r.local ? 'this desk' : `${r.publishedBy} at ${r.publishedDesk}`} ({r.profileName})
              </td>
              <td>
                {f.dateTime(r.publishedAt)} ({f.zoneLabel})
              </td>
              <td className="num">{f.count(r.exceptionItems)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
