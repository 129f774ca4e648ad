import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import { findUnsafeCharacter, unsafeTextMessage } from '../../../../shared/domain/text';
import { openRequests, rejectRequest } from '../../../core/adapters/postgres/approvals';
import { rejectBatch } from '../../../core/adapters/postgres/batch-store';
import { connectDesk, DATABASE_OPTIONS, databaseFrom, runTeam } from '../database';
import { type Command, EXIT, parseCliArgs, UsageError } from '../io';

/** `approvals`: the open requests for approval (awaiting, or approved and not yet sent), oldest first. */
export const approvalsCommand: Command = {
  name: 'approvals',
  summary: 'list open requests for approval in the team database',
  usage:
    'approvals [--json] --database-url URL   (or REFUND_DESK_DATABASE_URL; exit 0, 4 refused, 5 unreachable)',
  async run(args, io) {
    const { values } = parseCliArgs(args, { ...DATABASE_OPTIONS, json: { type: 'boolean', default: false } });
    const db = databaseFrom(values, io);
    return runTeam(io, db, async () => {
      const c = await connectDesk(db);
      try {
        const open = await openRequests(c);
        if (values.json) {
          io.out(
            JSON.stringify(
              open.map((r) => ({
                id: r.intent.id,
                state: r.intent.state,
                environment: r.intent.environment,
                merchantNo: r.intent.merchantNo,
                storeNo: r.intent.storeNo,
                transactionNo: r.intent.transactionNo,
                amountMinor: r.intent.amountMinor,
                amount: formatMinor(r.intent.amountMinor, r.intent.currency),
                currency: r.intent.currency,
                reason: r.reason,
                requestedBy: r.requestedBy,
                requestedDesk: r.requestedDesk,
                requestedAt: r.requestedOnServer,
                expiresAt: r.expiresAt,
                ...(r.approvedBy ? { approvedBy: r.approvedBy } : {}),
              })),
              null,
              2,
            ),
          );
          return EXIT.OK;
        }
        if (open.length === 0) io.out('No open requests for approval.');
        for (const r of open)
          io.out(
            [
              r.intent.id,
              r.intent.state,
              `${formatMinor(r.intent.amountMinor, r.intent.currency)} ${r.intent.currency}`,
              `payment ${r.intent.transactionNo ?? ''} (${r.intent.merchantNo}/${r.intent.storeNo})`,
              `by ${r.requestedBy} at ${r.requestedDesk}`,
              `expires ${r.expiresAt}`,
              `reason: ${r.reason}`,
            ].join('  '),
          );
        return EXIT.OK;
      } finally {
        await c.end().catch(() => undefined);
      }
    });
  },
};

/**
 * `reject`: a checker declines another person's request — or refund batch awaiting approval (`RB…`, as
 * `refund-batch` prints it) — with a comment. Nothing is sent; a batch's rows end refused (declined).
 */
export const rejectCommand: Command = {
  name: 'reject',
  summary: 'reject a request (or refund batch) for approval with a comment (checker)',
  usage:
    'reject <id> --reason TEXT --database-url URL   (a batch id RB… rejects the batch as a whole; exit 0 rejected, 3 no such request, 4 refused or expired, 5 unreachable)',
  async run(args, io) {
    const { values, positionals } = parseCliArgs(
      args,
      { ...DATABASE_OPTIONS, reason: { type: 'string' } },
      true,
    );
    const [id, ...extra] = positionals;
    if (!id || extra.length > 0)
      throw new UsageError('Give exactly one request id: reject <id> --reason TEXT.');
    if (!values.reason?.trim())
      throw new UsageError('--reason is required: say why the request is rejected.');
    const unsafe = findUnsafeCharacter(values.reason, { multiline: true });
    if (unsafe) throw new UsageError(unsafeTextMessage('--reason', unsafe));
    const db = databaseFrom(values, io);
    return runTeam(io, db, async () => {
      const c = await connectDesk(db);
      try {
        if (id.startsWith('RB')) {
          const b = await rejectBatch(c, id, values.reason!.trim());
          if (b.state === 'expired') {
            io.err(
              `Refund batch ${b.id} expired at ${b.approval?.expiresAt ?? '?'} (server time) before anyone approved it: nothing was sent, nothing to reject.`,
            );
            return EXIT.REJECTED;
          }
          const totals = b.facts.totals
            .map((t) => `${formatMinor(t.amountMinor, t.currency as Currency)} ${t.currency}`)
            .join(', ');
          io.out(
            `Rejected batch ${b.id} (${b.fileName}${totals ? `, ${totals}` : ''}, started by ${b.approval?.startedBy ?? b.operator}): nothing was sent.`,
          );
          return EXIT.OK;
        }
        const r = await rejectRequest(c, id, values.reason!.trim());
        io.out(
          `Rejected ${r.intent.id} (${formatMinor(r.intent.amountMinor, r.intent.currency)} ${r.intent.currency}, requested by ${r.requestedBy}): nothing was sent.`,
        );
        return EXIT.OK;
      } finally {
        await c.end().catch(() => undefined);
      }
    });
  },
};
