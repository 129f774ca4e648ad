import { useTeamStatus } from './team';

/** In team mode, on every screen: who this desk acts as (the database login) and which desk it is. */
export function TeamIdentity() {
  const status = useTeamStatus();
  if (status?.mode !== 'team' || !status.login) return null;
  return (
    <span
      className="team-identity"
      data-testid="team-identity"
      title={`Team database ${status.address ?? ''} — every refund and approval is stamped with this login and desk`}
    >
      <span className="team-identity-label">Team</span> {status.login}
      {status.deskId && <span className="muted"> at {status.deskId}</span>}
    </span>
  );
}
