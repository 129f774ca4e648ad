/**
 * The exports bench, Refund Desk's side (run in its own process by child.ts): the Transactions view's
 * export of `rows` cached payments with all of the view's 15 columns, the way the app writes it — the
 * page's export job reading each row's cells in chunks, the export worker's code (exportWork) writing
 * the file, the file saved. Here the worker runs in this process (messages structured-cloned both ways,
 * delivered asynchronously, as a real worker's are), so its memory is this process's.
 *
 * The rows are built first, as the list holds them before anyone exports. The figure's memory is the
 * peak the export adds over them: the kernel's high-water mark (VmHWM) reset as the export starts
 * (/proc/self/clear_refs), less the resident size at that moment. export_python.py measures the same way.
 */
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { COLUMNS, exportColumns } from '../../../renderer/src/features/transactions/columns';
import { type ListRow, toListRow } from '../../../renderer/src/features/transactions/list-row';
import { type ExportWorker, runExportJob } from '../../../renderer/src/lib/export-job';
import { exportWork, type ExportMessage, type ExportReply } from '../../../renderer/src/lib/export-work';
import { SERVICE_ZONE } from '../../../shared/domain/zones';
import type { Transaction } from '../../../shared/domain/transaction';

export interface ExportArgs {
  kind: 'csv' | 'xlsx';
  rows: number;
  out: string;
}

const VENDORS = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
const CURRENCIES = ['USD', 'CNY', 'GBP', 'HKD', 'KRW'] as const;
const STATUSES = ['success', 'success', 'success', 'closed', 'failed'] as const;
const BASE = Date.UTC(2026, 7, 1);
const FETCHED = '2026-09-01T00:00:00.000Z';

/** A busy month of one merchant, as the list holds it (export_python.py builds the same values). */
export function makeListRows(n: number): ListRow[] {
  const out: ListRow[] = [];
  for (let i = 0; i < n; i += 1) {
    const at = new Date(BASE + i * 60_000).toISOString();
    const status = STATUSES[i % 5]!;
    const tx: Transaction & { profileId: string; fetchedAt: string } = {
      transactionNo: String(300000000000000000n + BigInt(i)),
      reference: `BENCH-${i}`,
      amountMinor: 100 + ((i * 7919) % 500_000),
      currency: CURRENCIES[i % 5]!,
      settleCurrency: 'USD',
      status,
      vendor: VENDORS[i % 5]!,
      transactionType: 'payment',
      createdAt: at,
      refunds: [],
      profileId: 'bench',
      fetchedAt: FETCHED,
    };
    if (status === 'success') tx.paidAt = at;
    out.push(toListRow(tx));
  }
  return out;
}

/** The export worker's code in this process, messages cloned and delivered a task later both ways. */
function inProcessWorker(): ExportWorker {
  const listeners: { message: ((e: { data: ExportReply }) => void)[] } = { message: [] };
  let stopped = false;
  let queue = Promise.resolve();
  const work = exportWork((reply) => {
    if (stopped) return;
    const copy = structuredClone(reply);
    setTimeout(() => listeners.message.forEach((l) => l({ data: copy })), 0);
  });
  return {
    postMessage(msg: ExportMessage) {
      const copy = structuredClone(msg);
      queue = queue.then(() => (stopped ? undefined : work(copy)));
    },
    addEventListener(type: 'message' | 'error', fn: never) {
      if (type === 'message') listeners.message.push(fn);
    },
    terminate() {
      stopped = true;
    },
  };
}

function status(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]!] = Number(m[2]) / 1024;
  }
  return out;
}

/** Resets the high-water mark of resident memory to now; returns the resident size. */
function resetPeak(): number {
  writeFileSync('/proc/self/clear_refs', '5');
  return status()['VmRSS'] ?? NaN;
}

/** Writes what the job returns to the file, as the download does. */
async function save(out: string, result: Uint8Array | Blob): Promise<number> {
  const file = createWriteStream(out);
  const done = new Promise<void>((res, rej) => {
    file.on('finish', () => res());
    file.on('error', rej);
  });
  let size = 0;
  if (result instanceof Uint8Array) {
    file.end(result);
    size = result.byteLength;
  } else {
    for await (const chunk of result.stream()) {
      size += chunk.byteLength;
      if (!file.write(chunk)) await new Promise<void>((r) => file.once('drain', () => r()));
    }
    file.end();
  }
  await done;
  return size;
}

export async function exportOurs(a: ExportArgs) {
  const rows = makeListRows(a.rows);
  const columns = exportColumns(COLUMNS);
  if (columns.length !== 15) throw new Error(`the view exports ${columns.length} columns, not 15`);
  (globalThis as { gc?: () => void }).gc?.();
  const base = resetPeak();
  const zone = { iana: SERVICE_ZONE.iana, label: SERVICE_ZONE.label };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const result = await runExportJob(
    a.kind,
    columns,
    rows,
    {
      csv: { zone },
      xlsx: { sheetName: 'Transactions', zone, dateFormat: 'yyyy-mm-dd hh:mm:ss' },
    },
    inProcessWorker,
  );
  if (!result) throw new Error('the export was cancelled');
  const bytes = await save(a.out, result);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const peak = status()['VmHWM'] ?? NaN;
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakMb: peak - base,
    baseMb: base,
    bytes,
    rows: rows.length,
  };
}
