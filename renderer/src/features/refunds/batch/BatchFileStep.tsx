import { useState } from 'react';
import { batchSizeProblem } from '../../../../../shared/batch/limits';
import { fitsBatch } from '../../../../../shared/batch/mapping';
import { escapeUnsafeText } from '../../../../../shared/domain/text';
import { ledgerFileProblem } from '../../../../../shared/recon/ledger';
import { ledgerWorkerPort } from '../../reconciliation/ledger-worker-port';
import { type LedgerSession, openLedger } from '../../reconciliation/parse-client';

/**
 * The worker opens a workbook at the sheet a ledger would read; a batch reads the first sheet whose
 * header maps to a batch (as main does, shared/batch/read.ts), else stays where it is.
 */
async function batchSheet(session: LedgerSession) {
  const file = session.file;
  if (!file || file.kind !== 'xlsx' || !file.sheets || fitsBatch(file.headers)) return;
  for (const name of file.sheets) {
    if (name === file.sheet) continue;
    const other = await session.sheet(name);
    if (fitsBatch(other.headers)) return;
  }
  if (file.sheet !== undefined && session.file?.sheet !== file.sheet) await session.sheet(file.sheet);
}

/** A batch file chosen: its bytes (sent to main for the dry run) and its reading in the file worker. */
export interface OpenedBatchFile {
  /** The name as shown, and as sent to main: unsafe characters made visible (the contract refuses them). */
  label: string;
  bytes: Uint8Array;
  session: LedgerSession;
}

/**
 * Step 1: choose the refund list — CSV or an Excel workbook. It is read in the same worker, by the same
 * reader, as a reconciliation ledger (headers, sheets, first rows) so the columns can be matched; the
 * bytes themselves go to main for the dry run. A file that cannot be a batch is refused with what to do.
 */
export function BatchFileStep({ onOpened }: { onOpened: (file: OpenedBatchFile) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function read(file: File) {
    // A file name may hold control or text-direction characters: keep them visible, never live.
    const label = escapeUnsafeText(file.name);
    const tooBig = batchSizeProblem(file.size);
    if (tooBig) return setError(`${label} could not be used: ${tooBig} Nothing was sent.`);
    setBusy(label);
    setError(null);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      // The worker takes its own copy (moved, not shared): these bytes stay here for main.
      const session = await openLedger(bytes.slice().buffer, ledgerWorkerPort());
      await batchSheet(session);
      const problem = ledgerFileProblem(session.file ?? { headers: [], dataRows: 0 });
      if (problem) {
        session.close();
        throw new Error(
          problem.replace('nothing to check. Export the ledger again with its rows.', 'nothing to refund.'),
        );
      }
      onOpened({ label, bytes, session });
    } catch (e) {
      setError(`${label} could not be used: ${e instanceof Error ? e.message : String(e)} Nothing was sent.`);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="recon-card" aria-labelledby="rb-file">
      <h2 id="rb-file">Refund a list of payments</h2>
      <p className="muted">
        A refund list as an Excel workbook (.xlsx) or a CSV file: one row per refund, with the transaction
        number or the merchant reference, the amount (or the word “full”), the currency and the reason; a row
        reference of your own is optional. Nothing is sent before you have seen what every row will do and
        confirmed the batch once.
      </p>
      <div className="recon-actions">
        <label className="button primary">
          Choose refund list…
          <input
            type="file"
            accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="visually-hidden"
            data-testid="batch-file"
            disabled={busy !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void read(file);
            }}
          />
        </label>
      </div>
      {busy && <p role="status">Reading {busy}…</p>}
      {error && (
        <p role="alert" className="recon-error">
          {error}
        </p>
      )}
    </section>
  );
}
