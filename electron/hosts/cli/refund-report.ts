import { AppError } from '../../../shared/domain/errors';
import { formatMinor } from '../../../shared/domain/money';
import type { MoneyMode } from '../../../shared/domain/profile';
import type { IntentView } from '../../../shared/domain/refund-intent';
import { type CliIo, EXIT } from './io';

/**
 * What `refund` and `approve` print about a refund and the exit code it means (README "CLI"): both send
 * through the same service, so a script reads their answers the same way.
 */

/** Refund-specific: the refund may or may not have been applied — never refund again blindly. */
export const OUTCOME_UNKNOWN = 6;

/** One field per line (`name                value`), or one JSON object with --json. */
export function printFields(io: CliIo, json: boolean, fields: Record<string, unknown>): void {
  if (json) io.out(JSON.stringify(fields, null, 2));
  else
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) io.out(`${k.padEnd(20)}${String(v)}`);
}

/** A refund as the service left it; `moneyMode` is the app's rule for the address it goes to. */
export function refundFields(intent: IntentView, moneyMode: MoneyMode): Record<string, unknown> {
  return {
    intentId: intent.id,
    outcome: intent.state,
    moneyMode,
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
    // Four-eyes (team database): who asked, until when, and who approved.
    requestedBy: intent.approval?.requestedBy,
    expiresAt:
      intent.approval && intent.state === 'awaiting_approval' ? intent.approval.expiresAt : undefined,
    approvedBy: intent.approval?.approvedBy,
  };
}

/** The exit code of a refund's state, with what to do said on stderr. */
export function exitOfRefund(intent: IntentView, io: CliIo): number {
  if (intent.state === 'accepted' || intent.state === 'succeeded') return EXIT.OK;
  if (intent.state === 'outcome_unknown') {
    io.err(
      'The outcome is unknown: do NOT refund again. Check the payment with `cli query` or in the app (Refunds → Check again).',
    );
    return OUTCOME_UNKNOWN;
  }
  if (intent.state === 'awaiting_approval') {
    io.err(
      `Request ${intent.id} is awaiting approval — nothing was sent. Another person with the checker role approves and sends it (cli approve ${intent.id} --yes), or rejects it.`,
    );
    return EXIT.AWAITING_APPROVAL;
  }
  return EXIT.REJECTED;
}

/** The exit code of a refusal (printed as fields): 5 network, 3 not found, 2 a confirmation missing, 4 refused. */
export function exitOfRefusal(e: AppError, io: CliIo, json: boolean): number {
  printFields(io, json, { outcome: 'refused', code: e.code, message: e.message });
  if (e.details?.requires?.includes('limit_confirmation'))
    io.err(
      'Nothing was sent. This refund is beyond a refund limit of the profile: run it again with --over-limit to confirm it.',
    );
  if (e.code === 'network' || e.code === 'timeout' || e.code === 'unavailable') return EXIT.NETWORK;
  if (e.code === 'not_found') return EXIT.NOT_FOUND;
  return e.code === 'invalid_input' ? EXIT.USAGE : EXIT.REJECTED;
}
