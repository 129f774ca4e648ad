/**
 * `cli refund-batch FILE (--profile NAME | --base-url URL --merchant NO --store NO) [--mapping JSON|FILE]
 *  --dry-run [--sheet NAME] [--decimal dot|comma] [--out report.csv|.xlsx] [--data-dir DIR] [--json]`
 *
 * What every row of a refund batch file (CSV or .xlsx) would do — `refunds.batchDryRun` through the same
 * app core and dispatcher as the app, against the app's own database in --data-dir (so this desk's
 * refunds in flight and not yet visible at the service count). Read-only: nothing is sent.
 * Exit: 0 every data row would be refunded (or was already, by a batch), 1 some rows refused or unusable,
 * 2 bad input (file, mapping, arguments, a file over the batch limits: 32 MB, 50,000 rows).
 * `--yes` (execution) is not available yet in this version: it is refused, nothing is sent.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { batchSizeProblem } from '../../../../shared/batch/limits';
import { batchMappingSchema, type BatchMapping } from '../../../../shared/batch/mapping';
import { BATCH_REPORT_COLUMNS, batchReportCsv } from '../../../../shared/batch/report';
import { BATCH_CLASS_LABELS, BATCH_ROW_CLASSES } from '../../../../shared/batch/result';
import { writeXlsx } from '../../../../shared/csv/xlsx';
import { isAppError } from '../../../../shared/domain/errors';
import { formatMinor } from '../../../../shared/domain/money';
import { escapeUnsafeText } from '../../../../shared/domain/text';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import { ACCOUNT_OPTIONS, cliAccount, invoke, openCliCore } from '../core';
import { type Command, parseCliArgs, UsageError } from '../io';

export const BATCH_EXIT = { allRefundable: 0, someRefused: 1, badInput: 2 } as const;

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
    'what every row of a refund batch file (CSV or .xlsx) would do, against the service and the app’s database',
  usage:
    'refund-batch <file.csv|file.xlsx> (--profile <name> | --base-url <url> --merchant <no> --store <no>) [--mapping <json|file>] --dry-run [--sheet <name>] [--decimal dot|comma] [--out <report.csv|report.xlsx>] [--data-dir <dir>] [--json]  (token: REFUND_DESK_API_TOKEN; exit 0 every row would be refunded, 1 some rows refused, 2 bad input)',
  async run(args, io) {
    const { values, positionals } = parseCliArgs(
      args,
      {
        ...ACCOUNT_OPTIONS,
        mapping: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        sheet: { type: 'string' },
        decimal: { type: 'string' },
        out: { type: 'string' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    const path = positionals[0];
    if (!path || positionals.length > 1) throw new UsageError('Give exactly one batch file.');
    if (values.yes && values['dry-run']) throw new UsageError('Give either --dry-run or --yes, not both.');
    if (values.yes) {
      io.err(
        'Refunding a batch (--yes) is not available yet in this version: nothing was sent. Run with --dry-run to see what each row would do.',
      );
      return BATCH_EXIT.badInput;
    }
    if (!values['dry-run'])
      throw new UsageError('Add --dry-run to see what each row would do (nothing is sent).');
    if (values['database-url'])
      throw new UsageError('--database-url (team mode) is not available in this version; use --data-dir.');
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
    const account = cliAccount(values, io, dataDir);
    const core = await openCliCore({ dataDir, io, account });
    try {
      let answer;
      try {
        answer = await invoke(
          core,
          'refunds.batchDryRun',
          {
            profileId: account.profile.id,
            file: {
              name: escapeUnsafeText(basename(path)).slice(0, 260),
              base64: Buffer.from(bytes).toString('base64'),
            },
            ...(mapping ? { mapping } : {}),
            ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
            ...(values.decimal
              ? { decimal: values.decimal === 'dot' ? ('.' as const) : (',' as const) }
              : {}),
          },
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
