// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileForm } from '../../../../renderer/src/features/settings/ProfileForm';
import { SettingsScreen } from '../../../../renderer/src/features/settings/SettingsScreen';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Input, Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness } from './harness';

type View = Output<'profiles.save'>;

const base = {
  merchantNo: '123456',
  storeNo: '654321',
  ipnEnabled: false,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  hasToken: true,
};

function renderForm() {
  const saved: Input<'profiles.save'>[] = [];
  const fake = createFakeBridge({
    'profiles.save': (input) => {
      saved.push(input);
      return ok({ ...base, ...input, id: 'P-new' } as View);
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const done: unknown[] = [];
  render(
    <BridgeContext.Provider value={fake.bridge}>
      <QueryClientProvider client={client}>
        <ProfileForm demoAvailable={false} onDone={(p) => done.push(p)} />
      </QueryClientProvider>
    </BridgeContext.Provider>,
  );
  return { saved, done, user: userEvent.setup() };
}

afterEach(cleanup);

describe('money mode: shown as the address is typed, declared for an address on this computer', () => {
  it('the form shows the mode while typing; a local address is live money until declared otherwise', async () => {
    const { saved, done, user } = renderForm();
    const mode = () => screen.getByTestId('form-money-mode').textContent;
    // The default environment is the vendor's sandbox: a test system.
    expect(mode()).toBe('Test system');
    await user.selectOptions(screen.getByLabelText('Connects to'), 'custom');
    const address = screen.getByLabelText('Service address');
    await user.type(address, 'https://pay.partner.example.com');
    expect(mode()).toBe('LIVE MONEY');
    expect(screen.queryByLabelText(/What is behind this address/)).toBeNull();
    await user.clear(address);
    await user.type(address, 'http://127.0.0.1:8787');
    // Loopback: the app cannot know; live money by default, and the person is asked.
    expect(mode()).toBe('LIVE MONEY');
    const declare = screen.getByLabelText('What is behind this address on this computer?');
    expect((declare as HTMLSelectElement).value).toBe('live');
    await user.selectOptions(declare, 'local');
    expect(mode()).toBe('No real money');

    await user.type(screen.getByLabelText('Profile name'), 'Local simulator');
    await user.type(screen.getByLabelText('Merchant number'), '200043');
    await user.type(screen.getByLabelText('Store number'), '300014');
    await user.click(screen.getByRole('button', { name: 'Add profile' }));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(saved[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', loopbackMoneyMode: 'local' });
  });

  it('every profile card in Settings says its money mode', async () => {
    const profiles: View[] = [
      { ...base, id: 'P-1', name: 'Demo', environment: 'demo', effectiveBaseUrl: 'http://127.0.0.1:4100' },
      {
        ...base,
        id: 'P-2',
        name: 'Tunnel',
        environment: 'custom',
        baseUrl: 'http://127.0.0.1:9000',
        effectiveBaseUrl: 'http://127.0.0.1:9000',
      },
      {
        ...base,
        id: 'P-3',
        name: 'Simulator',
        environment: 'custom',
        baseUrl: 'http://localhost:9100',
        effectiveBaseUrl: 'http://localhost:9100',
        loopbackMoneyMode: 'local',
      },
      {
        ...base,
        id: 'P-4',
        name: 'Vendor test',
        environment: 'vendor-sandbox',
        effectiveBaseUrl: 'https://mapi.yuansferdev.com',
      },
    ];
    const fake = createFakeBridge({
      'profiles.list': () =>
        ok({
          profiles,
          activeProfileId: 'P-1',
          demoAvailable: true,
          secretStorage: { backend: 'memory', persistent: false, requiresOptIn: false },
          notices: [],
        }),
    });
    const { wrapper: Wrapper } = harness(fake.bridge, 'money-mode-cards');
    render(
      <Wrapper>
        <SettingsScreen />
      </Wrapper>,
    );
    const cards = await screen.findAllByTestId('profile-item');
    const modes = cards.map((c) => within(c).getByTestId('profile-money-mode').textContent);
    expect(modes).toEqual(['No real money', 'LIVE MONEY', 'No real money', 'Test system']);
  });
});
