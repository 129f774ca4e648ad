import { describe, expect, it } from 'vitest';
import { type AccountCandidate, findAccountProfile } from '../../../electron/core/services/engine/account';
import type { IntentAccount } from '../../../electron/core/services/engine/account';

const profile = (over: Partial<AccountCandidate>): AccountCandidate => ({
  id: 'P1',
  name: 'Live',
  environment: 'production',
  merchantNo: '200043',
  storeNo: '300014',
  effectiveBaseUrl: 'https://mapi.yuansfer.com',
  hasToken: true,
  ...over,
});
const intent = (over: Partial<IntentAccount>): IntentAccount => ({
  profileId: 'P1',
  profileName: 'Live',
  environment: 'production',
  baseUrl: 'https://mapi.yuansfer.com',
  merchantNo: '200043',
  storeNo: '300014',
  ...over,
});

describe('which profile may follow up an intent', () => {
  it('its own profile, while it still points at the same service and merchant', () => {
    expect(findAccountProfile([profile({})], intent({})).id).toBe('P1');
  });

  it('a CLI intent: only a profile for exactly that address, merchant and store — never Demo with the same numbers', () => {
    const cli = intent({ profileId: 'cli:200043:300014', profileName: 'CLI', environment: 'production' });
    const demo = profile({
      id: 'D',
      name: 'Demo',
      environment: 'demo',
      effectiveBaseUrl: 'http://127.0.0.1:5555',
    });
    expect(() => findAccountProfile([demo], cli)).toThrow(/Cannot|no longer exists/);
    expect(findAccountProfile([demo, profile({ id: 'P9', name: 'Prod' })], cli).id).toBe('P9');
  });

  it('a retargeted profile is refused with the way out; a deleted one too; no token too', () => {
    const moved = profile({ effectiveBaseUrl: 'https://partner.example.com', environment: 'custom' });
    expect(() => findAccountProfile([moved], intent({}))).toThrow(
      /now points at another service .* Add a profile for merchant 200043, store 300014 at https:\/\/mapi\.yuansfer\.com/,
    );
    expect(() => findAccountProfile([], intent({}))).toThrow(
      /the profile “Live” it was sent with no longer exists/,
    );
    expect(() => findAccountProfile([profile({ hasToken: false })], intent({}))).toThrow(/has no API token/);
    try {
      findAccountProfile([], intent({}));
    } catch (e) {
      expect((e as { details: unknown }).details).toEqual({ cannotCheck: true });
    }
  });

  it('Demo intents follow the Demo profile whatever port its sandbox has today', () => {
    const demoIntent = intent({ environment: 'demo', baseUrl: 'http://127.0.0.1:4000', profileId: 'D' });
    const demo = profile({
      id: 'D',
      environment: 'demo',
      effectiveBaseUrl: 'http://127.0.0.1:5000',
      hasToken: true,
    });
    expect(findAccountProfile([demo], demoIntent).id).toBe('D');
  });
});
