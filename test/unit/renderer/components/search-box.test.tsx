// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DbContext } from '../../../../renderer/src/db/context';
import { openDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import {
  type Connectivity,
  ConnectivityContext,
} from '../../../../renderer/src/features/transactions/connectivity';
import { SearchBox } from '../../../../renderer/src/features/transactions/SearchBox';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import type { Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { freshIdb, makeTx } from '../db/helpers';
import { intent } from './harness';

function renderBox(fake: ReturnType<typeof createFakeBridge>, state: Connectivity['state'] = 'online') {
  const { indexedDB, keyRange } = freshIdb();
  const db = openDb('search', indexedDB, keyRange);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const connectivity: Connectivity = { state, report: () => {}, recheck: () => {}, isChecking: false };
  const found: string[] = [];
  const wrap = (children: ReactNode) => (
    <BridgeContext.Provider value={fake.bridge}>
      <DbContext.Provider value={db}>
        <QueryClientProvider client={client}>
          <ConnectivityContext.Provider value={connectivity}>{children}</ConnectivityContext.Provider>
        </QueryClientProvider>
      </DbContext.Provider>
    </BridgeContext.Provider>
  );
  render(wrap(<SearchBox profileId="P-A" onFound={(no) => found.push(no)} />));
  return { repo: createTransactionsRepo(db), found };
}

const lookupAnswer = (tx: ReturnType<typeof makeTx>, profileId = 'P-A'): Output<'transactions.lookup'> => ({
  profileId,
  kind: 'transactionNo',
  transaction: tx,
  remainingRefundableMinor: tx.amountMinor,
  fetchedAt: '2026-11-24T10:00:00.000Z',
});

// Each test renders into a clean document (no test globals, so no automatic cleanup).
afterEach(cleanup);

describe('the search box (component, typed fake bridge)', () => {
  it('looks a number up for its profile, stores the answer under that profile and says how it matched', async () => {
    const tx = makeTx();
    const fake = createFakeBridge({ 'transactions.lookup': () => ok(lookupAnswer(tx)) });
    const { repo, found } = renderBox(fake);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), `${tx.transactionNo}{Enter}`);
    expect(await screen.findByTestId('tx-outcome')).toHaveProperty(
      'textContent',
      expect.stringContaining('Found by'),
    );
    expect(fake.calls.find((c) => c.channel === 'transactions.lookup')?.input).toMatchObject({
      profileId: 'P-A',
      query: tx.transactionNo,
    });
    expect(found).toEqual([tx.transactionNo]);
    await waitFor(async () => expect(await repo.byNumbers('P-A', [tx.transactionNo])).toHaveLength(1));
  });

  it('an answer for another profile is not stored and is not shown as found', async () => {
    const tx = makeTx();
    const fake = createFakeBridge({ 'transactions.lookup': () => ok(lookupAnswer(tx, 'P-B')) });
    const { repo, found } = renderBox(fake);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), `${tx.transactionNo}{Enter}`);
    const outcome = await screen.findByTestId('tx-outcome');
    expect(outcome.textContent).not.toContain('Found by');
    expect(found).toEqual([]);
    expect(await repo.byNumbers('P-A', [tx.transactionNo])).toEqual([]);
    expect(await repo.byNumbers('P-B', [tx.transactionNo])).toEqual([]);
  });

  it('offline, it answers from the cache and says the data may be out of date, without asking main', async () => {
    const tx = makeTx();
    const fake = createFakeBridge({});
    const { repo } = renderBox(fake, 'offline');
    await repo.bulkUpsert('P-A', [tx], '2026-11-20T10:00:00.000Z');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), `${tx.transactionNo}{Enter}`);
    const outcome = await screen.findByTestId('tx-outcome');
    expect(outcome.textContent).toContain('may be out of date');
    expect(fake.calls.filter((c) => c.channel === 'transactions.lookup')).toHaveLength(0);
  });

  it('an 18-digit number typed in groups of four is that number: it is looked up, not refused', async () => {
    const tx = makeTx({ transactionNo: '406602966802830859' });
    const fake = createFakeBridge({ 'transactions.lookup': () => ok(lookupAnswer(tx)) });
    const { found } = renderBox(fake);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), '4066 0296 6802 8308 59');
    expect(screen.getByTestId('tx-search-hint').textContent).toContain('transaction or refund number');
    await user.keyboard('{Enter}');
    await screen.findByTestId('tx-outcome');
    expect(fake.calls.find((c) => c.channel === 'transactions.lookup')?.input).toMatchObject({
      query: '406602966802830859',
    });
    expect(found).toEqual(['406602966802830859']);
  });

  it('this desk’s refund reference typed in lower case is found: asked for as sent, with the payment it belongs to', async () => {
    const tx = makeTx();
    const fake = createFakeBridge({
      'refunds.list': () => ok([intent({ id: 'RD0MWX5ABC01XYZ9Q', transactionNo: tx.transactionNo })]),
      'transactions.lookup': () =>
        ok({
          ...lookupAnswer(tx),
          kind: 'refundReference' as const,
          matchedRefundTransactionNo: '900000000000000001',
        }),
    });
    const { found } = renderBox(fake);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Look up a transaction'), 'rd0mwx5abc01xyz9q{Enter}');
    expect((await screen.findByTestId('tx-outcome')).textContent).toContain('Found by refund reference');
    expect(fake.calls.find((c) => c.channel === 'transactions.lookup')?.input).toEqual({
      profileId: 'P-A',
      query: 'RD0MWX5ABC01XYZ9Q',
      candidates: [tx.transactionNo],
    });
    expect(found).toEqual([tx.transactionNo]);
  });
});
