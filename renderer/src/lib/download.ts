import type { CsvColumn } from '../../../shared/csv/writer';
import { XLSX_MIME } from '../../../shared/csv/xlsx';
import { wallClock, type Zone } from '../../../shared/domain/zones';
import { type ExportWorker, exportFailure, exportJob, runExportJob } from './export-job';
import { CSV_MIME } from './export-work';

/**
 * Saves bytes or text as a file through a blob: URL and an anchor with `download`. The renderer has no
 * file system access and needs none: the browser (or Electron's download handling) asks where to save.
 * Blob URLs are same-origin and never touch the network, so the CSP does not get in the way.
 */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Chromium starts the download asynchronously after click(): release the URL only later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The one file-name pattern of every export: area, profile, date and time in the chosen zone —
 * "transactions-Demo-20250301-1405.csv". Sortable, and safe on every file system.
 */
export function exportFileName(
  area: string,
  profileName: string,
  ext: 'csv' | 'xlsx',
  now: Date,
  zoneIana: string,
): string {
  const safe =
    profileName
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile';
  const w = wallClock(now.getTime(), zoneIana);
  return `${area}-${safe}-${w.year}${pad(w.month)}${pad(w.day)}-${pad(w.hour)}${pad(w.minute)}.${ext}`;
}

export interface ExportRequest<Row> {
  /** File name's first part: transactions, refunds, audit, reconciliation-report… */
  area: string;
  /** The profile the data belongs to ("all-profiles" when it spans several). */
  profileName: string;
  /** The Excel sheet's name. */
  sheetName: string;
  columns: readonly CsvColumn<Row>[];
  rows: readonly Row[];
  zone: Zone;
  /** Excel number format for date-times. */
  excelDateFormat: string;
}

/**
 * Writes and downloads an export. CSV: plain RFC 4180 for machines (ids as digits, ISO times with their
 * offset). Excel: text ids, numeric amounts, real dates, frozen filtered header. Both are written in
 * the export worker (export-job.ts), so the window stays responsive and the export can be cancelled;
 * resolves without downloading when it is. Never rejects: a failure is kept in `exportFailure`, which
 * every export group shows with what to do.
 */
export async function downloadExport<Row>(kind: 'csv' | 'xlsx', req: ExportRequest<Row>): Promise<void> {
  const owner = exportFailure.takeStarter();
  if (exportJob.snapshot()) {
    exportFailure.report(
      'Another export is still being written. Wait for it to finish, or cancel it, then export again.',
      owner,
    );
    return;
  }
  exportFailure.report(null);
  const zone = { iana: req.zone.iana, label: req.zone.label };
  const name = exportFileName(req.area, req.profileName, kind, new Date(), req.zone.iana);
  let file: Blob | null;
  try {
    file = await runExportJob(
      kind,
      req.columns,
      req.rows,
      { csv: { zone }, xlsx: { sheetName: req.sheetName, zone, dateFormat: req.excelDateFormat } },
      () => {
        try {
          return new Worker(new URL('./export.worker.ts', import.meta.url), {
            type: 'module',
          }) as ExportWorker;
        } catch {
          throw new Error('this window could not start its export worker');
        }
      },
    );
  } catch (e) {
    const why = e instanceof Error && e.message ? e.message : 'the export could not be written';
    exportFailure.report(
      `The ${kind === 'csv' ? 'CSV' : 'Excel'} export was not written: ${why.replace(/\.$/, '')}. Try again; if it fails again, restart Refund Desk, or filter the list to fewer rows and export those.`,
      owner,
    );
    return;
  }
  if (!file) return;
  // The worker's file already has its type; a Blob of a Blob refers to it, no copy.
  downloadBlob(name, new Blob([file], { type: kind === 'csv' ? CSV_MIME : XLSX_MIME }));
}
