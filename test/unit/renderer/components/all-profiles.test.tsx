// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { RunsList } from '../../../../renderer/src/features/reconciliation/RunsList';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import type { Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

// One unresolved refund of the active profile (Shop A), two of Shop B.
const INTENTS = [
  intent({ id: 'RD-A1', state: 'outcome_unknown', transactionNo: '297553638300700001' }),
  intent({
    id: 'RD-B1',
    profileId: 'P-B',
    profileName: 'Shop B',
    environment: 'production',
    state: 'outcome_unknown',
    transactionNo: '297553638300700002',
  }),
  intent({
    id: 'RD-B2',
    profileId: 'P-B',
    profileName: 'Shop B',
    environment: 'production',
    state: 'outcome_unknown',
    transactionNo: '297553638300700003',
  }),
];

const run = (runId: string, profileId: string, profileName: string): Output<'reconciliation.get'> => ({
  runId,
  profileId,
  profileName,
  label: `${runId}.csv`,
  createdAt: '2026-11-24T10:00:00.000Z',
  options: { days: 'service', timeZone: 'Etc/GMT-8', dateToleranceDays: 0, refundLookbackDays: 0 },
  dataRows: 3,
  progress: { state: 'completed', phase: 'done', done: 3, total: 3, failed: 0 },
});
const RUNS = [run('run-a', 'P-A', 'Shop A'), run('run-b', 'P-B', 'Shop B')];

/** Main's answer to a list input: the named profile's records, or every profile's. */
const scoped = <T extends { profileId: string }>(all: readonly T[], input: { profileId: string } | object) =>
  'profileId' in input ? all.filter((r) => r.profileId === input.profileId) : [...all];

describe('the active profile’s records, or every profile’s by choice (component, typed fake bridge)', () => {
  it('the Refunds list and its unknown-outcome banner show the active profile’s refunds; “All profiles” shows every profile’s with a Profile column', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': (input) => ok(scoped(INTENTS, input)),
    });
    const { wrapper } = harness(fake.bridge);
    render(<RefundsView />, { wrapper });
    const table = await screen.findByTestId('refunds-table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(screen.getByText(/1 refund has an unknown outcome/)).toBeTruthy();
    expect(within(table).queryByRole('columnheader', { name: 'Profile' })).toBeNull();
    expect(fake.calls.filter((c) => c.channel === 'refunds.list').map((c) => c.input)).toEqual([
      { profileId: 'P-A' },
    ]);

    await userEvent.click(screen.getByLabelText(/All profiles/));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(screen.getByText(/3 refunds have an unknown outcome/)).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Profile' })).toBeTruthy();
    const b = within(table)
      .getAllByRole('row')
      .find((r) => r.textContent?.includes('297553638300700002'));
    expect(within(b!).getByTestId('profile-cell').textContent).toContain('Shop B');
    expect(fake.calls.filter((c) => c.channel === 'refunds.list').at(-1)?.input).toEqual({
      allProfiles: true,
    });
  });

  it('Earlier runs lists the active profile’s runs; “All profiles” adds the others with a Profile column', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'reconciliation.list': (input) => ok({ runs: scoped(RUNS, input) }),
    });
    const { wrapper } = harness(fake.bridge);
    render(<RunsList onOpen={() => {}} />, { wrapper });
    const table = await screen.findByTestId('recon-runs');
    expect(screen.getByRole('heading', { name: 'Earlier runs of Shop A' })).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).queryByRole('columnheader', { name: 'Profile' })).toBeNull();

    await userEvent.click(screen.getByLabelText(/All profiles/));
    await waitFor(() => expect(within(screen.getByTestId('recon-runs')).getAllByRole('row')).toHaveLength(3));
    const all = screen.getByTestId('recon-runs');
    expect(within(all).getByRole('columnheader', { name: 'Profile' })).toBeTruthy();
    expect(
      within(all)
        .getAllByTestId('profile-cell')
        .map((c) => c.textContent),
    ).toEqual(['Shop A', 'Shop B']);
    expect(fake.calls.filter((c) => c.channel === 'reconciliation.list').map((c) => c.input)).toEqual([
      { profileId: 'P-A' },
      { allProfiles: true },
    ]);
  });
});
