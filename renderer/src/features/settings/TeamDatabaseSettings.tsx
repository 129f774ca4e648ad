import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { Output } from '../../../../shared/ipc/contract';
import { BridgeError, unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { teamKeys, teamStatusQuery } from '../shell/team';

type Saved = Output<'team.settings'>;
type WhoAmI = Output<'team.testConnection'>;

const GROUP_WORDS: Record<string, string> = {
  refund_viewer: 'viewer (browse only)',
  refund_maker: 'maker (refunds)',
  refund_checker: 'checker (approves others’ refunds)',
};

const messageOf = (e: unknown, fallback: string) => (e instanceof BridgeError ? e.error.message : fallback);
const fieldOf = (e: unknown): string | undefined => {
  const fields = e instanceof BridgeError ? e.error.details?.fields : undefined;
  return fields ? Object.keys(fields)[0] : undefined;
};

/**
 * Settings → Team database: where this desk's shared refund journal is (address, CA file, login), the
 * password (write-only: it goes to main's secret store and never comes back — this screen knows only
 * whether one is set), Test team connection (who I am, my groups and limits, the schema versions) and Save.
 * Saved settings take effect when Refund Desk starts again: storage is opened once, before anything
 * else runs, and the screen says so rather than pretending to switch live.
 */
export function TeamDatabaseSettings() {
  const bridge = useBridge();
  const settings = useQuery({
    queryKey: teamKeys.settings,
    queryFn: () => unwrap(bridge['team.settings']()),
  });
  const [notice, setNotice] = useState<string>();
  if (settings.isPending) return null;
  if (settings.isError)
    return (
      <section className="st-card st-wide" aria-label="Team database">
        <h2>Team database</h2>
        <p className="st-alert st-alert-bad" role="alert">
          {messageOf(settings.error, 'Could not read the team database settings.')}{' '}
          <button type="button" className="link" onClick={() => void settings.refetch()}>
            Retry
          </button>
        </p>
      </section>
    );
  // The form starts from what is saved and keeps what the person typed (and the last test's answer)
  // across a save: main's answer only updates what is set.
  return <TeamForm saved={settings.data} notice={notice} setNotice={setNotice} />;
}

function TeamForm({
  saved,
  notice,
  setNotice,
}: {
  saved: Saved;
  notice: string | undefined;
  setNotice: (n: string | undefined) => void;
}) {
  const uid = useId();
  const bridge = useBridge();
  const qc = useQueryClient();
  const status = useQuery(teamStatusQuery(bridge)).data;
  const [address, setAddress] = useState(saved.saved?.address ?? '');
  const [login, setLogin] = useState(saved.saved?.login ?? '');
  const [caFile, setCaFile] = useState(saved.saved?.caFile ?? '');
  // Typed here, sent to main once, then cleared: never read back.
  const [password, setPassword] = useState('');
  const [allowPlain, setAllowPlain] = useState(false);
  const form = { address, login, caFile };

  const refresh = (next: Saved) => qc.setQueryData(teamKeys.settings, next);
  const save = useMutation({
    // The settings first: an address main refuses stores no password either.
    mutationFn: async () => {
      const next = await unwrap(bridge['team.save'](form));
      if (!password) return next;
      await unwrap(
        bridge['team.setPassword']({ password, ...(allowPlain ? { allowPlainTextStorage: true } : {}) }),
      );
      setPassword('');
      return unwrap(bridge['team.settings']());
    },
    onSuccess: (next) => {
      refresh(next);
      setNotice(
        next.appliesAt === 'restart'
          ? 'Saved. It takes effect when Refund Desk starts again: close it and open it again.'
          : 'Saved. This host takes its team database from --database-url only; the desktop app uses these settings at its next start.',
      );
    },
  });
  const forget = useMutation({
    mutationFn: () => unwrap(bridge['team.forget']()),
    onSuccess: (next) => {
      refresh(next);
      setNotice('Removed. At its next start this desk works alone again, on its own journal.');
    },
  });
  const test = useMutation({
    mutationFn: () => unwrap(bridge['team.testConnection']({ ...form, ...(password ? { password } : {}) })),
  });
  const badField = fieldOf(save.error) ?? fieldOf(test.error);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(undefined);
    save.mutate();
  };
  const stop = () => {
    if (
      !window.confirm(
        'Stop using the team database? Its settings and the kept password are removed; at its next start this desk works alone on its own journal. Nothing in the team database changes.',
      )
    )
      return;
    setNotice(undefined);
    forget.mutate();
  };
  const field = (name: 'address' | 'login' | 'caFile') => ({
    id: `${uid}-${name}`,
    'aria-invalid': badField === name ? ('true' as const) : undefined,
    spellCheck: false,
    autoComplete: 'off',
  });

  return (
    <section className="st-card st-wide st-team" aria-labelledby={`${uid}-h`} data-testid="team-settings">
      <h2 id={`${uid}-h`}>Team database</h2>
      <CurrentDesk status={status} />
      <form className="st-form" onSubmit={onSubmit} noValidate>
        <div className="st-team-grid">
          <div className="st-field st-team-address">
            <label htmlFor={`${uid}-address`}>Address</label>
            <input
              {...field('address')}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              placeholder="postgres://db.example.com:5432/refunds"
            />
            <p className="st-hint">From your administrator. The password does not go here.</p>
          </div>
          <div className="st-field">
            <label htmlFor={`${uid}-login`}>Login</label>
            <input
              {...field('login')}
              value={login}
              onChange={(e) => setLogin(e.target.value)}
              placeholder="your database login"
            />
          </div>
          <div className="st-field">
            <label htmlFor={`${uid}-password`}>Password</label>
            <input
              id={`${uid}-password`}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
              spellCheck={false}
              placeholder={saved.passwordSet ? 'set — type to replace' : 'not set'}
              aria-describedby={`${uid}-pw-state`}
            />
            <p id={`${uid}-pw-state`} className="st-hint" data-testid="team-password-state">
              {saved.passwordSet ? 'Password: set' : 'Password: not set'} —{' '}
              {saved.secretStorage.persistent
                ? 'kept encrypted by this computer, never shown again.'
                : 'kept in memory by this host until it stops, never shown again.'}
            </p>
          </div>
          <div className="st-field st-team-ca">
            <label htmlFor={`${uid}-caFile`}>CA file (optional)</label>
            <input
              {...field('caFile')}
              value={caFile}
              onChange={(e) => setCaFile(e.target.value)}
              placeholder="/path/to/team-ca.pem"
            />
            <p className="st-hint">
              With a CA file the connection is encrypted and the server’s name is checked (verify-full).
            </p>
          </div>
        </div>
        {saved.secretStorage.requiresOptIn && (
          <div className="st-check st-optin">
            <input
              id={`${uid}-plain`}
              type="checkbox"
              checked={allowPlain}
              onChange={(e) => setAllowPlain(e.target.checked)}
            />
            <label htmlFor={`${uid}-plain`}>
              Remember the password on this computer even though it cannot be encrypted properly here
            </label>
          </div>
        )}
        <div className="st-actions">
          <button
            type="button"
            onClick={() => {
              setNotice(undefined);
              test.mutate();
            }}
            disabled={test.isPending || !address.trim()}
          >
            {test.isPending ? 'Testing…' : 'Test team connection'}
          </button>
          <button type="submit" className="st-primary" disabled={save.isPending || !address.trim()}>
            {save.isPending ? 'Saving…' : 'Save team settings'}
          </button>
          {(saved.saved || saved.passwordSet) && (
            <button type="button" className="st-danger" onClick={stop} disabled={forget.isPending}>
              Stop using the team database
            </button>
          )}
        </div>
      </form>
      {saved.problem && (
        <p className="st-alert st-alert-bad" role="alert">
          {saved.problem}
        </p>
      )}
      {(notice ?? (saved.restartNeeded && saved.appliesAt === 'restart')) && (
        <p className="st-alert st-alert-warn" role="status" data-testid="team-restart">
          {notice ?? 'Changed since Refund Desk started: the change takes effect when it starts again.'}
        </p>
      )}
      {(save.error ?? forget.error) && (
        <p className="st-alert st-alert-bad" role="alert">
          {messageOf(save.error ?? forget.error, 'That did not work.')}
        </p>
      )}
      {test.data && <WhoAmIResult me={test.data} />}
      {test.error && (
        <p className="st-alert st-alert-bad" role="alert" data-testid="team-test-error">
          {messageOf(test.error, 'The test could not run.')}
        </p>
      )}
    </section>
  );
}

