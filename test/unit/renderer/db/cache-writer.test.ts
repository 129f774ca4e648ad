import { MessageChannel } from 'node:worker_threads';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '../../../../shared/domain/transaction';
import { resetLocalCache } from '../../../../renderer/src/db/cache';
import { createCacheWriteHandler } from '../../../../renderer/src/db/cache-write-handler';
import {
  type FromWorker,
  type ToWorker,
  WORKER_CHUNK,
} from '../../../../renderer/src/db/cache-write-protocol';
import {
  createCacheWriter,
  WORKER_MIN_ROWS,
  type WorkerLike,
} from '../../../../renderer/src/db/cache-writer';
import { createCacheOwner, transactionKeys } from '../../../../renderer/src/db/owner';
import { openDb, type RefundDeskDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import type { ListRow } from '../../../../renderer/src/db/list-row';
import { freshIdb, makeTx } from './helpers';

const AT = '2025-03-01T00:00:00.000Z';

/**
 * The worker's side (the same handler cache-write.worker runs) behind a real MessageChannel, so every
 * message is structured-cloned as between a page and its worker; it opens its own connection to the
 * same (fake) IndexedDB database, as the worker does. `seen` records what reached it.
 */
function setup(opts: { workerDb?: (db: RefundDeskDb) => void } = {}) {
  const { indexedDB, keyRange } = freshIdb();
  const db = openDb('w', indexedDB, keyRange);
  const seen: ToWorker[] = [];
  const channels: MessageChannel[] = [];
  const createWorker = (): WorkerLike => {
    const ch = new MessageChannel();
    channels.push(ch);
    const handler = createCacheWriteHandler({
      open: (name) => {
        const own = openDb(name, indexedDB, keyRange);
        opts.workerDb?.(own);
        return own;
      },
      post: (m: FromWorker) => ch.port2.postMessage(m),
    });
    ch.port2.on('message', (m: ToWorker) => {
      seen.push(m);
      handler.onMessage(m);
    });
    return {
      postMessage: (m) => ch.port1.postMessage(m),
      addEventListener: (type: 'message' | 'error', fn: (e: { data: FromWorker }) => void) => {
        if (type === 'message') ch.port1.on('message', (data: FromWorker) => fn({ data }));
      },
      terminate: () => ch.port1.close(),
    };
  };
  const close = () => {
    for (const ch of channels) {
      ch.port1.close();
      ch.port2.close();
    }
  };
  return { db, seen, createWorker, close, repo: createTransactionsRepo(db), indexedDB, keyRange };
}

/** Makes a put fail as a full disk does whenever `full(table, rows)` says so (rows: the put's count). */
function fullDiskWhen(db: RefundDeskDb, full: (table: string, rows: number) => boolean) {
  db.use({
    stack: 'dbcore',
    name: 'full-disk',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (req) =>
            req.type === 'put' && full(name, req.values.length)
              ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
              : table.mutate(req),
        };
      },
    }),
  });
}

/** Makes puts into `transactions` fail as a full disk does once more than `fits` rows would be stored. */
function fullDiskAfter(db: RefundDeskDb, fits: number) {
  let stored = 0;
  fullDiskWhen(db, (table, rows) => table === 'transactions' && (stored += rows) > fits);
}

type IdbConnection = ReturnType<RefundDeskDb['backendDB']>;
type IdbTransaction = ReturnType<IdbConnection['transaction']>;

/**
 * Makes the worker's writes (raw IndexedDB through the connection Dexie opened) fail as a full disk
 * does: the transaction of a put into `transactions` for which `full()` says so aborts with
 * QuotaExceededError, as Chromium's does when the disk or the quota runs out. `seen` collects every
 * read-write transaction the worker opened, `committed` those it committed explicitly.
 */
function idbFullWhen(
  db: RefundDeskDb,
  full: () => boolean,
  seen: IdbTransaction[] = [],
  committed = new Set<IdbTransaction>(),
) {
  const backend = db.backendDB.bind(db);
  db.backendDB = () => {
    const idb = backend();
    const transaction = idb.transaction.bind(idb);
    return Object.assign(Object.create(idb) as IdbConnection, {
      transaction: (...args: Parameters<IdbConnection['transaction']>) => {
        const tx = transaction(...args);
        seen.push(tx);
        const commit = tx.commit.bind(tx);
        tx.commit = () => {
          committed.add(tx);
          commit();
        };
        const objectStore = tx.objectStore.bind(tx);
        let aborting = false;
        tx.objectStore = (name: string) => {
          const store = objectStore(name);
          if (name !== 'transactions') return store;
          const put = store.put.bind(store);
          store.put = (value: unknown) => {
            if (!aborting && full()) {
              aborting = true;
              // fake-indexeddb's own abort, with the error a full disk gives.
              queueMicrotask(() =>
                (tx as unknown as { _abort(name: string): void })._abort('QuotaExceededError'),
              );
            }
            return put(value);
          };
          return store;
        };
        return tx;
      },
    });
  };
}

