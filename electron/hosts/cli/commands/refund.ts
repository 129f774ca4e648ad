import { isAppError } from '../../../../shared/domain/errors';
import { CURRENCIES, isKnownCurrency } from '../../../../shared/domain/currencies';
import { formatMinor, MoneyParseError, parseMinor } from '../../../../shared/domain/money';
import { moneyModeOf } from '../../../../shared/domain/profile';
import { findUnsafeCharacter, unsafeTextMessage } from '../../../../shared/domain/text';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import { ACCOUNT_OPTIONS, cliAccount, invoke, openJournalCore } from '../core';
import { DATABASE_OPTIONS, optionalDatabase } from '../database';
import { type Command, UsageError, parseCliArgs } from '../io';
import { exitOfRefund, exitOfRefusal, printFields, refundFields } from '../refund-report';

/**
 * `refund`: the app's own refund service and database, from a script — `refunds.submit` through the same
 * app core and dispatcher as the app, for the one account the flags or --profile name. The same checks run (fresh query,
 * status, remaining including every intent of this account and payment, one in flight per payment),
 * decided in the same database transaction as the app's, committed before the request leaves; an
 * ambiguous failure is resolved by query, never resent. `--yes` is the explicit confirmation; in
 * production the typed --amount counts as the re-typed amount. A refund above the profile's refund
 * limits needs `--over-limit` as well, as the app's dialog needs its "I confirm" box: `--yes` alone
 * never passes a limit, so a script that loops over refunds stops at the first one beyond them.
 * In team mode (--database-url) a refund above the account's approval policy is recorded as a request
 * and nothing is sent: the request id is printed and the exit code is 7 (a checker runs `approve`).
 */
export const refundCommand: Command = {
  name: 'refund',
  summary: 'refund a payment (full or partial) through the app’s refund service and database',
  usage:
    'refund (--profile <name> | --base-url <url> --merchant <no> --store <no>) (--transaction-no <n> | --reference <r>) --amount <decimal> --currency <ccy> --reason <text> --yes [--over-limit] [--data-dir <dir> | --database-url <url> [--ca-file <pem>]] [--operator <name>] [--json]  (token: REFUND_DESK_API_TOKEN; exit 0 accepted, 4 rejected, 5 network, 6 outcome unknown, 7 awaiting approval: nothing sent)',
  async run(args, io) {
    const { values } = parseCliArgs(
      args,
      {
        ...ACCOUNT_OPTIONS,
        ...DATABASE_OPTIONS,
        'transaction-no': { type: 'string' },
        reference: { type: 'string' },
        amount: { type: 'string' },
        currency: { type: 'string' },
        reason: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'over-limit': { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        operator: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      false,
    );
    if (Boolean(values['transaction-no']) === Boolean(values.reference))
      throw new UsageError('Give exactly one of --transaction-no, --reference.');
    const currency = values.currency?.toUpperCase();
    if (!currency || !isKnownCurrency(currency))
      throw new UsageError(`--currency must be one of ${CURRENCIES.join(', ')}.`);
    if (!values.amount)
      throw new UsageError('--amount is required (a decimal in the payment currency, e.g. 12.50).');
    let amountMinor: number;
    try {
      amountMinor = parseMinor(values.amount, currency);
    } catch (e) {
      throw new UsageError(`--amount: ${e instanceof MoneyParseError ? e.message : 'not a decimal amount'}.`);
    }
    if (amountMinor <= 0) throw new UsageError('--amount must be greater than zero.');
    if (!values.reason?.trim())
      throw new UsageError(
        '--reason is required: the service has no reason field, so the desk keeps it in its audit log.',
      );
    const unsafeReason = findUnsafeCharacter(values.reason, { multiline: true });
    if (unsafeReason) throw new UsageError(unsafeTextMessage('--reason', unsafeReason));
    const unsafeOperator = values.operator ? findUnsafeCharacter(values.operator) : undefined;
    if (unsafeOperator) throw new UsageError(unsafeTextMessage('--operator', unsafeOperator));
    if (!values.yes)
      throw new UsageError(
        `Nothing was sent. Add --yes to confirm refunding ${formatMinor(amountMinor, currency)} ${currency}.`,
      );
    const operator = values.operator ?? io.env['USER'] ?? io.env['USERNAME'] ?? 'cli';
    if (operator.trim().length > 60) throw new UsageError('--operator: keep the name under 60 characters.');
    const dataDir = values['data-dir'] ?? defaultAppDataDir(io.env);
    const account = cliAccount(values, io, dataDir);
    // The operator recorded in the audit log is the one of this run, whatever the profile names.
    const profile = { ...account.profile, operatorName: operator.trim() || 'cli' };
    const database = optionalDatabase(values, io);
    const core = await openJournalCore({
      dataDir,
      io,
      account: { ...account, profile },
      ...(database ? { database } : {}),
    });
    if (typeof core === 'number') return core;
    try {
      let transactionNo = values['transaction-no'];
      if (!transactionNo)
        transactionNo = (
          await core.profiles.gatewayFor(profile.id).queryTransaction({ reference: values.reference! })
        ).transaction.transactionNo;
      const intent = await invoke(
        core,
        'refunds.submit',
        {
          profileId: profile.id,
          transactionNo,
          amountMinor,
          currency,
          reasonCode: 'other',
          reasonNote: values.reason.trim(),
          // A limit is passed only when the script says so (--over-limit), never by --yes alone.
          confirmation: {
            ...(values['over-limit'] ? { overLimit: true } : {}),
            typedAmount: values.amount,
          },
        },
        contract['refunds.submit'].output,
      );
      // The app's rule for the address it went to: `live` is real money, as the app's red banner says.
      const moneyMode = moneyModeOf(
        profile.environment,
        core.profiles.profiles.effectiveBaseUrl(profile.id),
        profile.loopbackMoneyMode,
      );
      printFields(io, values.json, refundFields(intent, moneyMode));
      return exitOfRefund(intent, io);
    } catch (e) {
      if (!isAppError(e)) throw e;
      return exitOfRefusal(e, io, values.json);
    } finally {
      await core.close();
    }
  },
};
