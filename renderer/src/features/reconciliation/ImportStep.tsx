import { useState } from 'react';
import type { ParsedCsv } from '../../../../shared/csv/parser';
import { escapeUnsafeText } from '../../../../shared/domain/text';
import demoLedgerText from '../../../../resources/demo-ledger.csv?raw';
import { parseInWorker } from './parse-client';

interface Props {
  isDemo: boolean;
  onParsed: (parsed: ParsedCsv, label: string) => void;
}

/** Step 1: choose a ledger file (or the demo ledger); parsing happens in a worker. */
export function ImportStep({ isDemo, onParsed }: Props) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function parse(bytes: ArrayBuffer, label: string) {
    setBusy(label);
    setError(null);
    try {
      const parsed = await parseInWorker(bytes);
      if (parsed.headers.length === 0) throw new Error('The file is empty: it has no header row.');
      onParsed(parsed, label);
    } catch (e) {
      setError(
        `${label} could not be read: ${e instanceof Error ? e.message : String(e)} Nothing was imported.`,
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="recon-card" aria-labelledby="recon-import">
      <h2 id="recon-import">Import your ledger</h2>
      <p className="muted">
        A CSV export of your orders or sales ledger (comma, semicolon or tab separated; UTF-8, UTF-16 or
        Windows-1252). Each row is checked against the payment service by transaction number, or by reference
        when there is none.
      </p>
      <div className="recon-actions">
        <label className="button primary">
          Choose CSV file…
          <input
            type="file"
            accept=".csv,.txt,text/csv"
            className="visually-hidden"
            data-testid="recon-file"
            disabled={busy !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              // A file name may hold control or text-direction characters: keep them visible, never live.
              if (file) void file.arrayBuffer().then((b) => parse(b, escapeUnsafeText(file.name)));
            }}
          />
        </label>
        {isDemo && (
          <button
            type="button"
            className="button"
            disabled={busy !== null}
            onClick={() =>
              void parse(new TextEncoder().encode(demoLedgerText).buffer as ArrayBuffer, 'demo-ledger.csv')
            }
          >
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
