import { isAppError } from '../../../../shared/domain/errors';
import { formatMinor, MoneyParseError, parseMinor } from '../../../../shared/domain/money';
import { moneyModeOf } from '../../../../shared/domain/profile';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import { ACCOUNT_OPTIONS, cliAccount, invoke, openJournalCore } from '../core';
import { DATABASE_OPTIONS, databaseFrom } from '../database';
import { type Command, UsageError, parseCliArgs } from '../io';
import { exitOfRefund, exitOfRefusal, printFields, refundFields } from '../refund-report';
import { follow } from './refund-batch';

/**
 * `approve <id>`: four-eyes from a script — another person's request approved AND sent in one action,
 * through the same app core and refund service as the app's Approve button (`approvals.approveAndSend`):
 * a fresh query of the payment, one decision that re-reads its refunds, the same confirmations as
 * `refund` (`--yes`; `--over-limit` past a profile limit; on a live-money address the amount typed
 * again as `--amount`), and the database's own refusals (own request, above the checker's limit,
 * expired) in its words. Only after the claim commits — this run the sender, holding a lease — does the
 * request leave; an ambiguous answer is resolved by query, never resent. The account is named as for
 * `refund` (the token signs for it), and the request must be that account's.
 *
 * A refund batch (its id starts with `RB`, as `refund-batch` prints it; a request's with `RD`) is
 * approved as a whole the same way (`refunds.batchApprove`): the database refuses its starter, a checker
 * whose limit does not cover its total in every currency, and an expired batch; this run then executes
 * it (each row through the refund service, exactly once) and answers as `refund-batch` does (0 every row
 * refunded, 1 some refused, 6 some unknown). On a live-money address `--total` repeats its total(s).
 */
