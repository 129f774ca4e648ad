/**
 * `cli refund-batch FILE (--profile NAME | --base-url URL --merchant NO --store NO) [--mapping JSON|FILE]
 *  (--dry-run | --yes) [--total "12.50 USD,…"] [--sheet NAME] [--decimal dot|comma]
 *  [--out report.csv|.xlsx] [--data-dir DIR | --database-url URL [--ca-file PEM]] [--json]`
 *
 * --dry-run: what every row of a refund batch file (CSV or .xlsx) would do — `refunds.batchDryRun`
 * through the same app core and dispatcher as the app, against the app's own database in --data-dir (so
 * this desk's refunds in flight and not yet visible at the service count). Read-only: nothing is sent.
 *
 * --yes: executes it — `refunds.batchStart`, then follows `refunds.batchStatus` until the run ends. Each
 * row is its own decision through the refund service, exactly once: a second run of the same file
 * refunds nothing twice (its rows are recognised by their row keys), and a run that was killed is
 * resumed where it was by running the same command again (a refund that may have left is resolved by
 * query, never resent). On a live-money profile --total must repeat the batch's total(s).
 *
 * Team mode (--database-url, or REFUND_DESK_DATABASE_URL): the batch and its rows are the team
 * database's, so another desk sees them and resumes a batch whose desk stopped (after its lease). A batch
 * whose total in a currency is above the account's approval policy is recorded as awaiting approval and
 * nothing is sent: its id is printed and the exit code is 7; a checker runs `approve <batch id> --yes`.
 * Running the same file again while it waits answers the same batch (7 again), never a second one.
 *
 * Exit: 0 every usable row refunded (or would be / was already, by a batch), 1 some rows refused or
 * unusable, 6 some outcomes unknown (--yes), 7 waiting for approval (team mode; nothing sent), 2 bad
 * input (file, mapping, arguments, a file over the batch limits: 32 MB, 50,000 rows).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { batchSizeProblem } from '../../../../shared/batch/limits';
import { batchMappingSchema, type BatchMapping } from '../../../../shared/batch/mapping';
import { BATCH_REPORT_COLUMNS, batchReportCsv } from '../../../../shared/batch/report';
import { BATCH_CLASS_LABELS, BATCH_ROW_CLASSES, movingTotals } from '../../../../shared/batch/result';
import type { BatchStatus } from '../../../../shared/batch/execution';
import { writeXlsx } from '../../../../shared/csv/xlsx';
import { isAppError } from '../../../../shared/domain/errors';
import { formatMinor } from '../../../../shared/domain/money';
import { moneyModeOf } from '../../../../shared/domain/profile';
import { escapeUnsafeText } from '../../../../shared/domain/text';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import type { AppCore } from '../../../core/compose';
import { ACCOUNT_OPTIONS, cliAccount, invoke, openJournalCore } from '../core';
import { DATABASE_OPTIONS, optionalDatabase } from '../database';
import type { CliIo } from '../io';
import { type Command, parseCliArgs, UsageError } from '../io';

export const BATCH_EXIT = {
  allRefundable: 0,
  someRefused: 1,
  badInput: 2,
  someUnknown: 6,
  awaitingApproval: 7,
} as const;

/** How often a running batch's status is read, and progress written (stderr) at most. */
const POLL_MS = 200;
const PROGRESS_MS = 2_000;

/** Rows named one by one on the terminal; the rest are in the report (--out). */
const SHOWN_ROWS = 20;

const shown = (text: string, max = 300) => {
  const safe = escapeUnsafeText(text);
  return safe.length <= max ? safe : `${safe.slice(0, max)}…`;
};

