/**
 * `cli reconcile <ledger.csv|ledger.xlsx> --base-url <url> --merchant <no> --store <no> [--mapping <json>]
 *  [--sheet <name>]
 *  --out <report.csv> [--summary <summary.csv>] [--concurrency <n>]
 *  [--from YYYY-MM-DD --to YYYY-MM-DD [--days service|local] [--time-zone <IANA>] [--refund-lookback <days>]]
 *  [--date-tolerance <days>] [--decimal dot|comma] [--date-order ymd|dmy|mdy]`
 *
 * A ledger is a CSV file or an Excel workbook (.xlsx): its sheet named by --sheet, else the one whose
 * header looks like a ledger (the first when none does), said on stderr when it has several.
 * The same report as the screen for the same ledger and period: the app's reconciliation service runs
 * it (over an in-memory database), so the outcomes, summary and statement are the app's.
 * Token from REFUND_DESK_API_TOKEN (never an argument: argv is visible to other users of the machine).
 * Exit: 0 all matched, 1 differences found (exceptions or unreadable rows), 2 bad input (file, mapping,
 * formats that need a choice, arguments, credentials rejected, a ledger over the app's limits: 128 MB,
 * 250,000 rows, 1,000 columns — checked before it is read whole), 5 network (some of the service could
 * not be reached; the report is still written, those rows as not_checked).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { cliGateway, CONNECTION_OPTIONS, type Connection, connectionFrom } from '../connection';
import { type CliIo, type Command, UsageError } from '../io';
import { readLedgerFile } from '../ledger-file';
import { reconcileInMemory } from '../recon-run';
import { LedgerInputError, prepareLedgerFile } from '../../../core/services/reconciliation/pipeline';
import type { DateOrder } from '../../../../shared/recon/dates';
import { columnMappingSchema, type ColumnMapping } from '../../../../shared/recon/mapping';
import { OUTCOME_LABELS, RECON_OUTCOMES } from '../../../../shared/recon/match';
import { reportCsv, summaryCsv } from '../../../../shared/recon/export';
import {
  DEFAULT_DATE_TOLERANCE_DAYS,
  DEFAULT_REFUND_LOOKBACK_DAYS,
  optionIssues,
  type ReconOptions,
} from '../../../../shared/recon/period';
import { OFFLINE_CODES } from '../../../../shared/recon/run';
import { collapseReasons, groupText } from '../../../../shared/recon/reasons';
import { formatMinor } from '../../../../shared/domain/money';
import { escapeUnsafeText } from '../../../../shared/domain/text';
import { systemZoneName } from '../../../../shared/domain/zones';

export const EXIT = { ok: 0, differences: 1, badInput: 2, network: 5 } as const;

/** The CLI's io, plus a clock tests may pin. */
export type ReconcileIo = CliIo & { now?: () => number };

/** Registered in ../main.ts. */
export const reconcileCommand: Command = {
  name: 'reconcile',
  summary:
    'Reconcile a ledger (CSV or .xlsx) against the service (both ways for a period); write the report (and summary) CSV.',
  usage:
    'reconcile <ledger.csv|ledger.xlsx> --base-url <url> --merchant <no> --store <no> [--mapping <json|file>] [--sheet <name>] --out <report.csv> [--summary <summary.csv>] [--concurrency <n>] [--from YYYY-MM-DD --to YYYY-MM-DD [--days service|local] [--time-zone <IANA>] [--refund-lookback <days>]] [--date-tolerance <days>] [--decimal dot|comma] [--date-order ymd|dmy|mdy] [--quiet]  (token: REFUND_DESK_API_TOKEN; exit 0 all matched, 1 differences, 2 bad input, 5 network)',
  run: (args, io) => runReconcile(args, io),
};

const CREDENTIAL_CODES = new Set(['unauthorized', 'forbidden', 'upstream_rejected']);

/** The most characters of one message echoed from the input (a file's text, a path, a parse error). */
const SHOWN_MAX = 2_000;

/**
 * Text from the input as a message may echo it: characters that hide or steer a terminal made visible,
 * and at most `max` characters — a header of a million columns is never printed whole.
 */
