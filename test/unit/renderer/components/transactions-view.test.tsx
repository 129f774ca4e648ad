// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DbContext } from '../../../../renderer/src/db/context';
import { openDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import {
  type Connectivity,
  ConnectivityContext,
} from '../../../../renderer/src/features/transactions/connectivity';
import { TransactionsView } from '../../../../renderer/src/features/transactions/TransactionsView';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge } from '../../../fakes/bridge';
import { freshIdb, makeTx } from '../db/helpers';

// Each test renders into a clean document (no test globals, so no automatic cleanup).
afterEach(cleanup);

describe('the Transactions view (component, typed fake bridge)', () => {
  it("shows one profile's cache only: another profile's rows are neither listed nor counted", async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('view', indexedDB, keyRange);
    const repo = createTransactionsRepo(db);
    await repo.bulkUpsert('P-A', [makeTx(), makeTx(), makeTx()], '2026-11-24T10:00:00.000Z');
    await repo.bulkUpsert('P-B', [makeTx(), makeTx()], '2026-11-24T10:00:00.000Z');
    const fake = createFakeBridge({});
    const connectivity: Connectivity = {
      state: 'online',
      report: () => {},
      recheck: () => {},
      isChecking: false,
    };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <BridgeContext.Provider value={fake.bridge}>
        <DbContext.Provider value={db}>
          <QueryClientProvider client={client}>
            <PrefsProvider>
              <ConnectivityContext.Provider value={connectivity}>
                <TransactionsView profile={{ id: 'P-A', name: 'Shop A', environment: 'demo' }} />
              </ConnectivityContext.Provider>
            </PrefsProvider>
          </QueryClientProvider>
        </DbContext.Provider>
      </BridgeContext.Provider>,
    );
    // The first screen says it is still counting; the final count names the whole cache.
    await waitFor(() =>
      expect(screen.getByTestId('tx-count').parentElement?.textContent).toContain('of 3 cached'),
    );
    expect(screen.getByTestId('tx-count').textContent).toBe('3');
    // Reading the cache asks main for nothing.
    expect(fake.calls.filter((c) => c.channel.startsWith('transactions.'))).toEqual([]);
  });
});