async function readMapping(arg: string | undefined): Promise<BatchMapping | undefined> {
  if (!arg) return undefined;
  let text = arg;
  if (!arg.trim().startsWith('{'))
    try {
      text = await readFile(arg, 'utf8');
    } catch {
      throw new UsageError(`--mapping: “${shown(arg, 200)}” is neither JSON nor a file that can be read.`);
    }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError('--mapping is not valid JSON.');
  }
  const parsed = batchMappingSchema.safeParse(json);
  if (!parsed.success)
    throw new UsageError(
      `--mapping is not a valid mapping (fields: transactionNo, reference, amount, currency, reason, rowRef): ${parsed.error.issues.map((i) => `${i.path.join('.') || '(mapping)'}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

export const refundBatchCommand: Command = {
  name: 'refund-batch',
  summary:
    'a refund batch file (CSV or .xlsx): what every row would do (--dry-run), or refund each usable row exactly once (--yes)',
  usage:
    'refund-batch <file.csv|file.xlsx> (--profile <name> | --base-url <url> --merchant <no> --store <no>) [--mapping <json|file>] (--dry-run | --yes [--total "<amount> <CCY>,…"]) [--sheet <name>] [--decimal dot|comma] [--out <report.csv|report.xlsx>] [--data-dir <dir> | --database-url <url> [--ca-file <pem>]] [--json]  (token: REFUND_DESK_API_TOKEN; exit 0 every usable row refunded, 1 some rows refused, 6 some outcomes unknown, 7 waiting for approval: nothing sent, 2 bad input)',
  async run(args, io) {
    const { values, positionals } = parseCliArgs(
      args,
      {
        ...ACCOUNT_OPTIONS,
        mapping: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        total: { type: 'string' },
        sheet: { type: 'string' },
        decimal: { type: 'string' },
        out: { type: 'string' },
        'data-dir': { type: 'string' },
        ...DATABASE_OPTIONS,
        json: { type: 'boolean', default: false },
      },
      true,
    );
    const path = positionals[0];
    if (!path || positionals.length > 1) throw new UsageError('Give exactly one batch file.');
    if (values.yes && values['dry-run']) throw new UsageError('Give either --dry-run or --yes, not both.');
    if (!values['dry-run'] && !values.yes)
      throw new UsageError(
        'Add --dry-run to see what each row would do (nothing is sent), or --yes to refund every usable row.',
      );
    if (values.total !== undefined && !values.yes) throw new UsageError('--total goes with --yes.');
    if (values.decimal !== undefined && values.decimal !== 'dot' && values.decimal !== 'comma')
      throw new UsageError('--decimal must be dot or comma.');
    const mapping = await readMapping(values.mapping);
    let bytes: Uint8Array;
    try {
      const info = await stat(path);
      const tooBig = info.isFile() ? batchSizeProblem(info.size) : undefined;
      if (tooBig) throw new UsageError(tooBig);
      bytes = new Uint8Array(await readFile(path));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(
        `The file “${shown(path, 200)}” cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const tooBig = batchSizeProblem(bytes.length);
    if (tooBig) throw new UsageError(tooBig);
    const dataDir = values['data-dir'] ?? defaultAppDataDir(io.env);
    const found = cliAccount(values, io, dataDir);
    // The person recorded on each row's refund and on the batch: this run's, as `refund` records it.
    const operator = (io.env['USER'] ?? io.env['USERNAME'] ?? 'cli').trim().slice(0, 60) || 'cli';
    const account = values.yes ? { ...found, profile: { ...found.profile, operatorName: operator } } : found;
    const database = optionalDatabase(values, io);
    const core = await openJournalCore({ dataDir, io, account, ...(database ? { database } : {}) });
    if (typeof core === 'number') return core;
    const file = {
      name: escapeUnsafeText(basename(path)).slice(0, 260),
      base64: Buffer.from(bytes).toString('base64'),
    };
    const readOptions = {
      ...(mapping ? { mapping } : {}),
      ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
      ...(values.decimal ? { decimal: values.decimal === 'dot' ? ('.' as const) : (',' as const) } : {}),
    };
    if (values.yes)
      try {
        return await execute(core, io, {
          profileId: account.profile.id,
          file,
          readOptions,
          ...(values.total !== undefined ? { total: values.total } : {}),
          ...(values.out !== undefined ? { out: values.out } : {}),
          json: values.json,
        });
      } finally {
        await core.close();
      }
    try {
      let answer;
      try {
        answer = await invoke(
          core,
          'refunds.batchDryRun',
          { profileId: account.profile.id, file, ...readOptions },
          contract['refunds.batchDryRun'].output,
        );
      } catch (e) {
        if (isAppError(e) && e.code === 'invalid_input') {
          io.err(shown(e.message, 2_000));
          return BATCH_EXIT.badInput;
        }
        throw e;
      }
      if (values.out) {
        const out = values.out;
        await writeFile(
          out,
          out.toLowerCase().endsWith('.xlsx')
            ? await writeXlsx(BATCH_REPORT_COLUMNS, answer.rows, { sheetName: 'Refund batch' })
            : batchReportCsv(answer.rows),
        );
      }
      const refused = answer.rows.filter((r) => r.class !== 'will_refund' && r.class !== 'already_refunded');
      if (values.json) io.out(JSON.stringify(answer, null, 2));
      else {
        io.out(
          `${answer.file.name}${answer.file.sheet ? ` (sheet ${answer.file.sheet})` : ''}: ${answer.dataRows} data rows — ${answer.rowsRead} read, ${answer.unusableRows} cannot be used`,
        );
        io.out(
          `Profile ${answer.profileName} (merchant ${answer.merchantNo}, store ${answer.storeNo}), money: ${answer.moneyMode}; payments checked at ${answer.checkedAt}. Dry run: nothing was sent.`,
        );
        for (const c of BATCH_ROW_CLASSES)
          if (answer.counts[c]) io.out(`  ${BATCH_CLASS_LABELS[c]}: ${answer.counts[c]}`);
        if (answer.totals.length === 0) io.out('Would refund: nothing.');
        for (const t of answer.totals)
          io.out(`Would refund: ${formatMinor(t.amountMinor, t.currency)} ${t.currency} in ${t.rows} row(s)`);
        for (const t of answer.approvalTotals)
          io.out(
            `Waiting for approval: ${formatMinor(t.amountMinor, t.currency)} ${t.currency} in ${t.rows} row(s)`,
          );
        for (const r of refused.slice(0, SHOWN_ROWS))
          io.out(`  line ${r.line}: ${BATCH_CLASS_LABELS[r.class]} — ${shown(r.message ?? '')}`);
        if (refused.length > SHOWN_ROWS)
          io.out(
            `  … and ${refused.length - SHOWN_ROWS} more${values.out ? ` (every row is in ${values.out})` : ' (--out writes every row to a report)'}`,
          );
      }
      return refused.length === 0 ? BATCH_EXIT.allRefundable : BATCH_EXIT.someRefused;
    } finally {
      await core.close();
    }
  },
};

/** --yes: start (or resume) the batch, follow it to its end, write the report, answer the exit code. */
async function execute(
  core: AppCore,
  io: CliIo,
  opts: {
    profileId: string;
    file: { name: string; base64: string };
    readOptions: { mapping?: BatchMapping; sheet?: string; decimal?: '.' | ',' };
    total?: string;
    out?: string;
    json: boolean;
  },
): Promise<number> {
  let status: BatchStatus;
  try {
    // Live money needs the batch's totals typed again. On the command line `--yes` is the confirmation,
    // as `refund`'s --amount is its typed amount: without --total, the totals of a dry run made just now
    // are the ones confirmed — and if the payments change before the batch starts, it is refused.
    let typed = opts.total?.split(',').map((t) => t.trim());
    const p = core.profiles.profiles.get(opts.profileId);
    const mode = moneyModeOf(
      p.environment,
      core.profiles.profiles.effectiveBaseUrl(p.id),
      p.loopbackMoneyMode,
    );
    if (!typed && mode === 'live') {
      const dry = await invoke(
        core,
        'refunds.batchDryRun',
        { profileId: opts.profileId, file: opts.file, ...opts.readOptions },
        contract['refunds.batchDryRun'].output,
      );
      typed = movingTotals(dry).map((t) => `${formatMinor(t.amountMinor, t.currency)} ${t.currency}`);
    }
    status = await invoke(
      core,
      'refunds.batchStart',
      {
        profileId: opts.profileId,
        file: opts.file,
        ...opts.readOptions,
        ...(typed ? { typedTotals: typed } : {}),
      },
      contract['refunds.batchStart'].output,
    );
  } catch (e) {
    if (isAppError(e) && e.code === 'invalid_input') {
      io.err(shown(e.message, 2_000));
      return BATCH_EXIT.badInput;
    }
    throw e;
  }
  if (status.state === 'awaiting_approval') return awaiting(io, status, opts.json);
  if (!opts.json)
    io.out(
      status.resumed
        ? `Resuming batch ${status.batchId} of ${status.fileName} (started ${status.createdAt} by ${shown(status.operator, 60)}): ${status.pending} of ${status.toSend} row(s) still to send.`
        : `Batch ${status.batchId}: ${status.dataRows} data rows — ${status.toSend} to refund${status.totals.length ? ` (${status.totals.map((t) => `${formatMinor(t.amountMinor, t.currency)} ${t.currency}`).join(', ')})` : ''}, ${status.alreadyDone} already refunded by an earlier batch, ${status.notUsable} refused or unusable. Money: ${status.moneyMode}.`,
    );
  return follow(core, io, opts, status);
}

/** A batch waiting for a second person (team mode): its id, what it sends, who may approve; exit 7. */
function awaiting(io: CliIo, status: BatchStatus, json: boolean): number {
  if (json) {
    io.out(JSON.stringify(status, null, 2));
    return BATCH_EXIT.awaitingApproval;
  }
  const totals = status.totals
    .map((t) => `${formatMinor(t.amountMinor, t.currency)} ${t.currency}`)
    .join(', ');
  io.out(`Batch ${status.batchId}`);
  io.out(
    `Awaiting approval — nothing was sent. ${status.toSend} row(s) to refund (${totals}) are above the account's approval limit as a batch; a checker other than ${shown(status.approval?.startedBy ?? status.operator, 60)} approves it as a whole${status.approval?.expiresAt ? ` before ${status.approval.expiresAt}` : ''}: approve ${status.batchId} --yes --database-url …`,
  );
  return BATCH_EXIT.awaitingApproval;
}

/**
 * Follows a batch this process runs until its run ends, writes the report and answers the exit code
 * (also `approve <batch id>`, whose desk runs the batch it approved).
 */
export async function follow(
  core: AppCore,
  io: CliIo,
  opts: { profileId: string; out?: string; json: boolean },
  started: BatchStatus,
): Promise<number> {
  let status = started;
  const ref = { profileId: opts.profileId, batchId: status.batchId };
  let shownAt = Date.now();
  while (status.active) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    status = await invoke(core, 'refunds.batchStatus', ref, contract['refunds.batchStatus'].output);
    if (!opts.json && status.active && Date.now() - shownAt >= PROGRESS_MS) {
      shownAt = Date.now();
      const done = status.toSend - status.pending;
      io.err(
        `  ${done}/${status.toSend} rows done${status.etaMs !== undefined ? `, about ${Math.ceil(status.etaMs / 1000)} s left` : ''}`,
      );
    }
  }
  const report = await invoke(core, 'refunds.batchReport', ref, contract['refunds.batchReport'].output);
  status = report.status;
  if (opts.out)
    await writeFile(
      opts.out,
      opts.out.toLowerCase().endsWith('.xlsx')
        ? await writeXlsx(BATCH_REPORT_COLUMNS, report.rows, { sheetName: 'Refund batch' })
        : batchReportCsv(report.rows),
    );
  const code =
    status.unknown > 0
      ? BATCH_EXIT.someUnknown
      : status.refused > 0 || status.notUsable > 0 || status.pending > 0 || status.cancelled > 0
        ? BATCH_EXIT.someRefused
        : BATCH_EXIT.allRefundable;
  if (opts.json) {
    io.out(JSON.stringify(status, null, 2));
    return code;
  }
  io.out(
    `Batch ${status.batchId} ${status.state}: ${status.refunded} refunded, ${status.refused} refused or rejected, ${status.unknown} of unknown outcome, ${status.cancelled} cancelled; ${status.alreadyDone} row(s) were already refunded by an earlier batch, ${status.notUsable} refused or unusable by the dry run.`,
  );
  if (status.toSend === 0 && status.alreadyDone > 0)
    io.out(`Nothing left to refund: ${status.alreadyDone} row(s) of this file were already refunded.`);
  if (status.pending > 0)
    io.out(
      `${status.pending} row(s) were not sent yet (another process holds this batch, or it stopped): run the same command again to resume it.`,
    );
  const attention = report.rows.filter(
    (r) =>
      r.outcome === 'refused' ||
      r.outcome === 'rejected' ||
      r.outcome === 'failed' ||
      r.outcome === 'outcome_unknown' ||
      r.outcome === 'sending',
  );
  for (const r of attention.slice(0, SHOWN_ROWS))
    io.out(`  line ${r.line}: ${r.outcome} — ${shown(r.message ?? '')}`);
  if (attention.length > SHOWN_ROWS)
    io.out(
      `  … and ${attention.length - SHOWN_ROWS} more${opts.out ? ` (every row is in ${opts.out})` : ' (--out writes every row to a report)'}`,
    );
  if (status.unknown > 0)
    io.out(
      `Whether ${status.unknown} refund(s) moved money is not known yet: they are looked up by query, never resent. Run the same command again (or Refunds → Check again) later.`,
    );
  return code;
}