/** The worker's puts fail as a full disk does once more than `fits` rows would be stored. */
function idbFullAfter(db: RefundDeskDb, fits: number) {
  let stored = 0;
  idbFullWhen(db, () => (stored += 1) > fits);
}

const many = (n: number, over: Partial<Transaction> = {}) => Array.from({ length: n }, () => makeTx(over));

describe('bulk writes of the cache in a worker', () => {
  it('a large write is sent in slices to the worker, written in chunks there, and every row lands', async () => {
    const s = setup();
    const writer = createCacheWriter(s.db, s.createWorker);
    const txs = many(4_500);
    const progress: number[] = [];
    const out = await writer.write('p1', txs, AT, { chunkSize: 2_000, onProgress: (n) => progress.push(n) });
    expect(out).toEqual({ written: 4_500, cancelled: false });
    expect(progress).toEqual([2_000, 4_000, 4_500]);
    const slices = s.seen.filter((m) => m.kind === 'rows');
    expect(slices.map((m) => (m.kind === 'rows' ? [m.rows.length, m.last] : []))).toEqual([
      [2_000, false],
      [2_000, false],
      [500, true],
    ]);
    const stored = await s.repo.all('p1');
    expect(stored).toHaveLength(4_500);
    expect(new Set(stored.map((r) => r.transactionNo))).toEqual(new Set(txs.map((t) => t.transactionNo)));
    expect(stored.every((r) => r.profileId === 'p1' && r.fetchedAt === AT)).toBe(true);
    s.close();
  });

  it("the worker's raw writes store exactly the records and keys the repository stores on the page, refunds included, in relaxed transactions committed at once", async () => {
    const opened: IdbTransaction[] = [];
    const committed = new Set<IdbTransaction>();
    const s = setup({ workerDb: (own) => idbFullWhen(own, () => false, opened, committed) });
    const txs = many(WORKER_MIN_ROWS + 10).map((t, i) =>
      i % 3 === 0
        ? {
            ...t,
            refunds: [
              {
                refundTransactionNo: `9${t.transactionNo}`,
                refundReference: `R-${i}`,
                refundAmountMinor: 100,
                currency: 'USD' as const,
                status: 'success' as const,
              },
            ],
          }
        : t,
    );
    expect(await createCacheWriter(s.db, s.createWorker).write('p1', txs, AT, { chunkSize: 200 })).toEqual({
      written: txs.length,
      cancelled: false,
    });
    expect(s.seen.some((m) => m.kind === 'rows')).toBe(true);
    expect(opened.map((t) => t.durability)).toEqual(['relaxed', 'relaxed', 'relaxed']);
    // Each chunk commits as soon as its puts are in, not when the worker next handles its events.
    expect(opened.every((t) => committed.has(t))).toBe(true);

    // The same rows through the repository (Dexie) into a database of their own.
    const reference = openDb('reference', s.indexedDB, s.keyRange);
    await createTransactionsRepo(reference).bulkUpsert('p1', txs, AT);
    expect(await s.db.transactions.toArray()).toEqual(await reference.transactions.toArray());
    expect(await s.db.refunds.toArray()).toEqual(await reference.refunds.toArray());
    expect(await s.db.refunds.count()).toBe(Math.ceil(txs.length / 3));
    // Found offline by a refund's number, through the index the worker's write filled.
    const withRefund = txs[3] as Transaction;
    expect(await s.repo.findLocal('p1', `9${withRefund.transactionNo}`)).toMatchObject({
      kind: 'refundTransactionNo',
      transaction: { transactionNo: withRefund.transactionNo },
    });
    s.close();
  });

  it('a row IndexedDB refuses fails its chunk with its own error; earlier chunks stay, nothing of that chunk does', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('bad', indexedDB, keyRange);
    const replies: FromWorker[] = [];
    const handler = createCacheWriteHandler({ open: () => db, post: (m) => replies.push(m) });
    const rows = many(4);
    // A value structured clone cannot copy (never sent by the page, whose postMessage would refuse it).
    const bad = { ...rows[3], note: () => 'not data' } as unknown as Transaction;
    handler.onMessage({
      kind: 'rows',
      id: 1,
      dbName: 'bad',
      profileId: 'p1',
      fetchedAt: AT,
      chunkSize: 2,
      rows: [rows[0], rows[1], rows[2], bad] as Transaction[],
      last: true,
    });
    await vi.waitFor(() => expect(replies.at(-1)?.kind).toBe('failed'));
    expect(replies.at(-1)).toMatchObject({ kind: 'failed', id: 1, written: 2, name: 'DataCloneError' });
    const stored = await createTransactionsRepo(db).all('p1');
    expect(stored.map((r) => r.transactionNo).sort()).toEqual(
      [rows[0], rows[1]].map((r) => (r as Transaction).transactionNo).sort(),
    );
  });

  it('a small write stays on the page; writes land in call order whichever way each goes', async () => {
    const s = setup();
    const writer = createCacheWriter(s.db, s.createWorker);
    const txs = many(WORKER_MIN_ROWS + 100);
    const first = txs[0] as Transaction;
    // Not awaited in between: the later, small fetch of the same payment must be the one kept.
    const big = writer.write('p1', txs, '2025-03-01T00:00:00.000Z');
    const small = writer.write('p1', [{ ...first, status: 'closed' }], '2025-03-01T00:01:00.000Z');
    await Promise.all([big, small]);
    expect(
      s.seen.filter((m) => m.kind === 'rows').flatMap((m) => (m.kind === 'rows' ? m.rows : [])),
    ).toHaveLength(txs.length);
    const row = await s.db.transactions.get(['p1', first.transactionNo]);
    expect(row?.status).toBe('closed');
    expect(row?.fetchedAt).toBe('2025-03-01T00:01:00.000Z');
    s.close();
  });

  it('a cancelled write stops after the chunk being written and says how many rows (from the start) are stored', async () => {
    const s = setup();
    const writer = createCacheWriter(s.db, s.createWorker);
    const txs = many(6_000);
    const ctl = new AbortController();
    const out = await writer.write('p1', txs, AT, {
      chunkSize: 1_000,
      signal: ctl.signal,
      onProgress: () => ctl.abort(),
    });
    expect(out.cancelled).toBe(true);
    expect(out.written).toBeGreaterThanOrEqual(1_000);
    expect(out.written).toBeLessThan(6_000);
    const stored = await s.repo.all('p1');
    expect(new Set(stored.map((r) => r.transactionNo))).toEqual(
      new Set(txs.slice(0, out.written).map((t) => t.transactionNo)),
    );
    s.close();
  });

  it('when no worker can be started, or the worker dies, the write is done on the page instead', async () => {
    const s = setup();
    const cannot = createCacheWriter(s.db, () => {
      throw new Error('refused by the CSP');
    });
    expect(await cannot.write('p1', many(700), AT)).toEqual({ written: 700, cancelled: false });
    expect(cannot.usesWorker).toBe(false);

    let errorHandler: (() => void) | undefined;
    const dies = createCacheWriter(s.db, () => ({
      postMessage: () => queueMicrotask(() => errorHandler?.()),
      addEventListener: (type: 'message' | 'error', fn: (e: never) => void) => {
        if (type === 'error') errorHandler = () => (fn as (e: unknown) => void)(new Event('error'));
      },
    }));
    expect(await dies.write('p2', many(900), AT)).toEqual({ written: 900, cancelled: false });
    expect(dies.usesWorker).toBe(false);
    expect(await s.repo.all('p1')).toHaveLength(700);
    expect(await s.repo.all('p2')).toHaveLength(900);
    s.close();
  });

  it('a full disk fails with the same clear words in the worker as on the page, and the owner shows what was stored', async () => {
    // The worker's first chunk fits; the disk is full from the second on (IndexedDB's own error).
    const s = setup({ workerDb: (own) => idbFullAfter(own, WORKER_CHUNK) });
    const client = new QueryClient();
    client.setQueryData(transactionKeys.rows('p1'), [] as ListRow[]);
    const owner = createCacheOwner(s.db, client, createCacheWriter(s.db, s.createWorker));
    const txs = many(WORKER_CHUNK + 500);
    const inWorker = await owner.store('p1', txs, AT).catch((e: unknown) => e);
    expect(inWorker).toMatchObject({
      name: 'AppError',
      details: { storage: 'full', written: expect.any(Number) },
    });
    expect((inWorker as Error).message).toMatch(
      new RegExp(
        `could not store ${(WORKER_CHUNK + 500).toLocaleString('en-US')} payments: .*disk.* is full.* ${WORKER_CHUNK.toLocaleString('en-US')} were stored`,
      ),
    );
    const written = (inWorker as { details: { written: number } }).details.written;
    expect(written).toBe(WORKER_CHUNK);
    expect(client.getQueryData<ListRow[]>(transactionKeys.rows('p1'))).toHaveLength(written);
    expect(await s.repo.all('p1')).toHaveLength(written);

    const pageDb = openDb('page', s.indexedDB, s.keyRange);
    fullDiskAfter(pageDb, 0);
    const onPage = await createCacheWriter(pageDb)
      .write('p2', many(3), AT)
      .catch((e: unknown) => e);
    expect(onPage).toMatchObject({ name: 'AppError', details: { storage: 'full', written: 0 } });
    expect((onPage as Error).message).toMatch(/could not store 3 payments: .*disk.* is full/);
    s.close();
  });

  it('a slice that reaches the worker after its write failed is dropped, and the next write is not held up behind it', async () => {
    const { indexedDB, keyRange } = freshIdb();
    let failNext = true;
    const db = openDb('h', indexedDB, keyRange);
    idbFullWhen(db, () => {
      if (!failNext) return false;
      failNext = false;
      return true;
    });
    const replies: FromWorker[] = [];
    const handler = createCacheWriteHandler({ open: () => db, post: (m) => replies.push(m) });
    const slice = (id: number, rows: Transaction[], last: boolean): ToWorker => ({
      kind: 'rows',
      id,
      dbName: 'h',
      profileId: 'p1',
      fetchedAt: AT,
      chunkSize: 2,
      rows,
      last,
    });
    handler.onMessage(slice(1, many(2), false));
    await vi.waitFor(() => expect(replies.at(-1)).toMatchObject({ kind: 'failed', id: 1, written: 0 }));
    // Sent by the page before it heard of the failure.
    handler.onMessage(slice(1, many(2), false));
    const next = many(3);
    handler.onMessage(slice(2, next, true));
    await vi.waitFor(() =>
      expect(replies.at(-1)).toEqual({ kind: 'done', id: 2, written: 3, cancelled: false }),
    );
    expect(await createTransactionsRepo(db).all('p1')).toHaveLength(3);
  });

  it("the worker's open connection gives way to a cache reset, and its next write opens the new cache", async () => {
    const s = setup();
    const writer = createCacheWriter(s.db, s.createWorker);
    await writer.write('p1', many(WORKER_MIN_ROWS), AT);
    expect(await s.repo.all('p1')).toHaveLength(WORKER_MIN_ROWS);
    // Deleting the database waits for every connection to close: a worker holding on would hang here.
    await resetLocalCache(s.db);
    expect(await s.repo.all('p1')).toHaveLength(0);
    await writer.write('p1', many(WORKER_MIN_ROWS + 1), AT);
    expect(await s.repo.all('p1')).toHaveLength(WORKER_MIN_ROWS + 1);
    s.close();
  });

  it('the owner awaits the worker, then merges the written rows into a loaded list (and only those when cancelled)', async () => {
    const s = setup();
    const client = new QueryClient();
    client.setQueryData(transactionKeys.rows('p1'), [] as ListRow[]);
    const owner = createCacheOwner(s.db, client, createCacheWriter(s.db, s.createWorker));
    const txs = many(1_200);
    expect(await owner.store('p1', txs, AT)).toEqual({ written: 1_200, cancelled: false });
    expect(client.getQueryData<ListRow[]>(transactionKeys.rows('p1'))).toHaveLength(1_200);
    expect(client.getQueryData(transactionKeys.rows('p2'))).toBeUndefined();

    const ctl = new AbortController();
    ctl.abort();
    client.setQueryData(transactionKeys.rows('p2'), [] as ListRow[]);
    expect(await owner.store('p2', many(800), AT, { signal: ctl.signal })).toEqual({
      written: 0,
      cancelled: true,
    });
    expect(client.getQueryData<ListRow[]>(transactionKeys.rows('p2'))).toEqual([]);
    expect(await s.repo.all('p2')).toHaveLength(0);
    s.close();
  });
});
