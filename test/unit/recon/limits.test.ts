import { describe, expect, it } from 'vitest';
import { ledgerFileProblem } from '../../../shared/recon/ledger';
import {
  ledgerSizeProblem,
  RECON_MAX_BYTES,
  RECON_MAX_COLUMNS,
  RECON_MAX_ROWS,
} from '../../../shared/recon/limits';
import { ledgerFileInfoSchema } from '../../../shared/recon/run';

/**
 * The app's ledger limits, in the words the import step (and the CLI) show: the same numbers the run's
 * contract holds a ledger to.
 */
describe('ledger limits, as the app shows them', () => {
  it('a ledger with more rows than a run takes is refused at import, with the numbers and what to do', () => {
    const headers = ['Transaction No', 'Amount', 'Currency'];
    expect(ledgerFileProblem({ headers, dataRows: RECON_MAX_ROWS })).toBeUndefined();
    expect(ledgerFileProblem({ headers, dataRows: 300_000 })).toBe(
      'The file has 300,000 data rows; a reconciliation takes at most 250,000. Split the ledger by period and reconcile each part.',
    );
    // The same cap as the run's contract: what import lets through, create takes.
    const file = {
      name: 'l.csv',
      encoding: 'utf-8',
      delimiter: ',',
      decimal: '.',
      decimalSource: 'detected',
      dateOrder: 'ymd',
      dateOrderSource: 'default',
    };
    expect(ledgerFileInfoSchema.safeParse({ ...file, dataRows: RECON_MAX_ROWS }).success).toBe(true);
    expect(ledgerFileInfoSchema.safeParse({ ...file, dataRows: RECON_MAX_ROWS + 1 }).success).toBe(false);
  });

  it('a header of more columns than a ledger may have is refused, and never listed whole', () => {
    const headers = Array.from({ length: 1_000_000 }, (_, i) => `column${i}`);
    const problem = ledgerFileProblem({ headers, dataRows: 1 });
    expect(problem).toBe(
      `Line 1 has 1,000,000 columns; a ledger may have at most ${RECON_MAX_COLUMNS.toLocaleString('en-US')}. Export only the columns the reconciliation needs (transaction number or reference, amount, currency, date, status).`,
    );
    expect(ledgerFileProblem({ headers: headers.slice(0, RECON_MAX_COLUMNS), dataRows: 1 })).toBeUndefined();
  });

  it('a header with no rows is named by its first columns, each cut, however long they are', () => {
    const problem = ledgerFileProblem({
      headers: ['x'.repeat(5_000_000), ...Array.from({ length: 900 }, (_, i) => `c${i}`)],
      dataRows: 0,
    });
    expect(problem).toBe(
      `The file has a header row (${'x'.repeat(39)}…, c0, c1, c2, c3, c4 and 895 more) but no data rows, so there is nothing to check. Export the ledger again with its rows.`,
    );
  });

  it('a file over 128 MB is refused from its size, before it is read', () => {
    expect(ledgerSizeProblem(RECON_MAX_BYTES)).toBeUndefined();
    expect(ledgerSizeProblem(RECON_MAX_BYTES + 1)).toBe(
      'The file is 134,217,729 bytes; a reconciliation takes a ledger of at most 128 MB (and 250,000 rows). Split it by period, or export only the columns it needs, and reconcile each part.',
    );
    expect(ledgerSizeProblem(400 * 1024 * 1024)).toMatch(/^The file is 400 MB; /);
  });
});
