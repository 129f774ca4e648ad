import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useFormat } from '../preferences/use-prefs';
import { refreshHealth } from './queries';
import { useTeamStatus } from './team';

/**
 * Across the app while the team database makes this desk read-only: since when (in the person's zone),
 * what is refused and what still works. It goes by itself once main says the database is back.
 */
export function TeamBanner() {
  const status = useTeamStatus();
  const f = useFormat();
  const ro = status?.mode === 'team' ? status.readOnly : undefined;
  const client = useQueryClient();
  const isReadOnly = ro !== undefined;
  // The header's health names the team database too: asked again as soon as this changes, not at its
  // next 15-second poll, so the two never disagree for long.
  const was = useRef(isReadOnly);
  useEffect(() => {
    if (was.current === isReadOnly) return;
    was.current = isReadOnly;
    void refreshHealth(client);
  }, [client, isReadOnly]);
  if (!ro) return null;
  return (
    <div className="team-banner" role="alert" data-testid="team-banner">
      <strong>Read-only — </strong>
      {ro.since ? (
        <>
          the team database cannot be reached since{' '}
          <time dateTime={ro.since} data-testid="team-banner-since">
            {f.soon(ro.since)}
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
