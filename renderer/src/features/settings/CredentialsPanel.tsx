import { useId, useState } from 'react';
import type { Output } from '../../../../shared/ipc/contract';
import { BridgeError } from '../../lib/bridge';
import { useClearToken, useSetToken, useTestConnection } from './mutations';
import type { ProfilesList, ProfileView } from '../profiles/queries';

type Verdict = Output<'profiles.testConnection'>['verdict'];

const VERDICT_TITLE: Record<Verdict, string> = {
  ok: 'Connected',
  credentials: 'Credentials refused',
  network: 'Could not reach the service',
  service: 'The service answered with an error',
};

/**
 * The API token of one profile: set, replace or clear it and see whether one is set. The value goes
 * to main and never comes back: no operation returns it, so this panel cannot show it either.
 */
export function CredentialsPanel({
  profile,
  storage,
}: {
  profile: ProfileView;
  storage: ProfilesList['secretStorage'];
}) {
  const uid = useId();
  const [token, setToken] = useState('');
  const [allowPlain, setAllowPlain] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const setMut = useSetToken();
  const clearMut = useClearToken();
  const test = useTestConnection();
  const isDemo = profile.environment === 'demo';

  const save = async () => {
    setMessage(null);
    if (!token.trim()) {
      setMessage({
        kind: 'bad',
        text: 'Paste the API token first. You find it in the merchant portal under developer settings.',
      });
      return;
    }
    try {
      const r = await setMut.mutateAsync({
        id: profile.id,
        token,
        ...(allowPlain ? { allowPlainTextStorage: true } : {}),
      });
      setToken('');
      setMessage({
        kind: 'ok',
        text: r.persisted
          ? 'Token saved, encrypted by the operating system.'
          : 'Token kept for this session only: it will be asked for again after a restart.',
      });
    } catch (e) {
      setMessage({
        kind: 'bad',
        text: e instanceof BridgeError ? e.error.message : 'Could not save the token.',
      });
    }
  };

  const clear = async () => {
    if (
      !window.confirm(
        `Remove the API token of “${profile.name}”? Refund Desk cannot reach the service with this profile until you add one again.`,
      )
    )
      return;
    setMessage(null);
    try {
      await clearMut.mutateAsync(profile.id);
      setMessage({ kind: 'ok', text: 'Token removed.' });
    } catch (e) {
      setMessage({
        kind: 'bad',
        text: e instanceof BridgeError ? e.error.message : 'Could not remove the token.',
      });
    }
  };

  return (
    <section className="st-card" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`}>Credentials and connection</h2>
      {isDemo ? (
        <p className="st-hint">
          The Demo profile uses the built-in sandbox’s public demo credentials. No token is needed and nothing
          real happens.
        </p>
      ) : (
        <>
          <p
            data-testid="token-state"
            className={profile.hasToken ? 'st-token st-token-set' : 'st-token st-token-missing'}
          >
            {profile.hasToken ? 'API token: set' : 'API token: not set'}
            <span className="st-hint"> — the token is never shown again once saved.</span>
          </p>
          <div className="st-field">
            <label htmlFor={`${uid}-token`}>{profile.hasToken ? 'Replace the API token' : 'API token'}</label>
            <div className="st-inline">
              <input
                id={`${uid}-token`}
                type="password"
                value={token}
                onChange={(e) => setToken(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                placeholder="Paste the token"
              />
              <button
                type="button"
                className="st-primary"
                onClick={() => void save()}
                disabled={setMut.isPending}
              >
                {setMut.isPending ? 'Saving…' : profile.hasToken ? 'Replace token' : 'Save token'}
              </button>
              {profile.hasToken && (
                <button
                  type="button"
                  className="st-danger"
                  onClick={() => void clear()}
                  disabled={clearMut.isPending}
                >
                  Clear token
                </button>
              )}
            </div>
            {storage.requiresOptIn && (
              <div className="st-check st-optin">
                <input
                  id={`${uid}-plain`}
                  type="checkbox"
                  checked={allowPlain}
                  onChange={(e) => setAllowPlain(e.target.checked)}
                />
                <label htmlFor={`${uid}-plain`}>
                  Remember the token on this computer even though it cannot be encrypted properly here
                </label>
                <p className="st-hint">
                  This system has no keyring, so a saved token would be readable by anyone with access to your
                  files. Unticked, the token is kept only until Refund Desk closes.
                </p>
              </div>
            )}
            {!storage.persistent && !storage.requiresOptIn && (
              <p className="st-hint">
                In this host tokens are kept in memory only and are gone when it stops.
              </p>
            )}
          </div>
        </>
      )}
      {message && (
        <p className={message.kind === 'ok' ? 'st-alert st-alert-ok' : 'st-alert st-alert-bad'} role="status">
          {message.text}
        </p>
      )}
      <div className="st-actions">
        <button type="button" onClick={() => test.mutate(profile.id)} disabled={test.isPending}>
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
        <span className="st-hint">
          Sends one signed lookup for a number that does not exist. Nothing is changed.
        </span>
      </div>
      {test.data && (
        <div
          className={`st-alert st-verdict st-verdict-${test.data.verdict}`}
          data-testid="connection-result"
          data-verdict={test.data.verdict}
          role="status"
        >
          <strong>{VERDICT_TITLE[test.data.verdict]}</strong> <span>({test.data.elapsedMs} ms)</span>
          <p>{test.data.message}</p>
        </div>
      )}
      {test.error && (
        <p className="st-alert st-alert-bad" role="alert">
          {test.error instanceof BridgeError ? test.error.error.message : 'The test could not run.'}
        </p>
      )}
    </section>
  );
}
