import { useId } from 'react';
import { profileMoneyMode } from '../profiles/money-mode';
import { MoneyModeBadge } from '../profiles/MoneyModeBadge';
import { useActiveProfile } from '../profiles/queries';
import { useActivateProfile } from '../settings/mutations';

/**
 * Which merchant every screen is showing, on every screen: the active profile's name, a badge for
 * whether money is real (from where its calls go, not only the label), and a switcher.
 */
export function ProfileSwitcher() {
  const { profile, profiles } = useActiveProfile();
  const activate = useActivateProfile();
  const selectId = useId();
  if (!profile)
    return (
      <span className="profile-switcher muted" data-testid="active-profile">
        No profile — add one in Settings
      </span>
    );
  const mode = profileMoneyMode(profile);
  return (
    <div className="profile-switcher" data-testid="active-profile" data-money-mode={mode}>
      <label htmlFor={selectId} className="sr-only">
        Active profile
      </label>
      <select
        id={selectId}
        value={profile.id}
        disabled={activate.isPending || profiles.length < 2}
        onChange={(e) => activate.mutate(e.target.value)}
        title="Switch the merchant profile every screen works with"
      >
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <MoneyModeBadge mode={mode} />
      {activate.isError && (
        <span className="rd-error small" role="alert">
          Could not switch: {activate.error.message}
        </span>
      )}
    </div>
  );
}
