/**
 * Exports of the Transactions view — its real 15 columns — for 1M cached payments, beside Python on the
 * same rows, each side in a fresh process, writing a file, runs alternating:
 * - xlsx_1m_vs_xlsxwriter: Refund Desk's Excel export vs xlsxwriter (constant_memory, its streaming
 *   mode); xlsx_1m_peak_mb: the memory that export adds over the rows, beside xlsxwriter's;
 * - csv_1m_vs_python: the CSV export vs Python's csv module.
 * See peers/export-ours.ts and peers/export_python.py for what each side does and how memory is read.
 * `npm run bench -- exports`; BENCH_EXPORT_ROWS=100000 tries it small (printed, not written).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFUNDED_STATE_LABELS, transactionStatusLabel, vendorLabel } from '../../shared/domain/labels';
import { loadNow, type Result, result, RUNS } from './figure';
import { nodeSide, pythonHas, pythonSide } from './peers/spawn';

interface Written {
  ms: number;
  cpuMs: number;
  peakMb: number;
  baseMb: number;
  bytes?: number;
  rows: number;
}

/** The labels the app shows for the bench rows' codes, so Python writes the same texts. */
function labels() {
  const vendors = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
  return {
    status: Object.fromEntries(['success', 'closed', 'failed'].map((s) => [s, transactionStatusLabel(s)])),
    refunded: REFUNDED_STATE_LABELS.not_refunded,
    vendor: Object.fromEntries(vendors.map((v) => [v, vendorLabel(v) ?? v])),
  };
}

export const EXPORT_ROWS = Number(process.env['BENCH_EXPORT_ROWS'] ?? 1_000_000);

function measure(kind: 'csv' | 'xlsx', py: boolean) {
  const dir = mkdtempSync(join(tmpdir(), `rd-export-${kind}-`));
  const ours = {
    ms: [] as number[],
    cpu: [] as number[],
    peaks: [] as number[],
    errors: [] as string[],
    bytes: 0,
    base: 0,
  };
  const peer = {
    ms: [] as number[],
    cpu: [] as number[],
    peaks: [] as number[],
    errors: [] as string[],
    base: 0,
  };
  try {
    for (let r = 0; r < RUNS; r += 1) {
      const out = join(dir, `ours-${r}.${kind}`);
      const o = nodeSide<Written>('export-ours', { kind, rows: EXPORT_ROWS, out });
      rmSync(out, { force: true });
      if (o.ok) {
        ours.ms.push(o.ms);
        ours.cpu.push(o.cpuMs);
        ours.peaks.push(o.peakMb);
        ours.bytes = o.bytes ?? 0;
        ours.base = o.baseMb;
      } else ours.errors.push(o.error);
      if (py) {
        const pout = join(dir, `python-${r}.${kind}`);
        const p = pythonSide<Written>('export_python.py', [
          kind,
          String(EXPORT_ROWS),
          pout,
          JSON.stringify(labels()),
        ]);
        rmSync(pout, { force: true });
        if (p.ok) {
          peer.ms.push(p.ms);
          peer.cpu.push(p.cpuMs);
          peer.peaks.push(p.peakMb);
          peer.base = p.baseMb;
        } else peer.errors.push(p.error);
      }
      process.stderr.write(
        `  ${kind} ${EXPORT_ROWS}: ours ${ours.ms.map(Math.round).join(',')} (${ours.peaks.map(Math.round).join(',')} MB) python ${peer.ms.map(Math.round).join(',')} (${peer.peaks.map(Math.round).join(',')} MB)${ours.errors.length ? ` ours failed: ${ours.errors.at(-1)}` : ''}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ours, peer };
}

const failures = (who: string, errors: string[]) =>
  errors.length ? ` ${who} failed ${errors.length} of ${RUNS} runs: ${errors[0]}.` : '';

export async function exportResults(): Promise<Result[]> {
  const out: Result[] = [];
  const withXlsx = pythonHas('xlsxwriter');
  let load = loadNow();
  const x = measure('xlsx', withXlsx);
  const xNote = `the Transactions view's 15 columns; ours: the page's export job reading cells in chunks and the export worker's code writing the .xlsx (in one Node process here), saved to a file; peer: xlsxwriter with constant_memory (its streaming mode), the same rows and cell types (text ids, numbers with their currency's decimals, dates in UTC+8, bold frozen filtered header), to a file; memory: peak resident memory the export adds over the rows it is given (ours ${Math.round(x.ours.base)} MB, Python ${Math.round(x.peer.base)} MB before it starts).${failures('Refund Desk', x.ours.errors)}${failures('xlsxwriter', x.peer.errors)}${withXlsx ? '' : ' xlsxwriter is not installed for /usr/bin/python3 (apt-get install python3-xlsxwriter).'}`;
  out.push(
    result(
      {
        name: 'xlsx_1m_vs_xlsxwriter',
        size: EXPORT_ROWS,
        unit: 'ms',
        goal: "ratio ≤ 1.0 (xlsxwriter's time for the same workbook)",
        note: xNote,
      },
      {
        ours: x.ours.ms,
        floor: x.peer.ms,
        peaks: x.ours.peaks,
        floorPeaks: x.peer.peaks,
        cpu: x.ours.cpu,
        floorCpu: x.peer.cpu,
      },
      load,
      (_m, ratio) => (ratio === null ? null : ratio <= 1),
    ),
    result(
      {
        name: 'xlsx_1m_peak_mb',
        size: EXPORT_ROWS,
        unit: 'MB',
        goal: '≤ 300 MB (memory flat while a 1M-row workbook is written); floor: xlsxwriter’s',
        note: xNote,
      },
      { ours: x.ours.peaks, floor: x.peer.peaks },
      load,
      (m) => m <= 300,
    ),
  );
  load = loadNow();
  const c = measure('csv', true);
  out.push(
    result(
      {
        name: 'csv_1m_vs_python',
        size: EXPORT_ROWS,
        unit: 'ms',
        goal: "ratio ≤ 1.0 (Python's csv module, the same rows and columns)",
        note: `the Transactions view's 15 columns (times in UTC+8 with their offset, amounts from integer minor units, formula guard on ours), UTF-8 with BOM, CRLF, to a file; ours: the export job and worker code in one Node process; peer: csv.writer; memory: peak the export adds over the rows (ours ${Math.round(c.ours.base)} MB, Python ${Math.round(c.peer.base)} MB before it starts).${failures('Refund Desk', c.ours.errors)}${failures('Python', c.peer.errors)}`,
      },
      {
        ours: c.ours.ms,
        floor: c.peer.ms,
        peaks: c.ours.peaks,
        floorPeaks: c.peer.peaks,
        cpu: c.ours.cpu,
        floorCpu: c.peer.cpu,
      },
      load,
      (_m, ratio) => (ratio === null ? null : ratio <= 1),
    ),
  );
  return out;
}
