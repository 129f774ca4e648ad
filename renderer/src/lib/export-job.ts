/**
 * Runs one export at a time in the export worker, with progress, an estimate of the time left and a
 * way to cancel; ExportButtons shows it. The page reads each row's cell values in chunks, yielding
 * between chunks so the window stays responsive, and posts them to the worker (a CSV's as the chunk's
 * rendered lines), which writes each into the file as it comes and says how many rows it has written. The page stays at most a few chunks
 * ahead of it, so neither side ever holds more than those (a 1M-row export once queued every row's
 * cells at the worker and ran out of memory).
 */
import { type CsvColumn, csvLines, type CsvOptions } from '../../../shared/csv/writer';
import type { XlsxOptions } from '../../../shared/csv/xlsx';
import type { CellValue, ExportMessage, ExportReply } from './export-work';

export interface ExportJobState {
  /** Tells one job from the next. */
  id: number;
  kind: 'csv' | 'xlsx';
  /** 0…1: the share of rows written to the file. */
  fraction: number;
  /** Estimated milliseconds left; undefined until there is enough to estimate from. */
  msLeft: number | undefined;
  cancel(): void;
}

/** What a worker needs to be for the job: the browser's Worker, or a fake in tests. */
export interface ExportWorker {
  postMessage(msg: ExportMessage): void;
  addEventListener(type: 'message', fn: (e: { data: ExportReply }) => void): void;
  addEventListener(type: 'error', fn: (e: { message?: string }) => void): void;
  terminate(): void;
}

// Rows read per task: 5,000 still made a 66 ms task on the benchmark's busy two cores.
const CHUNK = 2000;
// Rows posted and not yet written that the page allows: enough that the worker never waits for the
// page, few enough that memory stays flat.
const AHEAD = 4 * CHUNK;
// What is left once every row is written (the end of the sheet, styles, the zip's directory): small.
const ROWS_SHARE = 0.98;

let current: ExportJobState | null = null;
let seq = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export const exportJob = {
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  snapshot: (): ExportJobState | null => current,
};

// Why the last export was not written, until someone dismisses it or starts the next one. Exports are
// started from buttons and from the command palette alike, so the words live here, not in one button.
// They are shown once: by the group whose button started the export, else (the palette, or that group
// has gone) by the first group on screen — a report screen has three groups and said it three times.
/** One group of export buttons on screen (ExportButtons holds one per mount). */
export type ExportGroup = object;
let failure: { message: string; owner: ExportGroup | null } | null = null;
let starter: ExportGroup | null = null;
const groups: ExportGroup[] = [];
export const exportFailure = {
  subscribe: exportJob.subscribe,
  snapshot: (): string | null => failure?.message ?? null,
  /** The words for this group, or null when another group shows them. */
  messageFor(group: ExportGroup): string | null {
    if (!failure) return null;
    const owner = failure.owner && groups.includes(failure.owner) ? failure.owner : groups[0];
    return owner === group ? failure.message : null;
  },
  report(message: string | null, owner: ExportGroup | null = null): void {
    failure = message === null ? null : { message, owner };
    notify();
  },
  /** A group's button is starting an export: its failure, if any, belongs to that group. */
  startedBy(group: ExportGroup): void {
    starter = group;
  },
  /** Who started the export now starting (null: not a button), read once as the export starts. */
  takeStarter(): ExportGroup | null {
    const g = starter;
    starter = null;
    return g;
  },
  /** Keeps the list of groups on screen, in mount order; returns the unmount. */
  mount(group: ExportGroup): () => void {
    groups.push(group);
    notify();
    return () => {
      groups.splice(groups.indexOf(group), 1);
      notify();
    };
  },
};

/** "about 3 s left", "about 2 min left": the estimate, rounded the way people read it. */
export function timeLeftLabel(ms: number | undefined): string {
  if (ms === undefined) return 'estimating…';
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Writes an export in a worker. Resolves to the file (a Blob: the browser keeps it outside the page's
 * memory), or null when cancelled; rejects when another export is still running or the worker fails.
 */
export async function runExportJob<Row>(
  kind: 'csv' | 'xlsx',
  columns: readonly CsvColumn<Row>[],
  rows: readonly Row[],
  opts: { csv: CsvOptions; xlsx: Omit<XlsxOptions, 'onProgress'> },
  /** The page passes the real worker (download.ts); tests pass one that runs in-process. */
  makeWorker: () => ExportWorker,
): Promise<Blob | null> {
  const now = () => performance.now();
  if (current) throw new Error('Another export is still being written.');
  const worker = makeWorker();
  const started = now();
  // Set once the job is over (written, failed or cancelled): the page stops reading rows for it.
  let ended = false;
  let settle: (v: Blob | null) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const result = new Promise<Blob | null>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // The caller gets the rejection when it awaits; until the rows are all posted nobody listens yet.
  result.catch(() => {});
  // Rows the worker has written; the page waits (wake) while it is AHEAD rows behind.
  let written = 0;
  let wake: (() => void) | undefined;
  const woken = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const state: ExportJobState = {
    id: (seq += 1),
    kind,
    fraction: 0,
    msLeft: undefined,
    cancel: () => {
      if (ended) return;
      finish();
      settle(null);
    },
  };
  const update = (fraction: number) => {
    if (ended) return;
    const elapsed = now() - started;
    state.fraction = Math.min(0.99, Math.max(state.fraction, fraction));
    state.msLeft = state.fraction > 0.05 ? (elapsed / state.fraction) * (1 - state.fraction) : undefined;
    current = { ...state };
    notify();
  };
  const finish = () => {
    ended = true;
    woken();
    worker.terminate();
    current = null;
    notify();
  };
  worker.addEventListener('message', (e) => {
    const reply = e.data;
    if (ended) return;
    if (reply.type === 'progress') {
      written = reply.written;
      update((ROWS_SHARE * reply.written) / Math.max(1, reply.total));
      woken();
    } else if (reply.type === 'done') {
      finish();
      settle(reply.file);
    } else {
      finish();
      fail(new Error(reply.message));
    }
  });
  worker.addEventListener('error', (e) => {
    if (ended) return;
    finish();
    fail(new Error(e.message || 'The export could not be written.'));
  });
  current = { ...state };
  notify();

  worker.postMessage({
    type: 'start',
    kind,
    columns: columns.map((c) => ({ header: c.header, kind: c.kind })),
    total: rows.length,
    ...opts,
  });
  const values = columns.map((c) => c.value);
  // A CSV's lines are rendered here, a chunk at a time (a few milliseconds each): the worker is handed
  // one string per chunk, which costs a fraction of copying the chunk's cells to it.
  const lines = kind === 'csv' ? csvLines(columns, opts.csv) : undefined;
  for (let i = 0; i < rows.length && !ended; i += CHUNK) {
    while (!ended && i - written > AHEAD) await new Promise<void>((resolve) => (wake = resolve));
    if (ended) break;
    const count = Math.min(rows.length, i + CHUNK) - i;
    if (lines) {
      worker.postMessage({ type: 'lines', count, text: lines(rows.slice(i, i + count)) });
      await nextTask();
      continue;
    }
    // One array per column, not one per row: copying a chunk to the worker costs per object, and
    // 15 arrays of 2,000 values copy several times faster than 2,000 arrays of 15.
    const cells = values.map((value) => {
      const column = new Array<CellValue>(count);
      for (let j = 0; j < count; j += 1) column[j] = value(rows[i + j]!);
      return column;
    });
    worker.postMessage({ type: 'rows', count, columns: cells });
    await nextTask();
  }
  if (!ended) worker.postMessage({ type: 'end' });
  return result;
}
