import { useState } from 'react';
import { escapeUnsafeText } from '../../../../shared/domain/text';
import { ledgerFileProblem } from '../../../../shared/recon/ledger';
import { ledgerSizeProblem } from '../../../../shared/recon/limits';
import { unwrap, useBridge } from '../../lib/bridge';
import { ledgerWorkerPort } from './ledger-worker-port';
import { type LedgerSession, openLedger } from './parse-client';

interface Props {
  isDemo: boolean;
  onParsed: (ledger: LedgerSession, label: string) => void;
}

/**
 * Step 1: choose a ledger file — CSV or an Excel workbook — (or the demo ledger); it is parsed, and
 * then kept, in a worker. A file that is not a ledger (an old .xls, binary data, a header without rows)
 * is refused here with what to do.
 */
export function ImportStep({ isDemo, onParsed }: Props) {
  const bridge = useBridge();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function parse(bytes: ArrayBuffer, label: string) {
    setBusy(label);
    setError(null);
    try {
      const ledger = await openLedger(bytes, ledgerWorkerPort());
      const problem = ledgerFileProblem(ledger.file ?? { headers: [], dataRows: 0 });
      if (problem) {
        ledger.close();
        throw new Error(problem);
      }
      onParsed(ledger, label);
    } catch (e) {
      setError(
        `${label} could not be used: ${e instanceof Error ? e.message : String(e)} Nothing was imported.`,
      );
    } finally {
      setBusy(null);
    }
  }

  async function demo() {
    try {
      // Built by main for this installation's Demo sandbox, so its dates are the sandbox's dates.
      const ledger = await unwrap(bridge['reconciliation.demoLedger']());
      await parse(new TextEncoder().encode(ledger.text).buffer as ArrayBuffer, ledger.name);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The demo ledger could not be made.');
    }
  }

  return (
    <section className="recon-card" aria-labelledby="recon-import">
      <h2 id="recon-import">Import your ledger</h2>
      <p className="muted">
        Your orders or sales ledger as an Excel workbook (.xlsx) or a CSV export (comma, semicolon or tab
        separated; UTF-8, UTF-16 or Windows-1252). Each row is checked against the payment service by
        transaction number, or by reference when there is none.
      </p>
      <div className="recon-actions">
        <label className="button primary">
          Choose ledger file…
          <input
            type="file"
            accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="visually-hidden"
            data-testid="recon-file"
            disabled={busy !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              // A file name may hold control or text-direction characters: keep them visible, never live.
              const label = escapeUnsafeText(file.name);
              // Over the size a run takes (the CLI's limit too): refused before a byte of it is read.
              const tooBig = ledgerSizeProblem(file.size);
              if (tooBig) setError(`${label} could not be used: ${tooBig} Nothing was imported.`);
              else void file.arrayBuffer().then((b) => parse(b, label));
            }}
          />
        </label>
        {isDemo && (
          <button type="button" className="button" disabled={busy !== null} onClick={() => void demo()}>
            Try with demo ledger
          </button>
        )}
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
