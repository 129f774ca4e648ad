import { useQuery } from '@tanstack/react-query';
import { RECON_OUTCOMES } from '../../../../shared/recon/match';
import { unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { useListScope } from '../profiles/list-scope';
import { AllProfilesToggle, ProfileCell } from '../profiles/ProfileScope';
import { runsKeys } from './report-parts';

const STATES: Readonly<Record<string, string>> = {
  completed: 'Completed',
  cancelled: 'Cancelled',
  paused: 'Paused — open to resume',
  running: 'Running',
  draft: 'Being handed over',
};

/**
 * Earlier runs of the active profile (stored in main, so they survive restarts and belong to their
 * profile), or of every profile with "All profiles" and a Profile column: period, status, outcome counts
 * and whether cached data was used or the service was unreachable. Opening one shows its stored report
 * (main refuses another profile's run until that profile is the active one).
 */
export function RunsList({ onOpen }: { onOpen: (runId: string) => void }) {
  const bridge = useBridge();
  const f = useFormat();
  const listScope = useListScope();
  const { scope, allProfiles, profile, ready } = listScope;
  const runs = useQuery({
    queryKey: runsKeys.list(scope),
    queryFn: () => unwrap(bridge['reconciliation.list'](scope)),
    enabled: ready,
  });
  if (!runs.isSuccess) return null;
  const list = runs.data.runs.slice(0, 10);
  return (
    <section className="recon-card" aria-labelledby="recon-earlier">
      <h2 id="recon-earlier">
        Earlier runs of {allProfiles ? 'every profile' : (profile?.name ?? 'this profile')}
      </h2>
      <AllProfilesToggle state={listScope} />
      {list.length === 0 ? (
        <p className="muted small">No earlier runs.</p>
      ) : (
        <table className="recon-table recon-runs" data-testid="recon-runs">
          <thead>
            <tr>
              <th>Ledger</th>
              {allProfiles && <th>Profile</th>}
              <th>Run</th>
              <th>Period</th>
              <th>Status</th>
              <th>Outcomes</th>
              <th>Data</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => {
              const counts = r.counts;
              const exceptions = counts
                ? RECON_OUTCOMES.filter((o) => o !== 'matched').reduce((a, o) => a + (counts[o] ?? 0), 0)
                : 0;
              const p = r.options.period;
              return (
                <tr key={r.runId} data-run={r.runId}>
                  <td>
                    <button type="button" className="link" onClick={() => onOpen(r.runId)}>
                      {r.label}
                    </button>
                  </td>
                  {allProfiles && <ProfileCell name={r.profileName} />}
                  <td>
                    {f.dateTime(r.createdAt)} ({f.zoneLabel})
                  </td>
                  <td>
                    {p
                      ? `${p.from} – ${p.to} (${r.options.days === 'service' ? 'UTC+8' : r.options.timeZone})`
                      : '—'}
                  </td>
                  <td>{STATES[r.progress.state] ?? r.progress.state}</td>
                  <td>
                    {counts
                      ? `${f.count(counts.matched ?? 0)} matched · ${f.count(exceptions)} exceptions${counts.unreadable ? ` (${f.count(counts.unreadable)} unreadable)` : ''}${counts.not_checked ? ` · ${f.count(counts.not_checked)} not checked` : ''}`
                      : `${f.count(r.dataRows)} rows`}
                  </td>
                  <td>
                    {r.offline ? 'offline' : r.usedCache ? 'includes cached data' : counts ? 'live' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
