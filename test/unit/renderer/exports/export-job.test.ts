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
    const bytes = await runExportJob('csv', columns, rows, opts, () => worker);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes!)).toBe(
      writeCsv(columns, rows, { zone }),
    );
    // Read and posted in several chunks (the page yields between them), then ended once.
    expect(log.received.filter((t) => t === 'rows').length).toBeGreaterThan(1);
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
    const bytes = await runExportJob('xlsx', columns, rows, opts, () => worker);
    stop();
    const direct = await writeXlsx(columns, rows, opts.xlsx);
    expect(readXlsx(bytes!).cells).toEqual(readXlsx(direct).cells);
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

  it('say the time left the way people read it', () => {
    expect(timeLeftLabel(undefined)).toBe('estimating…');
    expect(timeLeftLabel(200)).toBe('about 1 s left');
    expect(timeLeftLabel(4_400)).toBe('about 4 s left');
    expect(timeLeftLabel(150_000)).toBe('about 3 min left');
  });
});
