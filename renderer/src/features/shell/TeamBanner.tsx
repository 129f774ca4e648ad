import { useFormat } from '../preferences/use-prefs';
import { useTeamStatus } from './team';

/**
 * Across the app while the team database makes this desk read-only: since when (in the person's zone),
 * what is refused and what still works. It goes by itself once main says the database is back.
 */
export function TeamBanner() {
  const status = useTeamStatus();
  const f = useFormat();
  const ro = status?.mode === 'team' ? status.readOnly : undefined;
  if (!ro) return null;
  return (
    <div className="team-banner" role="alert" data-testid="team-banner">
      <strong>Read-only — </strong>
      {ro.since ? (
        <>
          the team database cannot be reached since{' '}
          <time dateTime={ro.since} data-testid="team-banner-since">
            {f.dateTime(ro.since)}
          </time>
          . Refunds, approvals and rejections are refused; browse, search and export of the cached data still
          work. This clears by itself when the database is back.
        </>
      ) : (
        // Main's own words (schema versions, a database that could not be opened) say what still works.
        ro.reason
      )}
    </div>
  );
}
