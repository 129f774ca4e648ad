import { AppError, isAppError } from '../../../../shared/domain/errors';
import { formatMinor } from '../../../../shared/domain/money';
import { remainingRefundableMinor, type Transaction } from '../../../../shared/domain/transaction';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { AuditEntry, AuditLog } from './audit';
import { type Confirmation, type Guardrails, missingConfirmations } from './guardrails';
import type { Intent } from './intent';
import type { IntentJournal } from './journal';
import { createKeyedLock } from './locks';
import { createResolver } from './resolver';

/** What the refund service needs to know about the active profile. */
export interface RefundContext {
  profileId: string;
  profileName: string;
  environment: string;
  merchantNo: string;
  storeNo: string;
  operator: string;
  guardrails: Guardrails;
  /** Where refund IPNs should go (the loopback listener), if one runs. */
  ipnUrl?: string;
}

/** Which account a call is for: an intent is followed up with its own merchant account's credentials. */
export interface AccountRef {
  profileId: string;
  merchantNo: string;
  storeNo: string;
}

export interface RefundServiceDeps {
  gatewayFor: (account: AccountRef) => Pick<GatewayClient, 'queryTransaction' | 'refund'>;
  journal: IntentJournal;
  audit: AuditLog;
  clock: Clock;
  log: Logger;
  context: () => RefundContext;
  newId: () => string;
  /** Called whenever an intent changes, so hosts can push it to the renderer. */
  onChange?: (intent: Intent) => void;
}

export interface SubmitInput {
  transactionNo: string;
  amountMinor: number;
  currency: string;
  reasonCode: string;
  reasonNote: string;
  confirmation: Confirmation;
  /** The profile the person confirmed against; the refund is refused if another one is active now. */
  profileId?: string;
}

export interface Preview {
  transaction: Transaction;
  remainingMinor: number;
  pendingIntents: Intent[];
  todayTotalMinor: number;
  guardrails: Guardrails;
  environment: string;
}

const REJECTION_CODES = new Set([
  'upstream_rejected',
  'not_found',
  'unauthorized',
  'invalid_input',
  'forbidden',
]);

/**
 * Refunds that are never sent twice, never exceed what remains and are never lost (issue 6).
 * The renderer is not trusted: every check happens here, against a fresh query, under a per-transaction
 * lock, and the intent is on disk before the request leaves.
 */
