import { describeLimits } from './limits';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ENVIRONMENT_LABELS } from '../../../../shared/domain/profile';
import { BridgeError, useBridge } from '../../lib/bridge';
import { CredentialsPanel } from './CredentialsPanel';
import { useActivateProfile, useDeleteProfile } from './mutations';
import { ProfileForm } from './ProfileForm';
import { profilesQuery, type ProfileView } from '../profiles/queries';
import { DisplaySettings } from '../preferences/DisplaySettings';
import { MONEY_BADGE, profileMoneyMode } from '../profiles/money-mode';
import { MoneyModeBadge } from '../profiles/MoneyModeBadge';
import { ResetCache } from './ResetCache';
import { TeamDatabaseSettings } from './TeamDatabaseSettings';
import './settings.css';

type Editing = { mode: 'none' } | { mode: 'new' } | { mode: 'edit'; id: string };

/** Settings: merchant profiles (list, add, edit, delete, make active) and each profile's credentials. */
export function SettingsScreen() {
  const bridge = useBridge();
  const list = useQuery(profilesQuery(bridge));
  const activate = useActivateProfile();
  const del = useDeleteProfile();
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>({ mode: 'none' });

  if (list.isPending) return <p className="muted">Loading profiles…</p>;
  if (list.isError) {
    return (
      <p className="st-alert st-alert-bad" role="alert">
        {list.error instanceof BridgeError ? list.error.error.message : 'Could not load the profiles.'}{' '}
        <button type="button" className="link" onClick={() => void list.refetch()}>
          Retry
        </button>
      </p>
    );
  }

  const { profiles, activeProfileId, notices, secretStorage } = list.data;
  const current: ProfileView | undefined =
    profiles.find((p) => p.id === (selected ?? activeProfileId)) ?? profiles[0];
  const editingProfile = editing.mode === 'edit' ? profiles.find((p) => p.id === editing.id) : undefined;

  const remove = (p: ProfileView) => {
    if (
      !window.confirm(
        `Delete the profile “${p.name}” and its stored token? Refunds already sent are not affected.`,
      )
    )
      return;
    del.mutate(p.id, { onSuccess: () => setSelected(null) });
  };

  return (
    <div className="st-layout" data-testid="settings">
      {notices.map((n) => (
        <p
          key={n.at + n.message}
          className={n.level === 'error' ? 'st-alert st-alert-bad st-wide' : 'st-alert st-alert-warn st-wide'}
          role="alert"
        >
          {n.message}
        </p>
      ))}
      <div className="st-side">
        <section className="st-list" aria-label="Merchant profiles">
          <div className="st-list-head">
            <h2>Merchant profiles</h2>
            <button type="button" className="st-primary" onClick={() => setEditing({ mode: 'new' })}>
              Add profile
            </button>
          </div>
          {profiles.length === 0 && (
            <p className="muted">
              No profiles yet. Add the merchant and store numbers your provider gave you.
            </p>
          )}
          <ul>
            {profiles.map((p) => {
              const isActive = p.id === activeProfileId;
              const isSelected = p.id === current?.id;
              return (
                <li
                  key={p.id}
                  className={isSelected ? 'st-item st-item-selected' : 'st-item'}
                  data-testid="profile-item"
                >
                  <button
                    type="button"
                    className="st-item-main"
                    onClick={() => {
                      setSelected(p.id);
                      setEditing({ mode: 'none' });
                    }}
                    aria-pressed={isSelected}
                  >
                    <span className="st-item-name">{p.name}</span>
                    <span className="st-item-tags">
                      <span className={`st-env st-env-${p.environment}`}>
                        {ENVIRONMENT_LABELS[p.environment]}
                      </span>
                      <MoneyModeBadge mode={profileMoneyMode(p)} testId="profile-money-mode" />
                    </span>
                    <span className="st-item-meta">
                      Merchant {p.merchantNo} · Store {p.storeNo} ·{' '}
                      {p.environment === 'demo'
                        ? 'built-in credentials'
                        : p.hasToken
                          ? 'token set'
                          : 'no token'}
                    </span>
                  </button>
                  {isActive ? (
                    <span className="st-active-badge">Active</span>
                  ) : (
                    <button
                      type="button"
                      className="st-small"
                      onClick={() => activate.mutate(p.id)}
                      disabled={activate.isPending}
                      aria-label={`Make active: ${p.name}`}
                    >
                      Make active
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {(activate.error ?? del.error) && (
            <p className="st-alert st-alert-bad" role="alert">
              {(() => {
                const e = activate.error ?? del.error;
                return e instanceof BridgeError ? e.error.message : 'That did not work.';
              })()}
            </p>
          )}
        </section>
        <DisplaySettings />
        <div className="st-card">
          <h2>Local cache</h2>
          <ResetCache />
        </div>
      </div>
      <div className="st-detail">
        {editing.mode === 'new' && (
          <ProfileForm
            key="new"
            demoAvailable={list.data.demoAvailable}
            onDone={(saved) => {
              setEditing({ mode: 'none' });
              if (saved) setSelected(saved.id);
            }}
          />
        )}
        {editing.mode === 'edit' && editingProfile && (
          <ProfileForm
            key={editingProfile.id}
            profile={editingProfile}
            demoAvailable={list.data.demoAvailable}
            onDone={() => setEditing({ mode: 'none' })}
          />
        )}
        {editing.mode === 'none' && current && (
          <>
            <section className="st-card">
              <div className="st-list-head">
                <h2>{current.name}</h2>
                <div className="st-inline">
                  <button type="button" onClick={() => setEditing({ mode: 'edit', id: current.id })}>
                    Edit
                  </button>
                  <button type="button" className="st-danger" onClick={() => remove(current)}>
                    Delete
                  </button>
                </div>
              </div>
              <dl className="st-facts">
                <dt>Connects to</dt>
                <dd>{ENVIRONMENT_LABELS[current.environment]}</dd>
                <dt>Money</dt>
                <dd>
                  <MoneyModeBadge mode={profileMoneyMode(current)} testId="current-money-mode" />{' '}
                  <span className="small muted">{MONEY_BADGE[profileMoneyMode(current)].title}</span>
                </dd>
                <dt>Address</dt>
                <dd className="mono">
                  {current.effectiveBaseUrl ?? 'not available (the built-in sandbox is not running)'}
                </dd>
                <dt>Merchant / store</dt>
                <dd className="mono">
                  {current.merchantNo} / {current.storeNo}
                </dd>
                {current.merGroupNo && (
                  <>
                    <dt>Partner group</dt>
                    <dd className="mono">{current.merGroupNo}</dd>
                  </>
                )}
                <dt>Notifications (IPN)</dt>
                <dd>
                  {current.ipnEnabled ? 'Listening on this computer' : 'Off (statuses come from queries)'}
                </dd>
                {current.operatorName && (
                  <>
                    <dt>Operator</dt>
                    <dd>{current.operatorName}</dd>
                  </>
                )}
                <dt>Refund limits</dt>
                <dd data-testid="profile-limits">{describeLimits(current.guardrails)}</dd>
              </dl>
            </section>
            <CredentialsPanel key={current.id} profile={current} storage={secretStorage} />
          </>
        )}
      </div>
      <TeamDatabaseSettings />
    </div>
  );
}
