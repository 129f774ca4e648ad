import type { RecordedEnvironment } from '../../../../shared/domain/profile';
import { environmentLabel } from '../../../../shared/domain/labels';
import type { ListScopeState } from './list-scope';

/** The "All profiles" choice of a list, naming the profile shown while it is off. */
export function AllProfilesToggle({ state }: { state: ListScopeState }) {
  const { profile, allProfiles, setAllProfiles } = state;
  return (
    <label>
      <input
        type="checkbox"
        checked={allProfiles}
        disabled={!profile}
        onChange={(e) => setAllProfiles(e.target.checked)}
      />{' '}
      All profiles{profile && !allProfiles ? ` (showing ${profile.name})` : ''}
    </label>
  );
}

/** The Profile column's cell: whose record a row is, and that profile's environment (live money stands out). */
export function ProfileCell({ name, environment }: { name: string; environment?: RecordedEnvironment }) {
  return (
    <td data-testid="profile-cell">
      {name}
      {environment !== undefined && (
        <div className={environment === 'production' ? 'small rd-prod-text' : 'small muted'}>
          {environmentLabel(environment)}
        </div>
      )}
    </td>
  );
}