export function createRefundService(deps: RefundServiceDeps) {
  const lock = createKeyedLock();
  const iso = () => new Date(deps.clock.now()).toISOString();
  const resolver = createResolver(deps);

  // The operator's calendar day (local time zone), not UTC: a "daily" limit resets at local midnight.
  const localDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA');

  const todayTotalMinor = (ctx: RefundContext, currency: string): number => {
    const day = localDay(deps.clock.now());
    return deps.journal
      .list()
      .filter((i) => i.merchantNo === ctx.merchantNo && i.storeNo === ctx.storeNo && i.currency === currency)
      .filter(
        (i) =>
          localDay(Date.parse(i.createdAt)) === day && !['rejected', 'refused', 'failed'].includes(i.state),
      )
      .reduce((s, i) => s + i.amountMinor, 0);
  };

  const audit = (
    intentOrDraft: Omit<AuditEntry, 'at' | 'outcome'> & Partial<AuditEntry>,
    outcome: AuditEntry['outcome'],
  ) => deps.audit.record({ ...intentOrDraft, at: iso(), outcome });

  async function freshPreview(ctx: RefundContext, transactionNo: string): Promise<Preview> {
    const { transaction } = await deps.gatewayFor(ctx).queryTransaction({ transactionNo });
    deps.journal.refresh();
    const pendingIntents = deps.journal.unsettledFor(ctx.merchantNo, ctx.storeNo, transaction.transactionNo);
    return {
      transaction,
      remainingMinor: remainingRefundableMinor(transaction, pendingIntents),
      pendingIntents,
      todayTotalMinor: todayTotalMinor(ctx, transaction.currency),
      guardrails: ctx.guardrails,
      environment: ctx.environment,
    };
  }

  async function submit(input: SubmitInput): Promise<Intent> {
    const ctx = deps.context();
    // Keyed by the merchant account, not the profile: two profiles (or the CLI) for one account are one.
    const key = `${ctx.merchantNo}:${ctx.storeNo}:${input.transactionNo}`;
    return lock.tryRun(
      key,
      async () => {
        const base = {
          operator: ctx.operator,
          profileId: ctx.profileId,
          profileName: ctx.profileName,
          environment: ctx.environment,
          transactionNo: input.transactionNo,
          amountMinor: input.amountMinor,
          currency: input.currency,
          reasonCode: input.reasonCode,
          reasonNote: input.reasonNote,
        };
        const refuse = (
          code: 'conflict' | 'invalid_input',
          message: string,
          details?: Record<string, unknown>,
        ): never => {
          audit({ ...base, intentId: '', detail: message }, 'refused');
          throw new AppError(code, `${message} Nothing was sent.`, {
            details: { moneyMoved: 'no', ...details },
          });
        };
        // An accepted refund is known to the service (counted in refundInfo); one still being sent or
        // whose outcome is unknown is not, so it blocks the next one until it is resolved.
        const refuseIfOpen = () => {
          const open = deps.journal
            .unsettledFor(ctx.merchantNo, ctx.storeNo, input.transactionNo)
            .find((i) => i.state !== 'accepted');
          if (open) {
            refuse(
              'conflict',
              `Refund ${open.id} for this payment is still ${open.state === 'outcome_unknown' ? 'unresolved' : 'in flight'}. Resolve it first (Refunds → Check again).`,
              { intentId: open.id },
            );
          }
        };
        if (input.profileId && input.profileId !== ctx.profileId) {
          refuse(
            'conflict',
            `The active profile changed to “${ctx.profileName}” after you opened this refund. Close it and start again from the payment.`,
          );
        }
        deps.journal.refresh();
        refuseIfOpen();
        if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
          refuse('invalid_input', 'The refund amount must be greater than zero.');
        let tx: Transaction;
        try {
          tx = (await deps.gatewayFor(ctx).queryTransaction({ transactionNo: input.transactionNo }))
            .transaction;
        } catch (e) {
          audit(
            {
              ...base,
              intentId: '',
              detail: `The fresh check before sending failed: ${isAppError(e) ? e.message : 'unexpected error'}`,
            },
            'refused',
          );
          throw e;
        }
        if (tx.status !== 'success')
          refuse(
            'conflict',
            `This payment's status is “${tx.status}”; only successful payments can be refunded.`,
            { status: tx.status },
          );
        if (tx.currency !== input.currency)
          refuse(
            'invalid_input',
            `The refund currency ${input.currency} does not match the payment's ${tx.currency}.`,
          );
        // Between the other processes sharing this journal: re-read it under the lock, decide, and make
        // the intent durable (created + sent) before releasing; the request leaves after that.
        const intent = await deps.journal.exclusive(() => {
          refuseIfOpen();
          const remaining = remainingRefundableMinor(
            tx,
            deps.journal.unsettledFor(ctx.merchantNo, ctx.storeNo, tx.transactionNo),
          );
          if (input.amountMinor > remaining) {
            refuse(
              'conflict',
              `Only ${formatMinor(Math.max(0, remaining), tx.currency)} ${tx.currency} remains refundable on this payment.`,
              { remainingMinor: remaining },
            );
          }
          const need = missingConfirmations({
            amountMinor: input.amountMinor,
            currency: tx.currency,
            environment: ctx.environment,
            todayTotalMinor: todayTotalMinor(ctx, tx.currency),
            guardrails: ctx.guardrails,
            confirmation: input.confirmation,
          });
          if (need.missing.length > 0) {
            const message = `This refund needs an extra confirmation${need.reasons.length ? `: ${need.reasons.join('; ')}` : ''}.`;
            audit({ ...base, intentId: '', detail: message }, 'refused');
            throw new AppError('invalid_input', `${message} Nothing was sent.`, {
              details: { requires: need.missing, reasons: need.reasons, moneyMoved: 'no' },
            });
          }
          const draft = {
            ...base,
            id: deps.newId(),
            merchantNo: ctx.merchantNo,
            storeNo: ctx.storeNo,
            settleCurrency: tx.settleCurrency ?? tx.currency,
            createdAt: iso(),
            ...(tx.reference ? { reference: tx.reference } : {}),
          };
          deps.journal.record({ type: 'created', at: iso(), intent: draft });
          return deps.journal.record({ type: 'sent', at: iso(), id: draft.id, intent: draft })!;
        });
        deps.onChange?.(intent);
        return send(intent, ctx);
      },
      () => {
        throw new AppError(
          'conflict',
          'A refund for this payment is already being submitted. Nothing else was sent.',
          { details: { moneyMoved: 'no' } },
        );
      },
    );
  }

  /** The only place a refund request leaves the app: its `sent` event is already on disk. */
  async function send(intent: Intent, ctx: RefundContext): Promise<Intent> {
    const change = (i: Intent | undefined) => (i && deps.onChange?.(i), i ?? intent);
    let r: Awaited<ReturnType<ReturnType<RefundServiceDeps['gatewayFor']>['refund']>>;
    try {
      r = await deps.gatewayFor(intent).refund({
        transactionNo: intent.transactionNo,
        refundAmountMinor: intent.amountMinor,
        currency: intent.currency,
        settleCurrency: intent.settleCurrency,
        refundReference: intent.id,
        ...(ctx.ipnUrl ? { ipnUrl: ctx.ipnUrl } : {}),
      });
    } catch (e) {
      // Provably not sent (connection refused before any byte left, configuration error): a rejection.
      const notSent = isAppError(e) && e.details?.['sent'] === false;
      if (isAppError(e) && (REJECTION_CODES.has(e.code) || notSent)) {
        const retCode = typeof e.details?.['ret_code'] === 'string' ? e.details['ret_code'] : undefined;
        const retMsg = typeof e.details?.['ret_msg'] === 'string' ? e.details['ret_msg'] : undefined;
        const rejected = change(
          deps.journal.record({
            type: 'rejected',
            at: iso(),
            id: intent.id,
            ...(retCode ? { retCode } : {}),
            ...(retMsg ? { retMsg } : {}),
            detail: e.message,
          }),
        );
        audit(
          {
            ...rejected,
            intentId: intent.id,
            ...(retCode ? { retCode } : {}),
            ...(retMsg ? { retMsg } : {}),
            detail: e.message,
          },
          'rejected',
        );
        return rejected;
      }
      // Timeout, dropped connection, 5xx, unreadable body: the refund may or may not exist. Never resend.
      const detail = isAppError(e) ? e.message : 'The request failed in an unexpected way.';
      const unknown = change(
        deps.journal.record({ type: 'outcome_unknown', at: iso(), id: intent.id, detail }),
      );
      audit({ ...unknown, intentId: intent.id, detail }, 'outcome_unknown');
      deps.log.warn('refund.outcome_unknown', { intentId: intent.id, transactionNo: intent.transactionNo });
      return resolver.resolve(intent.id);
    }
    try {
      const accepted = change(
        deps.journal.record({
          type: 'accepted',
          at: iso(),
          id: intent.id,
          refundTransactionNo: r.refundTransactionNo,
          refundStatus: r.status,
          via: 'response',
        }),
      );
      audit({ ...accepted, intentId: intent.id, refundTransactionNo: r.refundTransactionNo }, 'accepted');
      return resolver.settleIfFinal(accepted, r.status);
    } catch (e) {
      // The service accepted the refund but recording it failed (disk full, I/O error): money moved, and
      // the person must hear exactly that — never "nothing was sent". The intent stays `sent` on disk and
      // is resolved by query on the next start.
      deps.log.error('refund.record_failed', {
        intentId: intent.id,
        error: e instanceof Error ? e.message : String(e),
      });
      throw new AppError(
        'outcome_unknown',
        `The service accepted refund ${r.refundTransactionNo}, but Refund Desk could not record it. Do not refund this payment again; check the disk and restart.`,
        { details: { moneyMoved: 'yes', refundTransactionNo: r.refundTransactionNo, intentId: intent.id } },
      );
    }
  }

  return {
    /** Fresh numbers for the dialog: status, remaining (service + this app's unsettled intents), limits. */
    preview: (transactionNo: string) => freshPreview(deps.context(), transactionNo),
    submit,
    /** Re-queries the service for an intent whose outcome is unknown (or follows an accepted one). */
    checkAgain: (id: string) => resolver.resolve(id),
    list: () => deps.journal.list(),
    get: (id: string) => deps.journal.get(id),
    audit: () => deps.audit.list(),
    journalProblems: () => deps.journal.problems(),
    /** On start: every non-final intent resumes where it was (issue 6). */
    resumeAll: () => resolver.resumeAll(),
    /** Follows accepted, not-yet-final refunds one step (poller and IPN hints call this). */
    track: (transactionNo?: string) => resolver.trackAccepted(transactionNo),
  };
}
export type RefundService = ReturnType<typeof createRefundService>;