/** What this desk runs with now (which may differ from the form until the next start). */
function CurrentDesk({ status }: { status: Output<'team.status'> | undefined }) {
  if (!status) return null;
  if (status.mode === 'single')
    return (
      <p className="st-hint" data-testid="team-current">
        This desk works alone: its refund journal is on this computer. To share one journal with your team
        (one refund per payment across desks, approvals, one audit), enter the team database your
        administrator set up.
      </p>
    );
  return (
    <p className="st-hint" data-testid="team-current">
      This desk works with the team database <span className="mono">{status.address ?? '(not opened)'}</span>
      {status.login && (
        <>
          {' '}
          as <strong>{status.login}</strong>
        </>
      )}
      {status.deskId && <> at desk {status.deskId}</>}
      {status.schema && <>, schema {status.schema.database}</>}.
      {status.readOnly && <> Read-only now: {status.readOnly.reason}</>}
    </p>
  );
}

/** Test connection's answer: who I am, my groups and limits, the schema versions. */
function WhoAmIResult({ me }: { me: WhoAmI }) {
  const f = useFormat();
  return (
    <div
      className={`st-alert ${me.schemaNote ? 'st-alert-warn' : 'st-alert-ok'}`}
      role="status"
      data-testid="team-whoami"
    >
      <strong>Connected as {me.login}</strong> <span className="mono">{me.address}</span>
      <dl className="st-facts st-team-facts">
        <dt>Groups</dt>
        <dd data-testid="team-groups">
          {me.groups.length > 0
            ? me.groups.map((g) => GROUP_WORDS[g] ?? g).join(', ')
            : 'none — the administrator adds you (cli team add-person)'}
        </dd>
        <dt>May approve up to</dt>
        <dd data-testid="team-limits">
          {me.limits.length > 0
            ? me.limits.map((l) => f.amountCode(l.upToMinor, l.currency)).join(', ')
            : 'nothing'}
        </dd>
        <dt>Schema</dt>
        <dd data-testid="team-schema">
          database {me.schema.database}, this Refund Desk {me.schema.desk}
        </dd>
      </dl>
      {me.schemaNote && <p>{me.schemaNote}</p>}
    </div>
  );
}
