import { useId } from 'react';
import { moneyModeOf, type MoneyMode } from '../../../../shared/domain/profile';
import { useActiveProfile } from '../profiles/queries';
import { useActivateProfile } from '../settings/mutations';

const BADGE: Readonly<Record<MoneyMode, { text: string; title: string }>> = {
  live: { text: 'LIVE MONEY', title: 'Refunds and payments here move real money.' },
  test: { text: 'Test system', title: 'The vendor’s test system: no real money moves.' },
  local: { text: 'No real money', title: 'The built-in Demo sandbox or this computer: no real money moves.' },
};

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
  const mode = moneyModeOf(profile.environment, profile.effectiveBaseUrl ?? profile.baseUrl);
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
      <span className={`env-badge env-${mode}`} title={BADGE[mode].title} data-testid="env-badge">
        {BADGE[mode].text}
      </span>
      {activate.isError && (
        <span className="rd-error small" role="alert">
          Could not switch: {activate.error.message}
        </span>
      )}
    </div>
  );
}
