/**
 * `cli reconcile <ledger.csv> --base-url <url> --merchant <no> --store <no> [--mapping <json>]
 *  --out <report.csv> [--summary <summary.csv>] [--concurrency <n>]`
 * Token from REFUND_DESK_API_TOKEN (never an argument: argv is visible to other users of the machine).
 * Exit: 0 all matched, 1 differences found (exceptions or unreadable rows), 2 bad input (file, mapping,
 * arguments, credentials rejected), 5 network (some lookups could not reach the service; the report is
 * still written, those rows as not_checked).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { cliGateway, CONNECTION_OPTIONS, type Connection, connectionFrom } from '../connection';
import { type CliIo, type Command, UsageError } from '../io';
import {
  LedgerInputError,
  prepareLedger,
  reconcilePrepared,
} from '../../main/services/reconciliation/pipeline';
import { columnMappingSchema, type ColumnMapping } from '../../../shared/recon/mapping';
import { OUTCOME_LABELS, RECON_OUTCOMES } from '../../../shared/recon/match';
import { reportCsv, summaryCsv } from '../../../shared/recon/export';
import { formatMinor } from '../../../shared/domain/money';

export const EXIT = { ok: 0, differences: 1, badInput: 2, network: 5 } as const;

/** The CLI's io, plus a clock tests may pin. */
export type ReconcileIo = CliIo & { now?: () => number };

/** Registered in ../main.ts. */
export const reconcileCommand: Command = {
  name: 'reconcile',
  summary: 'Reconcile a ledger CSV against the service; write the report (and summary) CSV.',
  usage:
    'reconcile <ledger.csv> --base-url <url> --merchant <no> --store <no> [--mapping <json|file>] --out <report.csv> [--summary <summary.csv>] [--concurrency <n>] [--quiet]  (token: REFUND_DESK_API_TOKEN; exit 0 all matched, 1 differences, 2 bad input, 5 network)',
  run: (args, io) => runReconcile(args, io),
};

const NETWORK_CODES = new Set(['network', 'timeout', 'unavailable', 'outcome_unknown']);
const CREDENTIAL_CODES = new Set(['unauthorized', 'forbidden', 'upstream_rejected']);

async function readMapping(arg: string | undefined): Promise<ColumnMapping | undefined> {
  if (!arg) return undefined;
  // Inline JSON or a path to a JSON file.
  const text = arg.trim().startsWith('{') ? arg : await readFile(arg, 'utf8');
  const parsed = columnMappingSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new LedgerInputError(
      `--mapping is not a valid mapping: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** Runs the command; resolves to the exit code. Never throws for expected failures. */
export async function runReconcile(argv: string[], io: ReconcileIo): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        mapping: { type: 'string' },
        out: { type: 'string' },
        summary: { type: 'string' },
        concurrency: { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (e) {
    io.err(`reconcile: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.badInput;
  }
  const v = args.values;
  const ledgerPath = args.positionals[0];
  const missing = [!ledgerPath && '<ledger.csv>', !v.out && '--out'].filter(Boolean);
  if (missing.length > 0 || !ledgerPath || !v.out) {
    io.err(`reconcile: missing ${missing.join(', ')}.\nUsage: ${reconcileCommand.usage}`);
    return EXIT.badInput;
  }
  let conn: Connection;
  try {
    conn = connectionFrom(v, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`reconcile: ${e.message}`);
    return EXIT.badInput;
  }
  const now = io.now ?? Date.now;
  let prepared;
  try {
    prepared = prepareLedger(new Uint8Array(await readFile(ledgerPath)), await readMapping(v.mapping));
  } catch (e) {
    io.err(
      `reconcile: ${e instanceof LedgerInputError || e instanceof SyntaxError ? e.message : `cannot read ${ledgerPath}: ${e instanceof Error ? e.message : String(e)}`}`,
    );
    return EXIT.badInput;
  }
  for (const p of prepared.problems.slice(0, 20)) io.err(`line ${p.line}: ${p.message}`);
  if (prepared.problems.length > 20)
    io.err(`… and ${prepared.problems.length - 20} more rows that could not be read`);

  const gateway = cliGateway(conn, io);
  let lastPrinted = 0;
  const result = await reconcilePrepared(prepared, {
    gateway,
    clock: { now },
    ...(v.concurrency ? { concurrency: Number.parseInt(v.concurrency, 10) || undefined } : {}),
    onProgress: (p) => {
      if (v.quiet || now() - lastPrinted < 1000) return;
      lastPrinted = now();
      io.err(
        `queried ${p.done}/${p.total}${p.failed ? `, ${p.failed} failed` : ''}${p.etaMs !== undefined ? `, about ${Math.ceil(p.etaMs / 1000)} s left` : ''}`,
      );
    },
  });
  const generatedAt = new Date(now()).toISOString();
  await writeFile(v.out, reportCsv(result.items));
  if (v.summary) await writeFile(v.summary, summaryCsv(result.summary.currencies, generatedAt));

  const s = result.summary;
  io.out(`${prepared.rows.length} ledger rows reconciled (${prepared.problems.length} unreadable)`);
  for (const o of RECON_OUTCOMES) if (s.counts[o]) io.out(`  ${OUTCOME_LABELS[o]}: ${s.counts[o]}`);
  for (const c of s.currencies) {
    io.out(
      `  ${c.currency}: ledger ${formatMinor(c.ledgerTotalMinor, c.currency)}, service ${formatMinor(c.serviceTotalMinor, c.currency)}, refunds ${formatMinor(c.serviceRefundsMinor, c.currency)}, difference ${formatMinor(c.differenceMinor, c.currency)}, unexplained ${formatMinor(c.unexplainedMinor, c.currency)}`,
    );
  }
  io.out(`report: ${v.out}${v.summary ? `, summary: ${v.summary}` : ''}`);

  const failedCodes = Object.keys(result.failedByCode);
  if (result.answered === 0 && failedCodes.length > 0 && failedCodes.every((c) => CREDENTIAL_CODES.has(c))) {
    io.err(
      'reconcile: the service refused every lookup — check --merchant, --store and REFUND_DESK_API_TOKEN.',
    );
    return EXIT.badInput;
  }
  if (failedCodes.some((c) => NETWORK_CODES.has(c))) {
    io.err(
      `reconcile: ${s.counts.not_checked} rows could not be checked because the service could not be reached${result.stoppedBecause ? ` (stopped early: ${result.stoppedBecause.message})` : ''}; run again to retry them.`,
    );
    return EXIT.network;
  }
  return s.exceptions > 0 || prepared.problems.length > 0 ? EXIT.differences : EXIT.ok;
}
