// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { RefundDialogHost } from '../../../../renderer/src/features/refunds/RefundDialogHost';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import { TeamDatabaseSettings } from '../../../../renderer/src/features/settings/TeamDatabaseSettings';
import { TeamBanner } from '../../../../renderer/src/features/shell/TeamBanner';
import { TeamIdentity } from '../../../../renderer/src/features/shell/TeamIdentity';
import { teamStatusQuery } from '../../../../renderer/src/features/shell/team';
import type { Input, Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { LiveCacheUpdates } from '../../../../renderer/src/features/transactions/LiveCacheUpdates';
import { harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

/**
 * Team mode on screen (components, typed fake bridge answering as main does): Settings → Team database
 * never shows the password back, Test connection says who I am, the read-only banner comes and goes with
 * main's status, and Refund… is disabled with the reason while it is there.
 */
const SECRET = 'Sup3r-secret-team-pw';
const ADDRESS = 'postgres://db.example.test:5432/refunds';

function settingsOf(o: Partial<Output<'team.settings'>> = {}): Output<'team.settings'> {
  return {
    saved: null,
    passwordSet: false,
    appliesAt: 'restart',
    restartNeeded: false,
    secretStorage: { backend: 'fake', persistent: true, requiresOptIn: false },
    ...o,
  };
}

/** Main's side of Settings → Team database, kept as main keeps it: the password apart, never answered. */
function teamMain() {
  const state = {
    saved: null as Output<'team.settings'>['saved'],
    password: undefined as string | undefined,
  };
  const current = () => settingsOf({ saved: state.saved, passwordSet: state.password !== undefined });
  const tested: Input<'team.testConnection'>[] = [];
  const fake = createFakeBridge({
    'profiles.list': () => ok(twoProfiles()),
    'team.status': () => ok({ mode: 'single' }),
    'team.settings': () => ok(current()),
    'team.save': (input) => {
      state.saved = { address: input.address, ...(input.login ? { login: input.login } : {}) };
      return ok({ ...current(), restartNeeded: true });
    },
    'team.setPassword': (input) => {
      state.password = input.password;
      return ok({ passwordSet: true, persisted: true });
    },
    'team.testConnection': (input) => {
      tested.push(input);
      return ok({
        address: 'postgres://carl@db.example.test:5432/refunds',
        login: 'carl',
        groups: ['refund_checker'],
        limits: [{ currency: 'USD', upToMinor: 50_000 }],
        schema: { database: 3, desk: 3 },
      });
    },
  });
  return { fake, state, tested };
}

describe('Settings → Team database', () => {
  it('the password is write-only: sent once to main, cleared from the field, shown back only as "set"', async () => {
    const { fake, state } = teamMain();
    const { wrapper } = harness(fake.bridge, 'team-settings-pw');
    const { container } = render(<TeamDatabaseSettings />, { wrapper });
    const user = userEvent.setup();
    expect((await screen.findByTestId('team-password-state')).textContent).toContain('Password: not set');
    await user.type(screen.getByLabelText('Address'), ADDRESS);
    await user.type(screen.getByLabelText('Login'), 'carl');
    const pw = screen.getByLabelText('Password') as HTMLInputElement;
    expect(pw.type).toBe('password');
    await user.type(pw, SECRET);
    await user.click(screen.getByRole('button', { name: 'Save team settings' }));

    await waitFor(() =>
      expect(screen.getByTestId('team-password-state').textContent).toContain('Password: set'),
    );
    expect(state).toEqual({ saved: { address: ADDRESS, login: 'carl' }, password: SECRET });
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText('Password').getAttribute('placeholder')).toBe('set — type to replace');
    expect(screen.getByTestId('team-restart').textContent).toMatch(
      /takes effect when Refund Desk starts again/,
    );
    // The saved form comes back from main's answer, without the password anywhere on the page.
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe(ADDRESS);
    expect(container.innerHTML).not.toContain(SECRET);
    // setPassword came after the settings were saved (a refused address stores no password).
    const order = fake.calls
      .map((c) => c.channel)
      .filter((c) => c === 'team.save' || c === 'team.setPassword');
    expect(order).toEqual(['team.save', 'team.setPassword']);
  });

  it('Test connection sends what the form holds and shows who I am, my groups, limits and the schema versions', async () => {
    const { fake, tested } = teamMain();
    const { wrapper } = harness(fake.bridge, 'team-settings-test');
    render(<TeamDatabaseSettings />, { wrapper });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Address'), ADDRESS);
    await user.type(screen.getByLabelText('Login'), 'carl');
    await user.type(screen.getByLabelText('Password'), SECRET);
    await user.click(screen.getByRole('button', { name: 'Test team connection' }));
    const who = await screen.findByTestId('team-whoami');
    expect(who.textContent).toContain('Connected as carl');
    expect(within(who).getByTestId('team-groups').textContent).toBe('checker (approves others’ refunds)');
    expect(within(who).getByTestId('team-limits').textContent).toMatch(/500\.00/);
    expect(within(who).getByTestId('team-schema').textContent).toBe('database 3, this Refund Desk 3');
    expect(tested).toEqual([{ address: ADDRESS, login: 'carl', caFile: '', password: SECRET }]);
  });

  it('a refusal from main is shown in its words and marks the field it names', async () => {
    const fake = createFakeBridge({
      'team.status': () => ok({ mode: 'single' }),
      'team.settings': () => ok(settingsOf()),
      'team.save': () => ({
        ok: false,
        error: {
          code: 'invalid_input',
          message: 'Leave the password out of the address and type it in Password.',
          retryable: false,
          correlationId: 't',
          details: { fields: { address: 'Leave the password out of the address.' } },
        },
      }),
    });
    const { wrapper } = harness(fake.bridge, 'team-settings-bad');
    render(<TeamDatabaseSettings />, { wrapper });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Address'), 'postgres://a:b@db/x');
    await user.click(screen.getByRole('button', { name: 'Save team settings' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Leave the password out of the address/);
    expect(screen.getByLabelText('Address').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('the read-only banner and who am I', () => {
  it('appears with since when while main says read-only, Refund… is disabled with the reason, and both clear by themselves', async () => {
    let down = true;
    const since = '2026-11-24T10:42:00.000Z';
    const reason =
      'The team database has been unreachable since 10:42 — refunds are refused; browse, search and export still work.';
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'team.status': () =>
        ok({
          mode: 'team',
          address: 'postgres://alice@db.example.test:5432/refunds',
          login: 'alice',
          deskId: 'desk-2',
          schema: { database: 3, desk: 3 },
          ...(down ? { readOnly: { reason, since } } : {}),
        }),
    });
    const { wrapper } = harness(fake.bridge, 'team-banner');
    render(
      <RefundDialogHost>
        <TeamIdentity />
        <TeamBanner />
        <RefundsView />
      </RefundDialogHost>,
      { wrapper },
    );
    const banner = await screen.findByTestId('team-banner');
    expect(banner.textContent).toMatch(
      /Read-only — the team database cannot be reached since .+\. Refunds, approvals and rejections are refused; browse, search and export of the cached data still work/,
    );
    expect(screen.getByTestId('team-banner-since').getAttribute('dateTime')).toBe(since);
    expect(screen.getByTestId('team-identity').textContent).toBe('Team alice at desk-2');
    const refund = screen.getByRole('button', { name: 'Refund…' });
    expect(refund).toHaveProperty('disabled', true);
    expect(refund.getAttribute('title')).toContain('unreachable since 10:42');

    // The database is back: main's next status (asked every 2 s) clears both, with no reload.
    down = false;
    await waitFor(() => expect(screen.queryByTestId('team-banner')).toBeNull(), { timeout: 5_000 });
    expect(screen.getByRole('button', { name: 'Refund…' }).getAttribute('title')).toBeNull();
  });

  it('a single desk: no banner, no team identity, and team.status is not asked again (a team desk every 2 s)', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'team.status': () => ok({ mode: 'single' }),
    });
    const { wrapper } = harness(fake.bridge, 'team-single');
    render(
      <>
        <TeamIdentity />
        <TeamBanner />
      </>,
      { wrapper },
    );
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'team.status')).toBe(true));
    expect(screen.queryByTestId('team-banner')).toBeNull();
    expect(screen.queryByTestId('team-identity')).toBeNull();
    const every = teamStatusQuery(fake.bridge).refetchInterval as (q: unknown) => number | false;
    expect(every({ state: { data: { mode: 'single' } } })).toBe(false);
    expect(every({ state: { data: { mode: 'team' } } })).toBe(2_000);
  });
});

