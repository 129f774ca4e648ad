import { describe, expect, it } from 'vitest';
import { writeCsv } from '../../../../shared/csv/writer';
import { writeXlsx } from '../../../../shared/csv/xlsx';
import {
  exportJob,
  type ExportWorker,
  runExportJob,
  timeLeftLabel,
} from '../../../../renderer/src/lib/export-job';
import { exportWork, type ExportMessage, type ExportReply } from '../../../../renderer/src/lib/export-work';
import { readXlsx } from '../../../fakes/xlsx-reader';
import { EXPORT_ROW_COLUMNS, type ExportRow } from '../../../fakes/export-rows';

type Row = ExportRow;
const columns = EXPORT_ROW_COLUMNS;
const rows: Row[] = Array.from({ length: 12_000 }, (_, i) => ({
  id: String(297553638300700000n + BigInt(i)),
  amount: `${i}.${String(i % 100).padStart(2, '0')}`,
  at: new Date(Date.UTC(2025, 2, 1) + i * 61_000).toISOString(),
  note: i % 7 === 0 ? `=cmd${i}` : `note, "${i}"`,
}));
const zone = { iana: 'Europe/Berlin', label: 'Europe/Berlin' };
const opts = { csv: { zone }, xlsx: { sheetName: 'Transactions', zone } };

/**
 * A worker that runs the real export work in this process, delivering messages asynchronously both
 * ways as a real one does (structured clone included), and records what the page did to it.
 */
function inProcessWorker() {
  const listeners: {
    message: ((e: { data: ExportReply }) => void)[];
    error: ((e: { message?: string }) => void)[];
  } = {
    message: [],
    error: [],
  };
  const log = { terminated: false, received: [] as ExportMessage['type'][] };
  let queue = Promise.resolve();
  const work = exportWork((reply) => {
    if (log.terminated) return;
    const copy = structuredClone(reply);
    setTimeout(() => listeners.message.forEach((l) => l({ data: copy })), 0);
  });
  const worker: ExportWorker = {
    postMessage(msg) {
      const copy = structuredClone(msg);
      log.received.push(copy.type);
      queue = queue.then(() => (log.terminated ? undefined : work(copy)));
    },
    addEventListener(type: 'message' | 'error', fn: never) {
      listeners[type].push(fn);
    },
    terminate() {
      log.terminated = true;
    },
  };
  return { worker, log, listeners };
}

