import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsvBytes } from '../../../../shared/csv/parser';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../../shared/recon/ledger';
import type { ColumnMapping } from '../../../../shared/recon/mapping';
import {
  createLedgerHandler,
  ledgerPeriod,
  transactionNumbers,
} from '../../../../renderer/src/features/reconciliation/ledger-handler';
import {
  type FromLedgerWorker,
  type ToLedgerWorker,
  PREVIEW_ROWS,
  ROWS_CHUNK,
  UNUSABLE_SHOWN,
} from '../../../../renderer/src/features/reconciliation/ledger-protocol';
import {
  type LedgerPort,
  LedgerSession,
  openLedger,
} from '../../../../renderer/src/features/reconciliation/parse-client';

const MAPPING: ColumnMapping = {
  transactionNo: 'Transaction No',
  amount: 'Amount',
  currency: 'Currency',
  date: 'Date',
};

/**
 * A ledger of `rows` rows in March 2025 (day-first dates, comma decimals), every `badEvery`-th with an
 * amount that cannot be read.
 */
function ledgerBytes(rows: number, badEvery = 0): ArrayBuffer {
  const lines = ['Transaction No;Amount;Currency;Date;Note'];
  for (let i = 0; i < rows; i += 1) {
    const amount =
      badEvery && i % badEvery === 0 ? 'n/a' : `${(i % 900) + 1},${String(i % 100).padStart(2, '0')}`;
    lines.push(`${3_000_000_000 + i};${amount};EUR;${(i % 28) + 1}/03/2025;row ${i}`);
  }
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`).buffer as ArrayBuffer;
}

/** What the page would have computed itself before the worker did it: the reference. */
function reference(bytes: ArrayBuffer, mapping: ColumnMapping) {
  const parsed = parseCsvBytes(new Uint8Array(bytes.slice(0)));
  const evidence = detectFormats(parsed, mapping);
  const formats = formatsFrom(evidence);
  return { parsed, evidence, formats, imported: toLedgerRows(parsed, mapping, formats) };
}

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/**
 * The handler parse.worker runs, behind a real MessageChannel so every message is structured-cloned
 * as between a page and its worker. `toPage` records what reached the page.
 */
function channelPort(): { port: LedgerPort; toPage: FromLedgerWorker[] } {
  const { port1: page, port2: worker } = new MessageChannel();
  const handler = createLedgerHandler({
    post: (m) => worker.postMessage(m),
    later: (fn) => setTimeout(fn, 0),
  });
  worker.on('message', (m: ToLedgerWorker) => handler.onMessage(m));
  const toPage: FromLedgerWorker[] = [];
  let closed = false;
  const port: LedgerPort = {
    post: (m, transfer) => page.postMessage(m, transfer as never),
    listen(onMessage) {
      page.on('message', (m: FromLedgerWorker) => {
        toPage.push(m);
        onMessage(m);
      });
    },
    terminate() {
      if (closed) return;
      closed = true;
      page.close();
      worker.close();
    },
  };
  open.push({ close: () => port.terminate() });
  return { port, toPage };
}

describe('ledger worker handler', () => {
  it('keeps the file: the page gets its summary and the figures of a mapping, the same as reading it on the page', async () => {
    const bytes = ledgerBytes(600, 2);
    const ref = reference(bytes, MAPPING);
    const { port, toPage } = channelPort();
    const ledger = await openLedger(bytes, port);
    // The bytes moved to the worker (transferred, not copied).
    expect(bytes.byteLength).toBe(0);
    expect(ledger.file).toEqual({
      kind: 'csv',
      headers: ref.parsed.headers,
      encoding: ref.parsed.encoding,
      delimiter: ';',
      dataRows: 600,
      preview: ref.parsed.rows.slice(0, PREVIEW_ROWS),
    });

    const answer = await ledger.map(MAPPING, {});
    expect(answer).toBeDefined();
    expect(answer?.evidence).toEqual(ref.evidence);
    expect(answer?.formats).toEqual({ decimal: ',', dateOrder: 'dmy' });
    expect(answer?.read).toBe(ref.imported.rows.length);
    expect(answer?.read).toBe(300);
    expect(answer?.unusableCount).toBe(300);
    expect(answer?.dataRows).toBe(600);
    // 300 rows of one reason (“n/a” is not an amount): one line with their lines, not 300.
    expect(answer?.unusableGroups).toHaveLength(1);
    expect(answer?.unusableGroups[0]).toMatchObject({
      count: 300,
      firstLine: ref.imported.unusable[0]?.line,
      reason: ref.imported.unusable[0]?.reason,
      same: true,
    });
    expect(answer?.unusableGroups.length).toBeLessThanOrEqual(UNUSABLE_SHOWN);
    expect(answer?.notes).toEqual([]);
    expect(answer?.period).toEqual(ledgerPeriod(ref.imported.rows));
    // The unusable rows (every even one, on the odd days) do not count towards the period.
    expect(answer?.period).toEqual({ from: '2025-03-02', to: '2025-03-28' });
    // No message carried the ledger's rows to the page.
    expect(toPage.some((m) => m.kind === 'rows')).toBe(false);
  });

  it('hands the rows over for a run in chunks, exactly the rows the figures came from', async () => {
    const rows = ROWS_CHUNK * 2 + 123;
    const bytes = ledgerBytes(rows, 1000);
    const ref = reference(bytes, MAPPING);
    const { port, toPage } = channelPort();
    const ledger = await openLedger(bytes, port);
    const answer = await ledger.map(MAPPING, {});
    const got = await ledger.rows(MAPPING, {});
    expect(got.rows).toEqual(ref.imported.rows);
    expect(got.unusable).toEqual(ref.imported.unusable);
    expect(got.rows.length).toBe(answer?.read);
    // The fresh-cache look-up's numbers come along, as the run would have derived them on the page.
    expect(got.transactionNos).toEqual(transactionNumbers(ref.imported.rows));
    expect(got.transactionNos).toHaveLength(ref.imported.rows.length);
    const chunks = toPage.filter((m) => m.kind === 'rows');
    expect(chunks).toHaveLength(Math.ceil(ref.imported.rows.length / ROWS_CHUNK));
    expect(chunks.every((m) => m.kind === 'rows' && m.rows.length <= ROWS_CHUNK)).toBe(true);
  });

  it('a format chosen by the person reads the rows with it', async () => {
    const bytes = ledgerBytes(50);
    const { port } = channelPort();
    const ledger = await openLedger(bytes.slice(0), port);
    const chosen = { decimal: '.' as const };
    const answer = await ledger.map(MAPPING, chosen);
    const parsed = parseCsvBytes(new Uint8Array(bytes));
    const formats = formatsFrom(detectFormats(parsed, MAPPING), chosen);
    expect(answer?.formats).toEqual(formats);
    expect(answer?.read).toBe(toLedgerRows(parsed, MAPPING, formats).rows.length);
  });

  it('a mapping with issues reads nothing and lists the file’s own problems', async () => {
    const { port } = channelPort();
    const ledger = await openLedger(ledgerBytes(10), port);
    const answer = await ledger.map({ transactionNo: 'Transaction No' }, {});
    expect(answer).toMatchObject({ readable: false, read: 0, unusableCount: 0, dataRows: 10 });
    await expect(ledger.rows({ transactionNo: 'Transaction No' }, {})).rejects.toThrow(/columns do not fit/);
  });

  it('only the latest of mapping requests sent together is read and answered', () => {
    const posted: FromLedgerWorker[] = [];
    const tasks: Array<() => void> = [];
    const handler = createLedgerHandler({ post: (m) => posted.push(m), later: (fn) => tasks.push(fn) });
    handler.onMessage({ kind: 'parse', id: 1, bytes: ledgerBytes(20, 4) });
    handler.onMessage({ kind: 'map', id: 2, mapping: MAPPING, chosen: {} });
    handler.onMessage({ kind: 'map', id: 3, mapping: { ...MAPPING, date: undefined }, chosen: {} });
    handler.onMessage({ kind: 'map', id: 4, mapping: { ...MAPPING, amount: 'Note' }, chosen: {} });
    expect(tasks).toHaveLength(1);
    for (const t of tasks.splice(0)) t();
    const mapped = posted.filter((m) => m.kind === 'mapped');
    expect(mapped.map((m) => m.id)).toEqual([4]);
    // The answer is the one for mapping 4: "row n" is no amount, so no row reads.
    expect(mapped[0]?.kind === 'mapped' && mapped[0].answer.read).toBe(0);
    // A later request is read on its own next task.
    handler.onMessage({ kind: 'map', id: 5, mapping: MAPPING, chosen: {} });
    expect(tasks).toHaveLength(1);
    tasks[0]?.();
    const last = posted.at(-1);
    expect(last?.kind === 'mapped' && last.id === 5 && last.answer.read).toBe(15);
  });

  it('a mapping request before any file fails with a message, not silence', () => {
    const posted: FromLedgerWorker[] = [];
    const handler = createLedgerHandler({ post: (m) => posted.push(m), later: (fn) => fn() });
    handler.onMessage({ kind: 'map', id: 7, mapping: MAPPING, chosen: {} });
    expect(posted).toEqual([{ kind: 'failed', id: 7, message: 'No file has been read.' }]);
  });
});

describe('ledger session (the page side)', () => {
  it('an older mapping’s answer is never delivered once a newer one was asked for', async () => {
    const { port, toPage } = channelPort();
    const ledger = await openLedger(ledgerBytes(40, 2), port);
    const older = ledger.map({ ...MAPPING, amount: 'Note' }, {});
    const newer = ledger.map(MAPPING, {});
    await expect(older).resolves.toBeUndefined();
    const answer = await newer;
    expect(answer?.read).toBe(20);
    // Whatever the worker sent, the page only took the newest.
    expect(toPage.filter((m) => m.kind === 'mapped').every((m) => m.id === toPage.at(-1)?.id)).toBe(true);
  });

  it('drops a late answer for an older request that arrives after a newer one was sent', async () => {
    let onMessage: (m: FromLedgerWorker) => void = () => undefined;
    const sent: ToLedgerWorker[] = [];
    const session = new LedgerSession({
      post: (m) => sent.push(m),
      listen: (m) => {
        onMessage = m;
      },
      terminate: () => undefined,
    });
    const first = session.map(MAPPING, {});
    const second = session.map({ ...MAPPING, date: undefined }, {});
    const answer = (read: number) => ({
      evidence: reference(ledgerBytes(1), MAPPING).evidence,
      formats: { decimal: ',' as const, dateOrder: 'dmy' as const },
      readable: true,
      read,
      dataRows: read,
      unusableCount: 0,
      unusableGroups: [],
      notes: [],
      period: { from: '2025-03-01', to: '2025-03-02' },
    });
    const [a, b] = sent;
    // The older answer comes last: it must not replace the newer one.
    onMessage({ kind: 'mapped', id: b?.id ?? -1, answer: answer(2) });
    onMessage({ kind: 'mapped', id: a?.id ?? -1, answer: answer(1) });
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toMatchObject({ read: 2 });
  });

  it('a worker that fails ends every waiting and later request with its message', async () => {
    let fail: (message: string) => void = () => undefined;
    let terminated = 0;
    const session = new LedgerSession({
      post: () => undefined,
      listen: (_m, onError) => {
        fail = onError;
      },
      terminate: () => {
        terminated += 1;
      },
    });
    const waiting = session.map(MAPPING, {});
    const rows = session.rows(MAPPING, {});
    fail('out of memory');
    await expect(waiting).rejects.toThrow('The file reader stopped: out of memory');
    await expect(rows).rejects.toThrow('The file reader stopped: out of memory');
    await expect(session.map(MAPPING, {})).rejects.toThrow('The file reader stopped: out of memory');
    expect(terminated).toBe(1);
  });

  it('a file that cannot be read closes its worker and says why', async () => {
    const { port } = channelPort();
    let terminated = false;
    const watched: LedgerPort = { ...port, terminate: () => ((terminated = true), port.terminate()) };
    // Binary data is refused by the parser.
    const bytes = new Uint8Array([0, 1, 2, 3, 0, 0, 0xff, 0xfe, 0, 0]).buffer;
    await expect(openLedger(bytes, watched)).rejects.toThrow(/./);
    expect(terminated).toBe(true);
  });
});

describe('ledger worker: an Excel workbook', () => {
  it('reads the sheet that looks like a ledger, names the others, and reads another on request', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Cover').addRow(['Month-end March']);
    const ws = wb.addWorksheet('Ledger');
    ws.addRow(['Transaction No', 'Amount', 'Currency', 'Date']);
    for (let i = 0; i < 12; i += 1)
      ws.addRow([String(3_000_000_000 + i), 10 + i, 'EUR', new Date(Date.UTC(2025, 2, i + 1))]);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer()).slice().buffer;
    const { port } = channelPort();
    const ledger = await openLedger(bytes, port);
    expect(ledger.file).toMatchObject({
      kind: 'xlsx',
      sheet: 'Ledger',
      sheets: ['Cover', 'Ledger'],
      dataRows: 12,
    });
    expect(ledger.file?.preview[0]).toEqual({ line: 2, cells: ['3000000000', '10', 'EUR', '2025-03-01'] });
    const answer = await ledger.map(MAPPING, {});
    expect(answer).toMatchObject({
      read: 12,
      unusableCount: 0,
      period: { from: '2025-03-01', to: '2025-03-12' },
    });
    const got = await ledger.rows(MAPPING, {});
    expect(got.rows[0]).toMatchObject({
      transactionNo: '3000000000',
      amountMinor: 1000,
      currency: 'EUR',
      day: '2025-03-01',
    });
    const cover = await ledger.sheet('Cover');
    expect(cover).toMatchObject({ kind: 'xlsx', sheet: 'Cover', headers: ['Month-end March'], dataRows: 0 });
  });
});
