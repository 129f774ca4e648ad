import { isAppError } from '../../../../shared/domain/errors';
import { displayMoney } from '../../../../shared/domain/money';
import type { QueriedTransaction, QueryKey } from '../../../core/services/gateway/client';
import { CONNECTION_OPTIONS, cliGateway, connectionFrom } from '../connection';
import { type CliIo, type Command, EXIT, UsageError, parseCliArgs } from '../io';

function exitFor(code: string): number {
  switch (code) {
    case 'not_found':
      return EXIT.NOT_FOUND;
    case 'upstream_rejected':
    case 'unauthorized':
      return EXIT.REJECTED;
    case 'network':
    case 'timeout':
    case 'unavailable':
      return EXIT.NETWORK;
    default:
      return EXIT.FAILURE;
  }
}

function printHuman(q: QueriedTransaction, io: CliIo): void {
  const t = q.transaction;
  const rows: [string, string | undefined][] = [
    ['transactionNo', t.transactionNo],
    ['type', t.transactionType],
    ['reference', t.reference],
    ['status', t.status],
    ['amount', `${displayMoney(t.amountMinor, t.currency, 'en-US')} (${t.currency})`],
    ['settleCurrency', t.settleCurrency],
    ['vendor', t.vendor],
    ['created (UTC)', t.createdAt],
    ['paid (UTC)', t.paidAt],
    ['original transactionNo', q.originalTransactionNo],
  ];
  for (const [k, v] of rows) if (v) io.out(`${k.padEnd(24)}${v}`);
  for (const r of t.refunds) {
    io.out(
      `refund ${r.refundTransactionNo}  ${displayMoney(r.refundAmountMinor, r.currency, 'en-US')}  ${r.status}${r.refundReference ? `  ref ${r.refundReference}` : ''}`,
    );
  }
}

/**
 * `query`: one signed tran-query (retried on transport errors, like the app). Exit 0 found, 3 not
 * found, 4 rejected (incl. bad credentials), 5 network; 2 bad usage.
 */
export const queryCommand: Command = {
  name: 'query',
  summary: 'look one transaction up at the payment service',
  usage:
    'query --base-url <url> --merchant <no> --store <no> (--transaction-no <n> | --reference <r> | --refund-transaction-no <n>) [--json] [--timeout-ms <ms>]',
  async run(args, io) {
    const { values } = parseCliArgs(
      args,
      {
        ...CONNECTION_OPTIONS,
        'transaction-no': { type: 'string' },
        reference: { type: 'string' },
        'refund-transaction-no': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      false,
    );
    const keys: QueryKey[] = [];
    if (values['transaction-no']) keys.push({ transactionNo: values['transaction-no'] });
    if (values.reference) keys.push({ reference: values.reference });
    if (values['refund-transaction-no']) keys.push({ refundTransactionNo: values['refund-transaction-no'] });
    if (keys.length !== 1)
      throw new UsageError('Give exactly one of --transaction-no, --reference, --refund-transaction-no.');
    const gateway = cliGateway(connectionFrom(values, io), io);
    try {
      const q = await gateway.queryTransaction(keys[0]!);
      if (values.json)
        io.out(
          JSON.stringify(
            {
              ...q.transaction,
              ...(q.originalTransactionNo ? { originalTransactionNo: q.originalTransactionNo } : {}),
            },
            null,
            2,
          ),
        );
      else printHuman(q, io);
      return EXIT.OK;
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (values.json)
        io.out(
          JSON.stringify(
            { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } },
            null,
            2,
          ),
        );
      io.err(e.message);
      return exitFor(e.code);
    }
  },
};
