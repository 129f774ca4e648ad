/**
 * Bench-only page code, bundled by the renderer bench (esbuild) and injected into the app's page in
 * Chromium, so the app's own write path (the cache owner's writer: the built bulk-write worker over
 * Dexie) runs where it runs in the app, beside raw IndexedDB floors. Nothing here ships: the app's build never imports this file.
 */
import { createCacheWriter } from '../../../renderer/src/db/cache-writer';
import { openDb, SCHEMA_V4 } from '../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../renderer/src/db/transactions-repo';
import type { Transaction } from '../../../shared/domain/transaction';
import type { CsvColumn } from '../../../shared/csv/writer';
import { formatMinor } from '../../../shared/domain/money';
import { type ExportWorker, runExportJob } from '../../../renderer/src/lib/export-job';
import { COLUMNS, exportColumns } from '../../../renderer/src/features/transactions/columns';
import type { ListRow } from '../../../renderer/src/db/list-row';
import { SERVICE_ZONE } from '../../../shared/domain/zones';
import { makeListRows } from '../peers/list-rows';

const VENDORS = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
const CURRENCIES = ['USD', 'CNY', 'GBP', 'HKD', 'KRW'] as const;
const STATUSES = ['success', 'success', 'success', 'closed', 'failed'] as const;
const BASE = Date.UTC(2026, 7, 1);

/** A busy month of one merchant: n payments a minute apart, references BENCH-0 … BENCH-(n-1). */
function makeTxs(n: number): Transaction[] {
  const out: Transaction[] = [];
  for (let i = 0; i < n; i += 1) {
    const at = new Date(BASE + i * 60_000).toISOString();
    out.push({
      transactionNo: String(300000000000000000n + BigInt(i)),
      reference: `BENCH-${i}`,
      amountMinor: 100 + ((i * 7919) % 500_000),
      currency: CURRENCIES[i % 5] ?? 'USD',
      settleCurrency: 'USD',
      status: STATUSES[i % 5] ?? 'success',
      vendor: VENDORS[i % 5] ?? 'alipay',
      transactionType: 'payment',
      createdAt: at,
      paidAt: at,
      refunds: [],
    });
  }
  return out;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((res, rej) => {
    r.onsuccess = () => res(r.result);
    r.onerror = () => rej(r.error);
  });
}

function deleteDb(name: string): Promise<void> {
  return new Promise((res, rej) => {
    const r = indexedDB.deleteDatabase(name);
    r.onsuccess = () => res();
    r.onerror = () => rej(r.error);
    r.onblocked = () => rej(new Error(`delete of ${name} blocked`));
  });
}

/** Longest main-thread task (ms) while `work` runs, from the 'longtask' entries (0 when none ≥ 50 ms). */
async function withLongestTask<T>(work: () => Promise<T>): Promise<{ value: T; longestTaskMs: number }> {
  let longest = 0;
  const note = (list: PerformanceEntryList) => {
    for (const e of list) longest = Math.max(longest, e.duration);
  };
  const obs = new PerformanceObserver((l) => note(l.getEntries()));
  obs.observe({ type: 'longtask', buffered: false });
  const value = await work();
  // Entries arrive after their task ends: give the last one a turn to be delivered.
  await new Promise((r) => setTimeout(r, 100));
  note(obs.takeRecords());
  obs.disconnect();
  return { value, longestTaskMs: longest };
}

/** Dexie's "[a+b], [c+d], e" index spec as IndexedDB key paths. */
function keyPathOf(spec: string): string | string[] {
  const s = spec.trim();
  return s.startsWith('[') ? s.slice(1, -1).split('+') : s;
}

/** Opens an empty raw database whose transactions store has the app's indexes (SCHEMA_V4). */
async function openRaw(name: string): Promise<IDBDatabase> {
  await deleteDb(name);
  const r = indexedDB.open(name, 1);
  r.onupgradeneeded = () => {
    const [primary = '', ...indexes] = SCHEMA_V4.transactions.split(',');
    const store = r.result.createObjectStore('transactions', { keyPath: keyPathOf(primary) });
    for (const spec of indexes) store.createIndex(spec.trim(), keyPathOf(spec));
  };
  return request(r);
}

const FETCHED_AT = '2026-09-01T00:00:00.000Z';

// The same columns as the Node export figures (results.bench.ts).
const EXPORT_COLUMNS: CsvColumn<Transaction>[] = [
  { header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo },
  { header: 'Reference', kind: 'id', value: (r) => r.reference },
  { header: 'Amount', kind: 'amount', value: (r) => formatMinor(r.amountMinor, r.currency) },
  { header: 'Currency', kind: 'text', value: (r) => r.currency },
  { header: 'Status', kind: 'text', value: (r) => r.status },
];