function shown(text: string, max = SHOWN_MAX): string {
  const safe = escapeUnsafeText(text);
  return safe.length <= max
    ? safe
    : `${safe.slice(0, max)}… (${(safe.length - max).toLocaleString('en-US')} more characters not shown)`;
}

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

const whole = (flag: string, v: string | undefined, fallback: number) => {
  if (v === undefined) return fallback;
  if (!/^\d{1,3}$/.test(v)) throw new UsageError(`${flag} must be a whole number of days.`);
  return Number(v);
};

type Values = Record<string, string | boolean | undefined>;

/** "Lines 2–31 (…): …" as the CLI has always begun them: "lines 2–31 (…): …", "line 42: …". */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The run's options from the flags (the screen's defaults where a flag is absent). */
function optionsFrom(v: Values): ReconOptions {
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const from = str('from');
  const to = str('to');
  if ((from === undefined) !== (to === undefined))
    throw new UsageError('Give both --from and --to, or neither.');
  const days = str('days') ?? 'service';
  if (days !== 'service' && days !== 'local')
    throw new UsageError('--days must be service (UTC+8) or local.');
  const options: ReconOptions = {
    ...(from && to ? { period: { from, to } } : {}),
    days,
    timeZone: str('time-zone') ?? systemZoneName(),
    dateToleranceDays: whole('--date-tolerance', str('date-tolerance'), DEFAULT_DATE_TOLERANCE_DAYS),
    refundLookbackDays: whole('--refund-lookback', str('refund-lookback'), DEFAULT_REFUND_LOOKBACK_DAYS),
  };
  const issues = optionIssues(options);
  if (issues.length > 0) throw new UsageError(issues.join(' '));
  return options;
}

