import { join } from 'node:path';
import { AppError, isAppError } from '../../../shared/domain/errors';
import { newSortableId } from '../../../shared/domain/ids';
import { formatMinor, MoneyParseError, parseMinor } from '../../../shared/domain/money';
import { openJsonlFile } from '../../main/adapters/jsonl-file';
import { type AuditEntry, createAuditLog } from '../../main/services/refunds/audit';
import type { IntentEvent } from '../../main/services/refunds/intent';
import { createIntentJournal } from '../../main/services/refunds/journal';
import { createRefundService } from '../../main/services/refunds/service';
import type { GatewayClient } from '../../main/services/gateway/client';
import {
  cliGateway,
  CONNECTION_OPTIONS,
  type Connection,
  connectionFrom,
  defaultAppDataDir,
  environmentOf,
} from '../connection';
import { type Command, EXIT, UsageError, parseCliArgs } from '../io';

/**
 * The app's refund service over the journal and audit log in `dataDir`, for one merchant account.
 * Intents are keyed by merchant and store, so app profiles and CLI runs for one account see each
 * other's in-flight refunds (the journal is shared under an inter-process lock).
 */
export function cliRefundService(
  conn: Connection,
  gateway: GatewayClient,
  dataDir: string,
  operator: string,
) {
  const journalFile = openJsonlFile<IntentEvent>(join(dataDir, 'refund-journal.jsonl'));
  const auditFile = openJsonlFile<AuditEntry>(join(dataDir, 'audit.jsonl'));
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const service = createRefundService({
    gatewayFor: () => gateway,
    journal: createIntentJournal(journalFile, log),
    audit: createAuditLog(auditFile),
    clock: { now: Date.now },
    log,
    context: () => ({
      profileId: `cli:${conn.merchantNo}:${conn.storeNo}`,
      profileName: `CLI ${conn.merchantNo}/${conn.storeNo}`,
      environment: environmentOf(conn.baseUrl),
      merchantNo: conn.merchantNo,
      storeNo: conn.storeNo,
      operator,
      guardrails: { limits: [] },
    }),
    newId: () => newSortableId('RD'),
  });
  return { service, close: () => (journalFile.close(), auditFile.close()) };
}

/** Refund-specific exit codes (issue 6): 0 accepted, 4 rejected or refused, 6 outcome unknown. */
const OUTCOME_UNKNOWN = 6;

/**
 * `refund`: the app's own refund service and journal, from a script. The same checks run (fresh query,
 * status, remaining incl. this desk's unsettled intents, one in flight per payment), the intent is
 * journaled (fsync) before the request leaves, and an ambiguous failure is resolved by query, never
 * resent. `--yes` is the explicit confirmation; in production the typed --amount counts as the
 * re-typed amount.
 */
export const refundCommand: Command = {
  name: 'refund',
  summary: 'refund a payment (full or partial) through the journaled refund service',
  usage:
    'refund --base-url <url> --merchant <no> --store <no> (--transaction-no <n> | --reference <r>) --amount <decimal> --currency <ccy> --reason <text> --yes [--data-dir <dir>] [--operator <name>] [--json]  (token: REFUND_DESK_API_TOKEN; exit 0 accepted, 4 rejected, 5 network, 6 outcome unknown)',
  async run(args, io) {
    const { values } = parseCliArgs(
      args,
      {
        ...CONNECTION_OPTIONS,
        'transaction-no': { type: 'string' },
        reference: { type: 'string' },
        amount: { type: 'string' },
        currency: { type: 'string' },
        reason: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        operator: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      false,
    );
    if (Boolean(values['transaction-no']) === Boolean(values.reference))
      throw new UsageError('Give exactly one of --transaction-no, --reference.');
    const currency = values.currency?.toUpperCase();
    if (!currency || !/^[A-Z]{3}$/.test(currency))
      throw new UsageError('--currency must be a three-letter code such as USD.');
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
    if (!values.yes)
      throw new UsageError(
        `Nothing was sent. Add --yes to confirm refunding ${formatMinor(amountMinor, currency)} ${currency}.`,
      );
    const conn = connectionFrom(values, io);
    const gateway = cliGateway(conn, io);
    const dataDir = values['data-dir'] ?? defaultAppDataDir(io.env);

    const { service, close } = cliRefundService(
      conn,
      gateway,
      dataDir,
      values.operator ?? io.env['USER'] ?? io.env['USERNAME'] ?? 'cli',
    );
    const report = (fields: Record<string, unknown>) => {
      if (values.json) io.out(JSON.stringify(fields, null, 2));
      else
        for (const [k, v] of Object.entries(fields))
          if (v !== undefined) io.out(`${k.padEnd(20)}${String(v)}`);
    };
    try {
      let transactionNo = values['transaction-no'];
      if (!transactionNo)
        transactionNo = (await gateway.queryTransaction({ reference: values.reference! })).transaction
          .transactionNo;
      const intent = await service.submit({
        transactionNo,
        amountMinor,
        currency,
        reasonCode: 'other',
        reasonNote: values.reason.trim(),
        confirmation: { overLimit: true, typedAmount: values.amount },
      });
      report({
        intentId: intent.id,
        outcome: intent.state,
        transactionNo: intent.transactionNo,
        amount: `${formatMinor(intent.amountMinor, intent.currency)} ${intent.currency}`,
        refundTransactionNo: intent.refundTransactionNo,
        refundStatus: intent.refundStatus,
        retCode: intent.retCode,
        retMsg: intent.retMsg,
        detail:
          intent.state === 'outcome_unknown'
            ? `${intent.detail ?? ''} ${intent.lastCheck?.note ?? ''}`.trim()
            : intent.detail,
      });
      if (intent.state === 'accepted' || intent.state === 'succeeded') return EXIT.OK;
      if (intent.state === 'outcome_unknown') {
        io.err(
          'The outcome is unknown: do NOT refund again. Check the payment with `cli query` or in the app (Refunds → Check again).',
        );
        return OUTCOME_UNKNOWN;
      }
      return EXIT.REJECTED;
    } catch (e) {
      if (!isAppError(e)) throw e;
      report({ outcome: 'refused', code: e.code, message: e.message });
      if (e.code === 'network' || e.code === 'timeout' || e.code === 'unavailable') return EXIT.NETWORK;
      if (e.code === 'not_found') return EXIT.NOT_FOUND;
      return e instanceof AppError && e.code === 'invalid_input' ? EXIT.USAGE : EXIT.REJECTED;
    } finally {
      close();
    }
  },
};
