import type { LedgerFormats, LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { ColumnMapping } from '../../../../shared/recon/mapping';
import type { FromLedgerWorker, LedgerFileSummary, MapAnswer, ToLedgerWorker } from './ledger-protocol';

/** The page's end of the ledger worker (a Worker, or the handler in-process in tests). */
export interface LedgerPort {
  post(m: ToLedgerWorker, transfer?: ArrayBuffer[]): void;
  listen(onMessage: (m: FromLedgerWorker) => void, onError: (message: string) => void): void;
  terminate(): void;
}

interface Waiting {
  resolve: (value: never) => void;
  reject: (err: Error) => void;
  kind: 'parse' | 'map' | 'rows';
  rows?: LedgerRow[];
  unusable?: UnusableRow[];
}

/**
 * One ledger file, kept in its worker from the moment it is read until the person leaves it: the page
 * holds only its summary and asks the worker to read it with each mapping. Only the latest mapping
 * request is ever answered (an earlier one resolves to undefined), so a figure for an older choice can
 * never show under a newer one. If the worker fails, every request ends with its message, never silently.
 */
export class LedgerSession {
  private seq = 0;
  private latestMap = 0;
  private readonly waiting = new Map<number, Waiting>();
  private stopped: string | null = null;
  file: LedgerFileSummary | null = null;

  constructor(private readonly port: LedgerPort) {
    port.listen(
      (m) => this.onMessage(m),
      (message) => this.fail(`The file reader stopped: ${message}`),
    );
  }

  private ask<T>(kind: Waiting['kind'], send: (id: number) => void): { id: number; done: Promise<T> } {
    const id = (this.seq += 1);
    const done = new Promise<T>((resolve, reject) => {
      if (this.stopped) return reject(new Error(this.stopped));
      this.waiting.set(id, { resolve: resolve as (v: never) => void, reject, kind });
      send(id);
    });
    return { id, done };
  }

  private onMessage(m: FromLedgerWorker) {
    const w = this.waiting.get(m.id);
    if (!w) return;
    if (m.kind === 'failed') {
      this.waiting.delete(m.id);
      w.reject(new Error(m.message));
    } else if (m.kind === 'parsed') {
      this.waiting.delete(m.id);
      this.file = m.file;
      w.resolve(m.file as never);
    } else if (m.kind === 'mapped') {
      this.waiting.delete(m.id);
      w.resolve((m.id === this.latestMap ? m.answer : undefined) as never);
    } else {
      // Appended one item at a time: a spread of thousands of items into push can overflow the stack.
      for (const r of m.rows) (w.rows ??= []).push(r);
      for (const u of m.unusable) (w.unusable ??= []).push(u);
      if (!m.last) return;
      this.waiting.delete(m.id);
      w.resolve({
        rows: w.rows ?? [],
        unusable: w.unusable ?? [],
        transactionNos: m.transactionNos ?? [],
      } as never);
    }
  }

  private fail(message: string) {
    if (this.stopped) return;
    this.stopped = message;
    this.port.terminate();
    for (const w of this.waiting.values()) w.reject(new Error(message));
    this.waiting.clear();
  }

  /** Reads the file's bytes (moved to the worker, not copied); resolves with what the page shows of it. */
  parse(bytes: ArrayBuffer): Promise<LedgerFileSummary> {
    return this.ask<LedgerFileSummary>('parse', (id) => this.port.post({ kind: 'parse', id, bytes }, [bytes]))
      .done;
  }

  /** Reads another sheet of the workbook in its place; resolves with what the page shows of it. */
  sheet(name: string): Promise<LedgerFileSummary> {
    return this.ask<LedgerFileSummary>('parse', (id) => this.port.post({ kind: 'sheet', id, name })).done;
  }

  /** The figures for this mapping and format choice; undefined when a later request replaced it. */
  map(mapping: ColumnMapping, chosen: Partial<LedgerFormats>): Promise<MapAnswer | undefined> {
    // An earlier request still waiting is answered now, with nothing: it is out of date.
    for (const [id, w] of this.waiting)
      if (w.kind === 'map') {
        this.waiting.delete(id);
        w.resolve(undefined as never);
      }
    const { id, done } = this.ask<MapAnswer | undefined>('map', (i) =>
      this.port.post({ kind: 'map', id: i, mapping, chosen }),
    );
    this.latestMap = id;
    return done;
  }

  /** The whole ledger read with this mapping, for a run: handed over in chunks. */
  rows(mapping: ColumnMapping, chosen: Partial<LedgerFormats>) {
    return this.ask<{ rows: LedgerRow[]; unusable: UnusableRow[]; transactionNos: string[] }>('rows', (id) =>
      this.port.post({ kind: 'rows', id, mapping, chosen }),
    ).done;
  }

  /** Ends the worker and the file it holds; requests still waiting end with a message. */
  close() {
    this.fail('The file was closed.');
  }
}

/** Starts a worker for one file and reads it there. The session is closed if the file cannot be read. */
export async function openLedger(bytes: ArrayBuffer, port: LedgerPort): Promise<LedgerSession> {
  const session = new LedgerSession(port);
  try {
    await session.parse(bytes);
    return session;
  } catch (err) {
    session.close();
    throw err;
  }
}