function formatFlags(v: Values) {
  const decimal = v['decimal'];
  const order = v['date-order'];
  if (decimal !== undefined && decimal !== 'dot' && decimal !== 'comma')
    throw new UsageError('--decimal must be dot or comma.');
  if (order !== undefined && order !== 'ymd' && order !== 'dmy' && order !== 'mdy')
    throw new UsageError('--date-order must be ymd, dmy or mdy.');
  return {
    ...(decimal ? { decimal: decimal === 'dot' ? ('.' as const) : (',' as const) } : {}),
    ...(order ? { dateOrder: order as DateOrder } : {}),
  };
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
        sheet: { type: 'string' },
        out: { type: 'string' },
        summary: { type: 'string' },
        concurrency: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        days: { type: 'string' },
        'time-zone': { type: 'string' },
        'date-tolerance': { type: 'string' },
        'refund-lookback': { type: 'string' },
        decimal: { type: 'string' },
        'date-order': { type: 'string' },
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
  let options: ReconOptions;
  let formats: ReturnType<typeof formatFlags>;
  try {
    conn = connectionFrom(v, io);
    options = optionsFrom(v);
    formats = formatFlags(v);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`reconcile: ${e.message}`);
    return EXIT.badInput;
  }
  const now = io.now ?? Date.now;
  let prepared;
  try {
    // The app's limits (size, rows, columns), checked before the file is in memory whole.
    const file = await readLedgerFile(ledgerPath);
    if ('problem' in file) {
      io.err(`reconcile: ${shown(ledgerPath, 200)}: ${file.problem} Nothing was checked.`);
      return EXIT.badInput;
    }
    prepared = await prepareLedgerFile(file.bytes, ledgerPath.split(/[\\/]/).at(-1) ?? ledgerPath, {
      ...formats,
      ...(v.mapping ? { mapping: await readMapping(v.mapping) } : {}),
      ...(typeof v.sheet === 'string' ? { sheet: v.sheet } : {}),
    });
  } catch (e) {
    io.err(
      `reconcile: ${shown(e instanceof LedgerInputError || e instanceof SyntaxError ? e.message : `cannot read ${ledgerPath}: ${e instanceof Error ? e.message : String(e)}`)}`,
    );
    return EXIT.badInput;
  }
  const sheets = prepared.sheets ?? [];
  if (sheets.length > 1 && prepared.file.sheet !== undefined)
    io.err(
      `reconcile: read sheet “${shown(prepared.file.sheet, 100)}” of ${sheets.length} (${shown(
        sheets
          .slice(0, 10)
          .map((s) => `“${s}”`)
          .join(', '),
        600,
      )}); choose another with --sheet.`,
    );
  // Rows with the same reason are said once, with their lines: "lines 2–31 (30 rows): …".
  const unusable = collapseReasons(prepared.imported.unusable);
  for (const g of unusable.slice(0, 20)) io.err(shown(lowerFirst(groupText(g))));
  if (unusable.length > 20)
    io.err(`… and ${unusable.slice(20).reduce((n, g) => n + g.count, 0)} more rows that cannot be used`);
  const notes = collapseReasons(
    prepared.imported.rows.flatMap((r) => (r.keyNote ? [{ line: r.line, reason: r.keyNote }] : [])),
  );
  for (const g of notes.slice(0, 20)) io.err(shown(lowerFirst(groupText(g))));

  let lastPrinted = 0;
  const result = await reconcileInMemory(prepared, {
    gateway: cliGateway(conn, io),
    clock: { now },
    options,
    profileName: `${conn.merchantNo}/${conn.storeNo} at ${conn.baseUrl}`,
    ...(v.concurrency ? { concurrency: Number.parseInt(v.concurrency, 10) || undefined } : {}),
    onProgress: (p) => {
      if (v.quiet || now() - lastPrinted < 1000) return;
      lastPrinted = now();
      io.err(
        `${p.phase === 'listing' ? 'listed windows' : 'queried'} ${p.done}/${p.total}${p.failed ? `, ${p.failed} failed` : ''}${'etaMs' in p && p.etaMs !== undefined ? `, about ${Math.ceil(p.etaMs / 1000)} s left` : ''}`,
      );
    },
  });
  const generatedAt = new Date(now()).toISOString();
  await writeFile(v.out, reportCsv(result.items));
  if (v.summary)
    await writeFile(
      v.summary,
      summaryCsv(result.summary.currencies, generatedAt, { run: result.facts, statement: result.statement }),
    );

  const s = result.summary;
  io.out(`${s.rows} ledger rows: ${s.read} read, ${s.unusable} unreadable`);
  for (const o of RECON_OUTCOMES) if (s.counts[o]) io.out(`  ${OUTCOME_LABELS[o]}: ${s.counts[o]}`);
  for (const c of s.currencies) {
    io.out(
      c.currency
        ? `  ${c.currency}: ledger ${formatMinor(c.ledgerTotalMinor, c.currency)}, service ${formatMinor(c.serviceTotalMinor, c.currency)}, refunds ${formatMinor(c.serviceRefundsMinor, c.currency)}, difference ${formatMinor(c.differenceMinor, c.currency)}, unexplained ${formatMinor(c.unexplainedMinor, c.currency)}`
        : `  (no currency): ${c.rows} unreadable row(s), no amounts`,
    );
  }
  if (!v.quiet) for (const line of result.statement) io.out(line);
  io.out(`report: ${v.out}${v.summary ? `, summary: ${v.summary}` : ''}`);

  const f = result.facts;
  const failedCodes = Object.keys(f.lookups.failedByCode);
  const answered = f.sources.list + f.sources.lookup + f.sources.cache;
  const refused =
    (answered === 0 && failedCodes.length > 0 && failedCodes.every((c) => CREDENTIAL_CODES.has(c))) ||
    (f.stoppedBecause !== undefined && CREDENTIAL_CODES.has(f.stoppedBecause.code));
  if (refused) {
    io.err(
      'reconcile: the service refused every lookup — check --merchant, --store and REFUND_DESK_API_TOKEN.',
    );
    return EXIT.badInput;
  }
  if (f.offline || failedCodes.some((c) => OFFLINE_CODES.has(c))) {
    io.err(
      `reconcile: ${s.counts.not_checked} rows could not be checked because the service could not be reached${f.stoppedBecause ? ` (stopped early: ${f.stoppedBecause.message})` : ''}; run again to retry them.`,
    );
    return EXIT.network;
  }
  return s.exceptions > 0 ? EXIT.differences : EXIT.ok;
}
