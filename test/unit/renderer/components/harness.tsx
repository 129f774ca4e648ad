import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DbContext } from '../../../../renderer/src/db/context';
import { createCacheOwner } from '../../../../renderer/src/db/owner';
import { openDb, type RefundDeskDb } from '../../../../renderer/src/db/schema';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { type ProfilesList } from '../../../../renderer/src/features/profiles/queries';
import { RefundDialogContext } from '../../../../renderer/src/features/refunds/dialog-context';
import {
  type Connectivity,
  ConnectivityContext,
} from '../../../../renderer/src/features/transactions/connectivity';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Bridge } from '../../../../shared/ipc/contract';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { freshIdb } from '../db/helpers';

/**
 * The providers the app mounts above every screen, over a fresh in-memory cache, the given (fake)
 * bridge and a query client of the test's own. `cache` is the same owner the screens use.
 */
export function harness(bridge: Bridge, name = 'harness') {
  const { indexedDB, keyRange } = freshIdb();
  const db: RefundDeskDb = openDb(name, indexedDB, keyRange);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const connectivity: Connectivity = {
    state: 'online',
    report: () => {},
    recheck: () => {},
    isChecking: false,
  };
  const dialog = { open: () => {} };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <BridgeContext.Provider value={bridge}>
      <DbContext.Provider value={db}>
        <QueryClientProvider client={client}>
          <PrefsProvider>
            <ConnectivityContext.Provider value={connectivity}>
              <RefundDialogContext.Provider value={dialog}>{children}</RefundDialogContext.Provider>
            </ConnectivityContext.Provider>
          </PrefsProvider>
        </QueryClientProvider>
      </DbContext.Provider>
    </BridgeContext.Provider>
  );
  return { db, client, wrapper, cache: createCacheOwner(db, client) };
}

/** Two profiles, the first (a Demo one) active: what `profiles.list` answers in these tests. */
export function twoProfiles(): ProfilesList {
  const base = {
    merchantNo: '200043',
    storeNo: '300014',
    ipnEnabled: false,
    hasToken: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
  return {
    activeProfileId: 'P-A',
    profiles: [
      { ...base, id: 'P-A', name: 'Shop A', environment: 'demo' },
      { ...base, id: 'P-B', name: 'Shop B', environment: 'production' },
    ],
    demoAvailable: true,
    secretStorage: { backend: 'memory', persistent: false, requiresOptIn: false },
    notices: [],
  };
}

/** A promise the test settles when it wants (a reply still on its way). */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A refund intent of this desk as main lists it. */
export function intent(over: Partial<IntentView>): IntentView {
  return {
    id: 'RD0001',
    profileId: 'P-A',
    profileName: 'Shop A',
    environment: 'demo',
    baseUrl: 'http://127.0.0.1:4100',
    merchantNo: '200043',
    storeNo: '300014',
    transactionNo: '297553638300708562',
    amountMinor: 100,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: '',
    operator: 'ana',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:05.000Z',
    state: 'succeeded',
    checks: 0,
    attempts: 1,
    ...over,
  };
}