describe('live between desks', () => {
  it("another desk's refund to this profile's account re-fetches that payment into the cache; another account's does not", async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'transactions.refresh': (input) =>
        ok({ profileId: input.profileId, fetchedAt: '2026-11-24T10:00:06.000Z', items: [] }),
    });
    const { wrapper } = harness(fake.bridge, 'team-live');
    render(<LiveCacheUpdates />, { wrapper });
    const refreshes = () =>
      fake.calls.filter((c) => c.channel === 'transactions.refresh').map((c) => c.input);
    // Mounted once the active profile is known.
    await waitFor(() =>
      expect(fake.calls.some((c) => c.channel === 'profiles.list' || c.channel === 'app.bootstrap')).toBe(
        true,
      ),
    );
    await new Promise((r) => setTimeout(r, 0));
    // Another desk (its own profile id, the same Demo merchant and store): this profile's payment.
    await waitFor(() => {
      fake.emit(
        'refunds.updated',
        intent({
          id: 'RD-OTHER',
          profileId: 'cli:200043:300014',
          state: 'accepted',
          transactionNo: '297553638300700077',
        }),
      );
      expect(refreshes()).toContainEqual({ profileId: 'P-A', transactionNos: ['297553638300700077'] });
    });
    const before = refreshes().length;
    fake.emit(
      'refunds.updated',
      intent({
        id: 'RD-ELSE',
        profileId: 'P-Z',
        merchantNo: '999999',
        state: 'accepted',
        transactionNo: '297553638300700088',
      }),
    );
    fake.emit(
      'refunds.updated',
      intent({
        id: 'RD-PROD',
        profileId: 'P-Y',
        environment: 'production',
        baseUrl: 'https://mapi.example.test',
        state: 'succeeded',
        transactionNo: '297553638300700099',
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(refreshes()).toHaveLength(before);
  });
});