describe('exports written in a worker', () => {
  it('give the same CSV bytes as writing in the page', async () => {
    const { worker, log } = inProcessWorker();
    const file = await runExportJob('csv', columns, rows, opts, () => worker);
    const bytes = new Uint8Array(await file!.arrayBuffer());
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      writeCsv(columns, rows, { zone }),
    );
    // Rendered and posted as text in several chunks (the page yields between them; one string per
    // chunk is a fraction of the cost of copying its cells to the worker), then ended once.
    expect(log.received.filter((t) => t === 'lines').length).toBeGreaterThan(1);
    expect(log.received).not.toContain('rows');
    expect(log.received.filter((t) => t === 'end')).toHaveLength(1);
    expect(log.terminated).toBe(true);
    expect(exportJob.snapshot()).toBeNull();
  });

  it('give the same workbook cells, with progress that only grows until the job is gone', async () => {
    const { worker } = inProcessWorker();
    const seen: number[] = [];
    const stop = exportJob.subscribe(() => {
      const s = exportJob.snapshot();
      if (s) seen.push(s.fraction);
    });
    const file = await runExportJob('xlsx', columns, rows, opts, () => worker);
    stop();
    const direct = await writeXlsx(columns, rows, opts.xlsx);
    expect(readXlsx(new Uint8Array(await file!.arrayBuffer())).cells).toEqual(readXlsx(direct).cells);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(0.4);
    expect(Math.max(...seen)).toBeLessThan(1);
    expect(exportJob.snapshot()).toBeNull();
  });

  it('can be cancelled while the rows are read: nothing is written, the worker is stopped', async () => {
    const { worker, log } = inProcessWorker();
    const job = runExportJob('xlsx', columns, rows, opts, () => worker);
    // A second export waits for the first to end.
    await expect(runExportJob('csv', columns, rows, opts, () => inProcessWorker().worker)).rejects.toThrow(
      /still being written/,
    );
    exportJob.snapshot()!.cancel();
    await expect(job).resolves.toBeNull();
    expect(log.terminated).toBe(true);
    expect(log.received).not.toContain('end');
    expect(exportJob.snapshot()).toBeNull();
  });

  it('report a worker that fails, and let the next export run', async () => {
    const { worker, listeners } = inProcessWorker();
    const job = runExportJob('xlsx', columns, rows, opts, () => worker);
    listeners.error.forEach((l) => l({ message: 'out of memory' }));
    await expect(job).rejects.toThrow('out of memory');
    expect(exportJob.snapshot()).toBeNull();
    const next = inProcessWorker();
    await expect(
      runExportJob('csv', columns, rows.slice(0, 2), opts, () => next.worker),
    ).resolves.not.toBeNull();
  });

  it('read rows only as fast as the worker writes them: never more than a few chunks ahead', async () => {
    const posted: number[] = [];
    let onMessage: (e: { data: ExportReply }) => void = () => {};
    const worker: ExportWorker = {
      postMessage: (msg) => void ((msg.type === 'rows' || msg.type === 'lines') && posted.push(msg.count)),
      addEventListener: (type: 'message' | 'error', fn: never) => {
        if (type === 'message') onMessage = fn;
      },
      terminate: () => undefined,
    };
    const many = Array.from({ length: 60_000 }, (_, i) => rows[i % rows.length]!);
    const job = runExportJob('csv', columns, many, opts, () => worker);
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i += 1) await new Promise((r) => setTimeout(r, 0));
    };
    const sum = () => posted.reduce((a, n) => a + n, 0);
    // The worker has written nothing yet: the page stops after a few chunks, however long it waits.
    await ticks(40);
    const ahead = sum();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThanOrEqual(10_000);
    await ticks(40);
    expect(sum()).toBe(ahead);
    // The worker catches up: the page reads on, again only so far ahead.
    onMessage({ data: { type: 'progress', written: ahead, total: many.length } });
    await ticks(40);
    expect(sum()).toBeGreaterThan(ahead);
    expect(sum() - ahead).toBeLessThanOrEqual(10_000);
    exportJob.snapshot()!.cancel();
    await expect(job).resolves.toBeNull();
  });

  it('have the worker answer every chunk with the rows written so far', async () => {
    const replies: ExportReply[] = [];
    const work = exportWork((r) => replies.push(r));
    // By column, as the page sends them: ids, amounts, nothing, a text.
    const cells = (n: number) => ({
      count: n,
      columns: [
        Array.from({ length: n }, (_, i) => String(i)),
        Array(n).fill('1.00'),
        Array(n).fill(null),
        Array(n).fill('x'),
      ],
    });
    const start: ExportMessage = {
      type: 'start',
      kind: 'xlsx',
      columns: columns.map((c) => ({ header: c.header, kind: c.kind })),
      total: 3000,
      csv: {},
      xlsx: { sheetName: 'S' },
    };
    void work(start);
    void work({ type: 'rows', ...cells(1000) });
    void work({ type: 'rows', ...cells(2000) });
    await work({ type: 'end' });
    expect(replies.map((r) => (r.type === 'progress' ? r.written : r.type))).toEqual([1000, 3000, 'done']);
  });

  it('say the time left the way people read it', () => {
    expect(timeLeftLabel(undefined)).toBe('estimating…');
    expect(timeLeftLabel(200)).toBe('about 1 s left');
    expect(timeLeftLabel(4_400)).toBe('about 4 s left');
    expect(timeLeftLabel(150_000)).toBe('about 3 min left');
  });
});
