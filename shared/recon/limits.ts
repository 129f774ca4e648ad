/**
 * How big a ledger one reconciliation takes — the same in the app (import step, the run's contract) and
 * in `cli reconcile`, which checks them before it reads a file whole. A month of a busy merchant is a
 * 100k-row ledger; these leave room to spare and keep a run's memory bounded.
 */

/** The most data rows one run takes. */
export const RECON_MAX_ROWS = 250_000;

/** The largest ledger file: 250,000 rows of over 500 bytes each (a 30-column export). */
export const RECON_MAX_BYTES = 128 * 1024 * 1024;

/** The most columns a ledger's rows may have (merchant exports have tens). */
export const RECON_MAX_COLUMNS = 1_000;

const count = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
/** A size as megabytes, or in bytes where megabytes would read as the limit itself. */
const sizeText = (bytes: number) =>
  megabytes(bytes) === megabytes(RECON_MAX_BYTES) ? `${count(bytes)} bytes` : megabytes(bytes);

/**
 * Why a file of this many bytes is refused before it is read, or undefined when it is small enough.
 * `atLeast`: the size is what was read before stopping (a pipe has no size to ask for).
 */
export function ledgerSizeProblem(bytes: number, opts: { atLeast?: boolean } = {}): string | undefined {
  if (bytes <= RECON_MAX_BYTES) return undefined;
  return `The file is ${opts.atLeast ? 'over ' : ''}${sizeText(bytes)}; a reconciliation takes a ledger of at most ${megabytes(RECON_MAX_BYTES)} (and ${count(RECON_MAX_ROWS)} rows). Split it by period, or export only the columns it needs, and reconcile each part.`;
}

/** Why a ledger with this many data rows is refused, or undefined. `line`: where the first one over is. */
export function ledgerRowsProblem(dataRows: number, line?: number): string | undefined {
  if (dataRows <= RECON_MAX_ROWS) return undefined;
  const where =
    line === undefined
      ? `${count(dataRows)} data rows`
      : `more than ${count(RECON_MAX_ROWS)} data rows (row ${count(RECON_MAX_ROWS + 1)} is on line ${count(line)})`;
  return `The file has ${where}; a reconciliation takes at most ${count(RECON_MAX_ROWS)}. Split the ledger by period and reconcile each part.`;
}

/** Why a record with this many fields (on this line) is refused, or undefined. */
export function ledgerColumnsProblem(fields: number, line: number): string | undefined {
  if (fields <= RECON_MAX_COLUMNS) return undefined;
  return `Line ${count(line)} has ${count(fields)} columns; a ledger may have at most ${count(RECON_MAX_COLUMNS)}. Export only the columns the reconciliation needs (transaction number or reference, amount, currency, date, status).`;
}
