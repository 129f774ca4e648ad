// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileForm } from '../../../../renderer/src/features/settings/ProfileForm';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Input, Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';

const PROFILE: Output<'profiles.save'> = {
  id: 'P-A',
  name: 'Shop A',
  merchantNo: '123456',
  storeNo: '654321',
  environment: 'vendor-sandbox',
  ipnEnabled: false,
  guardrails: {
    limits: [{ currency: 'USD', maxSingleMinor: 50_000 }],
    unknownClose: { minChecks: 5, minMinutes: 150 },
  },
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  hasToken: true,
  effectiveBaseUrl: 'https://mapi.yuansferdev.com',
};

function renderForm(profile?: Output<'profiles.save'>) {
  const saved: Input<'profiles.save'>[] = [];
  const fake = createFakeBridge({
    'profiles.save': (input) => {
      saved.push(input);
      return ok({ ...PROFILE, ...input, id: input.id ?? 'P-new' } as Output<'profiles.save'>);
    },
  });
  const done: unknown[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <BridgeContext.Provider value={fake.bridge}>
      <QueryClientProvider client={client}>
        <ProfileForm profile={profile} demoAvailable={false} onDone={(p) => done.push(p)} />
      </QueryClientProvider>
    </BridgeContext.Provider>,
  );
  return { saved, done, user: userEvent.setup() };
}

afterEach(cleanup);

describe('the profile form: the close-as-not-sent policy beside the limits', () => {
  it('shows the profile’s policy, and editing only a limit saves the policy unchanged', async () => {
    const { saved, done, user } = renderForm(PROFILE);
    expect(screen.getByLabelText('Checks, at least')).toHaveProperty('value', '5');
    expect(screen.getByLabelText('Over at least (minutes)')).toHaveProperty('value', '150');
    const single = screen.getByLabelText('Single-refund limit 1');
    await user.clear(single);
    await user.type(single, '250');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(saved[0]!.guardrails).toEqual({
      limits: [{ currency: 'USD', maxSingleMinor: 25_000 }],
      unknownClose: { minChecks: 5, minMinutes: 150 },
    });
  });

  it('saves a changed policy, and a new profile gets the defaults (3 checks over 120 minutes)', async () => {
    const { saved, done, user } = renderForm(PROFILE);
    const checks = screen.getByLabelText('Checks, at least');
    await user.clear(checks);
    await user.type(checks, '4');
    const minutes = screen.getByLabelText('Over at least (minutes)');
    await user.clear(minutes);
    await user.type(minutes, '180');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(saved[0]!.guardrails?.unknownClose).toEqual({ minChecks: 4, minMinutes: 180 });
    cleanup();
    renderForm();
    expect(screen.getByLabelText('Checks, at least')).toHaveProperty('value', '3');
    expect(screen.getByLabelText('Over at least (minutes)')).toHaveProperty('value', '120');
  });

  it('refuses a policy below the floor (1 check over 0 minutes) beside the fields, saying why, and saves nothing', async () => {
    const { saved, user } = renderForm(PROFILE);
    const checks = screen.getByLabelText('Checks, at least');
    await user.clear(checks);
    await user.type(checks, '1');
    const minutes = screen.getByLabelText('Over at least (minutes)');
    await user.clear(minutes);
    await user.type(minutes, '0');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('error-unknownClose-minChecks')).textContent).toBe(
      'At least 3 checks: fewer could close a refund the payment service is still working on.',
    );
    expect(screen.getByTestId('error-unknownClose-minMinutes').textContent).toMatch(
      /^At least 120 minutes \(2 hours\): the payment service keeps working on a request for up to 2 hours/,
    );
    expect(saved).toHaveLength(0);
  });

  it('refuses numbers outside what main accepts, beside the field, and saves nothing', async () => {
    const { saved, user } = renderForm(PROFILE);
    const checks = screen.getByLabelText('Checks, at least');
    await user.clear(checks);
    await user.type(checks, '0');
    const minutes = screen.getByLabelText('Over at least (minutes)');
    await user.clear(minutes);
    await user.type(minutes, '1.5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('error-unknownClose-minChecks')).textContent).toMatch(
      /^At least 3 checks/,
    );
    expect(screen.getByTestId('error-unknownClose-minMinutes').textContent).toMatch(
      /whole number from 120 to 10080/,
    );
    expect(checks.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(checks);
    expect(saved).toHaveLength(0);
  });
});