export const approveCommand: Command = {
  name: 'approve',
  summary: 'approve another person’s request for a refund and send it, in one action (checker)',
  usage:
    'approve <id> (--profile <name> | --base-url <url> --merchant <no> --store <no>) --yes [--amount <decimal>] [--over-limit] [--total "<amount> <CCY>,…"] --database-url <url> [--ca-file <pem>] [--data-dir <dir>] [--out <report.csv|report.xlsx>] [--json]  (token: REFUND_DESK_API_TOKEN; --amount: the request’s amount typed again, required for live money; a batch id (RB…) approves the batch as a whole and runs it, --total its total(s) typed again on live money; exit 0 accepted, 1 some batch rows refused, 2 bad usage, 3 no such request, 4 rejected or refused, 5 network, 6 outcome unknown)',
  async run(args, io) {
    const { values, positionals } = parseCliArgs(
      args,
      {
        ...ACCOUNT_OPTIONS,
        ...DATABASE_OPTIONS,
        amount: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'over-limit': { type: 'boolean', default: false },
        total: { type: 'string' },
        out: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    const [id, ...extra] = positionals;
    if (!id || extra.length > 0 || !/^[A-Za-z0-9_-]{1,64}$/.test(id))
      throw new UsageError('Give exactly one request id (RD…), as `approvals` lists it: approve <id> --yes.');
    if (values.amount !== undefined && !/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(values.amount))
      throw new UsageError('--amount must be the request’s amount as a decimal, e.g. 150.00.');
    const isBatch = id.startsWith('RB');
    if (isBatch && (values.amount !== undefined || values['over-limit']))
      throw new UsageError(
        `${id} is a refund batch: it is approved as a whole (--total repeats its total(s) on live money); --amount and --over-limit are for a single request.`,
      );
    if (!isBatch && (values.total !== undefined || values.out !== undefined))
      throw new UsageError('--total and --out go with a refund batch id (RB…).');
    if (!values.yes)
      throw new UsageError(
        `Nothing was sent. Add --yes to confirm approving ${isBatch ? 'batch' : 'request'} ${id} and sending it.`,
      );
    // Four-eyes lives in the team database: there is nothing to approve on a single desk.
    const database = databaseFrom(values, io);
    const dataDir = values['data-dir'] ?? defaultAppDataDir(io.env);
    const account = cliAccount(values, io, dataDir);
    const profile = account.profile;
    const core = await openJournalCore({ dataDir, io, account, database });
    if (typeof core === 'number') return core;
    if (isBatch)
      try {
        return await approveBatch(core, io, {
          profileId: profile.id,
          batchId: id,
          ...(values.total !== undefined ? { total: values.total } : {}),
          ...(values.out !== undefined ? { out: values.out } : {}),
          json: values.json,
        });
      } finally {
        await core.close();
      }
    try {
      if (values.amount !== undefined) {
        // The approver cannot change what was asked: an amount typed differently is a mistake, not an edit.
        const open = await invoke(
          core,
          'approvals.list',
          { profileId: profile.id },
          contract['approvals.list'].output,
        );
        const request = open.find((r) => r.id === id);
        if (request) {
          let typed: number | undefined;
          try {
            typed = parseMinor(values.amount, request.currency);
          } catch (e) {
            if (!(e instanceof MoneyParseError)) throw e;
          }
          if (typed !== request.amountMinor)
            throw new UsageError(
              `Nothing was sent. --amount ${values.amount.trim()} is not the amount of request ${id} (${formatMinor(request.amountMinor, request.currency)} ${request.currency}); an approver cannot change a request.`,
            );
        }
      }
      const intent = await invoke(
        core,
        'approvals.approveAndSend',
        {
          profileId: profile.id,
          id,
          // A limit is passed only when the script says so (--over-limit), never by --yes alone.
          confirmation: {
            ...(values['over-limit'] ? { overLimit: true } : {}),
            ...(values.amount !== undefined ? { typedAmount: values.amount.trim() } : {}),
          },
        },
        contract['approvals.approveAndSend'].output,
      );
      const moneyMode = moneyModeOf(
        profile.environment,
        core.profiles.profiles.effectiveBaseUrl(profile.id),
        profile.loopbackMoneyMode,
      );
      printFields(io, values.json, refundFields(intent, moneyMode));
      return exitOfRefund(intent, io);
    } catch (e) {
      if (!isAppError(e)) throw e;
      const code = exitOfRefusal(e, io, values.json);
      if (e.details?.requires?.includes('typed_amount'))
        io.err(
          `Nothing was sent. This refund goes to a live-money address: run it again with --amount <the request's amount> to confirm it.`,
        );
      return code;
    } finally {
      await core.close();
    }
  },
};

/** A refund batch approved as a whole, then run by this process to its end (as `refund-batch --yes`). */
async function approveBatch(
  core: Exclude<Awaited<ReturnType<typeof openJournalCore>>, number>,
  io: Parameters<Command['run']>[1],
  o: { profileId: string; batchId: string; total?: string; out?: string; json: boolean },
): Promise<number> {
  let status;
  try {
    status = await invoke(
      core,
      'refunds.batchApprove',
      {
        profileId: o.profileId,
        batchId: o.batchId,
        ...(o.total !== undefined ? { typedTotals: o.total.split(',').map((t) => t.trim()) } : {}),
      },
      contract['refunds.batchApprove'].output,
    );
  } catch (e) {
    if (!isAppError(e)) throw e;
    const code = exitOfRefusal(e, io, o.json);
    if (e.details?.requires?.includes('typed_total'))
      io.err(
        `Nothing was sent. This batch goes to a live-money address: run it again with --total "<its total> <CCY>,…" to confirm it.`,
      );
    return code;
  }
  if (!o.json)
    io.out(
      `Batch ${status.batchId} ${status.resumed ? 'was approved already: resuming it' : `approved by ${status.approval?.approvedBy ?? 'you'}`} — ${status.pending} of ${status.toSend} row(s) to send.`,
    );
  return follow(core, io, o, status);
}