const bench = {
  rows: [] as Transaction[],
  listRows: [] as ListRow[],

  prepare(n: number): void {
    bench.rows = makeTxs(n);
  },

  /**
   * The app's write path: the writer the cache owner awaits (cache-writer), with the app's built worker
   * (`workerUrl`, from out/renderer/assets), started afresh each run as on the app's first bulk write.
   */
  async appWrite(dbName: string, profileId: string, chunkSize: number, workerUrl: string) {
    await deleteDb(dbName);
    const db = openDb(dbName);
    await db.open();
    let worker: Worker | undefined;
    const writer = createCacheWriter(db, () => (worker = new Worker(workerUrl, { type: 'module' })));
    const r = await withLongestTask(async () => {
      const t0 = performance.now();
      const out = await writer.write(profileId, bench.rows, FETCHED_AT, { chunkSize });
      if (out.written !== bench.rows.length || !writer.usesWorker)
        throw new Error(`the worker wrote ${out.written} rows (worker used: ${writer.usesWorker})`);
      return performance.now() - t0;
    });
    worker?.terminate();
    db.close();
    await deleteDb(dbName);
    return { ms: r.value, longestTaskMs: r.longestTaskMs };
  },

  /** The floor: raw IndexedDB, the same indexes, the same records, one transaction. */
  async rawWrite(dbName: string, profileId: string) {
    const db = await openRaw(dbName);
    const r = await withLongestTask(async () => {
      const t0 = performance.now();
      await new Promise<void>((res, rej) => {
        const tx = db.transaction('transactions', 'readwrite');
        const store = tx.objectStore('transactions');
        for (const t of bench.rows) store.put({ ...t, profileId, fetchedAt: FETCHED_AT });
        tx.oncomplete = () => res();
        tx.onerror = () => rej(tx.error);
      });
      return performance.now() - t0;
    });
    db.close();
    await deleteDb(dbName);
    return { ms: r.value, longestTaskMs: r.longestTaskMs };
  },

  /**
   * The app's Excel export of the prepared rows, through its export worker (the built asset at
   * `workerUrl`), with the longest main-thread task while it runs.
   */
  async exportXlsx(workerUrl: string) {
    const r = await withLongestTask(async () => {
      const t0 = performance.now();
      const file = await runExportJob(
        'xlsx',
        EXPORT_COLUMNS,
        bench.rows,
        { csv: {}, xlsx: { sheetName: 'Transactions' } },
        () => new Worker(workerUrl, { type: 'module' }) as unknown as ExportWorker,
      );
      if (!file || file.size < 1000) throw new Error('the export wrote no workbook');
      return performance.now() - t0;
    });
    return { ms: r.value, longestTaskMs: r.longestTaskMs };
  },

  /** The list's rows for the exports bench (the view's rows, held as the list holds them). */
  prepareListRows(n: number): number {
    bench.listRows = makeListRows(n);
    return bench.listRows.length;
  },

  /**
   * The Transactions view's export of the prepared list rows, all 15 of its columns, through the app's
   * export worker (the built asset at `workerUrl`), until the file (a Blob) is ready to be saved.
   */
  async exportView(kind: 'csv' | 'xlsx', workerUrl: string) {
    const columns = exportColumns(COLUMNS);
    const zone = { iana: SERVICE_ZONE.iana, label: SERVICE_ZONE.label };
    const t0 = performance.now();
    const file = await runExportJob(
      kind,
      columns,
      bench.listRows,
      { csv: { zone }, xlsx: { sheetName: 'Transactions', zone, dateFormat: 'yyyy-mm-dd hh:mm:ss' } },
      () => new Worker(workerUrl, { type: 'module' }) as unknown as ExportWorker,
    );
    const ms = performance.now() - t0;
    if (!file) throw new Error('the export was cancelled');
    return { ms, size: file.size, columns: columns.length };
  },

  /** The floor of the export's longest task: the longest main-thread task while the page just waits. */
  async idleLongest(ms: number) {
    const r = await withLongestTask(() => new Promise((res) => setTimeout(res, ms)));
    return r.longestTaskMs;
  },

  /** Fills the app's own cache (its database, its repository) for the list figures. */
  async seedApp(profileId: string) {
    const db = openDb();
    await db.open();
    await createTransactionsRepo(db).bulkUpsert(profileId, bench.rows, FETCHED_AT);
    db.close();
    bench.rows = [];
  },

  /** The floor of reading the list: one plain getAll() of the profile's rows from the app's database. */
  async getAll(profileId: string) {
    const t0 = performance.now();
    const db = await request(indexedDB.open('refund-desk'));
    const tx = db.transaction('transactions', 'readonly');
    const rows = await request(tx.objectStore('transactions').index('profileId').getAll(profileId));
    const ms = performance.now() - t0;
    db.close();
    return { ms, rows };
  },

  /**
   * The floor of a text filter: one plain-JS pass of `includes` over the same rows' ids and references,
   * lower-cased beforehand (as the app's list rows are), counting the matches.
   */
  filterFloor(rows: ReadonlyArray<{ transactionNo: string; reference?: string }>, text: string) {
    const hay = rows.map((r) => `${r.transactionNo} ${r.reference ?? ''}`.toLowerCase());
    const q = text.toLowerCase();
    const t0 = performance.now();
    let n = 0;
    for (const h of hay) if (h.includes(q)) n += 1;
    return { ms: performance.now() - t0, n };
  },
};

(globalThis as unknown as { __rdBench: typeof bench }).__rdBench = bench;
