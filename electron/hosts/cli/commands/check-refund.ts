import { isAppError } from '../../../../shared/domain/errors';
import { formatMinor } from '../../../../shared/domain/money';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import { ACCOUNT_OPTIONS, cliAccount, invoke, openJournalCore } from '../core';
import { DATABASE_OPTIONS, optionalDatabase } from '../database';
import { type Command, EXIT, UsageError, parseCliArgs } from '../io';

/**
 * `check-refund <intentId>`: asks the service about a refund this desk recorded (looks for its
 * refundReference in the payment's refundInfo, or follows an accepted one) — never sends anything.
 * The way out of an unknown outcome from a script, through the same app core as the app
 * (`refunds.checkAgain`). It asks only the account the refund went to: give
 * that profile (`--profile`) or its address, merchant and store. Exit 0 resolved (accepted or final),
 * 4 rejected, 6 still unknown (or cannot be checked with this account), 3 no such intent.
 */
export const checkRefundCommand: Command = {
  name: 'check-refund',
  summary: 'find out what happened to a refund whose outcome is unknown (never resends)',
  usage:
    'check-refund <intentId> (--profile <name> | --base-url <url> --merchant <no> --store <no>) [--data-dir <dir> | --database-url <url> [--ca-file <pem>]] [--json]',
  async run(args, io) {
    const parsed = parseCliArgs(
      args,
      {
        ...ACCOUNT_OPTIONS,
        ...DATABASE_OPTIONS,
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    const [intentId, ...extra] = parsed.positionals;
    if (!intentId || extra.length > 0 || !/^RD[0-9A-Z]{6,40}$/.test(intentId))
      throw new UsageError('Give the refund intent id (RD…), as `refund` printed it.');
    const dataDir = parsed.values['data-dir'] ?? defaultAppDataDir(io.env);
    const account = cliAccount(parsed.values, io, dataDir);
    const database = optionalDatabase(parsed.values, io);
    const core = await openJournalCore({ dataDir, io, account, ...(database ? { database } : {}) });
    if (typeof core === 'number') return core;
    try {
      const i = await invoke(
        core,
        'refunds.checkAgain',
        { profileId: account.profile.id, id: intentId },
        contract['refunds.checkAgain'].output,
      );
      const fields = {
        intentId: i.id,
        outcome: i.state,
        transactionNo: i.transactionNo,
        amount: `${formatMinor(i.amountMinor, i.currency)} ${i.currency}`,
        refundTransactionNo: i.refundTransactionNo,
        refundStatus: i.refundStatus,
        evidence: i.lastCheck?.note,
      };
      if (parsed.values.json) io.out(JSON.stringify(fields, null, 2));
      else for (const [k, v] of Object.entries(fields)) if (v !== undefined) io.out(`${k.padEnd(20)}${v}`);
      if (i.state === 'outcome_unknown' || i.state === 'sending') return 6;
      return i.state === 'rejected' || i.state === 'refused' ? EXIT.REJECTED : EXIT.OK;
    } catch (e) {
      if (!isAppError(e)) throw e;
      io.err(e.message);
      return e.code === 'not_found' ? EXIT.NOT_FOUND : EXIT.FAILURE;
    } finally {
      await core.close();
    }
  },
};
