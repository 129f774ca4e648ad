import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { Currency } from '../../../../shared/domain/currencies';
import type { Guardrails } from '../../../../shared/domain/guardrails';
import type { MoneyMode } from '../../../../shared/domain/profile';
import type { Transaction } from '../../../../shared/domain/transaction';
import { RET } from '../../../../shared/protocol/ret-codes';
import { normaliseTransactionStatus } from '../../../../shared/protocol/statuses';
import { serviceTimeToIso } from '../../../../shared/protocol/time';
import { type CardScrubber, cardScrub } from '../../../../shared/domain/card-scrub';
import { type AnswerMismatch, paymentAnswerMismatch } from './answers';
import { safeLinks, scrubbedFailure } from './card-guard';
import { refusal } from './checks';
import type { FollowerDeps, PaymentFollower, PaymentGateway } from './follow';
import { finalStateFor, type PaymentAccount, type PaymentDraft, type PaymentIntent } from './intent';
import { createPaymentAuditor } from './audit';
import type { CustomerRecord } from './store';

/** The active profile, as a payment is created for it. */
export interface PaymentContext extends PaymentAccount {
  /** Whether real money moves, from where the calls go (shared/domain/profile.ts moneyModeOf). */
  moneyMode: MoneyMode;
  operator: string;
  guardrails: Guardrails;
  /** The local IPN listener's address for this profile, when the service can reach it. */
  ipnUrl?: string;
  /** Demo: where the payer lands after the hosted page (the sandbox's own page). */
  defaultCallbackUrl?: string;
}

export interface RecorderDeps extends FollowerDeps {
  /** Keeps a whitelabel payment's SDK initialization data (never in the database). */
  keepSdkData?: (paymentId: string, data: string) => void;
  /** The named profile's account, operator and limits (`not_found` for a profile that no longer exists). */
  context: (profileId: string) => PaymentContext;
  /** `host:pid` of this process: recorded on every create it sends. */
  sender: string;
  /** Set when the database cannot be trusted: every create is refused with this reason. */
  untrusted?: () => string | undefined;
}

/** What a create answered, whichever endpoint it went to. */
export interface Answer {
  transactionNo: string;
  /** What the answer says it is about (checked against the request before it is believed). */
  reference?: string;
  amountMinor?: number;
  currency?: Currency;
  status?: string;
  cashierUrl?: string;
  authorization?: string;
  authUrl?: string;
  vaultId?: string;
  paymentTime?: string;
}

const AMBIGUOUS_RET_CODES: ReadonlySet<string> = new Set([RET.SYSTEM_ERROR, RET.UPSTREAM_ERROR]);

const REJECTION_CODES = new Set([
  'upstream_rejected',
  'not_found',
  'unauthorized',
  'invalid_input',
  'forbidden',
]);

/**
 * The part every payment create shares: the checks that tie it to the active profile, the journal entry
 * committed BEFORE the request leaves, the one send, and the answer recorded as a guarded transition (an
 * unknown outcome is looked for by reference at once, never sent again). Refusals are audited; nothing is
 * recorded or sent for them.
 */
export function createRecorder(deps: RecorderDeps, follower: PaymentFollower) {
  const iso = () => new Date(deps.clock.now()).toISOString();

  function contextFor(profileId: string): PaymentContext {
    const untrusted = deps.untrusted?.();
    if (untrusted)
      throw refusal('unavailable', `Payments are paused: ${untrusted}`, { storage: 'untrusted' });
    return deps.context(profileId);
  }

  function customerOf(ctx: PaymentContext, customerId: string | undefined): CustomerRecord | undefined {
    if (!customerId) return undefined;
    const c = deps.store.customers.get(customerId);
    if (!c || c.profileId !== ctx.profileId || c.merchantNo !== ctx.merchantNo)
      throw refusal(
        'not_found',
        'That customer is not registered for this profile. Reload the customer list.',
      );
    return c;
  }

  function draftOf(
    ctx: PaymentContext,
    fields: Omit<PaymentDraft, keyof PaymentAccount | 'id' | 'operator' | 'createdAt'>,
  ): PaymentDraft {
    return {
      profileId: ctx.profileId,
      profileName: ctx.profileName,
      environment: ctx.environment,
      baseUrl: ctx.baseUrl,
      merchantNo: ctx.merchantNo,
      storeNo: ctx.storeNo,
      operator: ctx.operator,
      id: deps.newId('PY'),
      createdAt: iso(),
      ...fields,
    };
  }

  const record = createPaymentAuditor(deps);
  function auditRefused(
    ctx: PaymentContext,
    draft: Partial<PaymentDraft>,
    action: 'payment.link' | 'payment.whitelabel' | 'payment.card' | 'payment.charge',
    e: AppError,
  ) {
    record(ctx, {
      action,
      outcome: 'refused',
      subjectId: '',
      ...(draft.reference ? { reference: draft.reference } : {}),
      ...(draft.amountMinor ? { amountMinor: draft.amountMinor } : {}),
      ...(draft.currency ? { currency: draft.currency } : {}),
      ...(draft.vendor ? { vendor: draft.vendor } : {}),
      ...(draft.customerNo ? { customerNo: draft.customerNo } : {}),
      detail: e.message,
    });
  }

  /** Runs the checks of one create; a refusal is audited (nothing recorded, nothing sent) and thrown. */
  function checked<T>(
    ctx: PaymentContext,
    action: Parameters<typeof auditRefused>[2],
    draft: Partial<PaymentDraft>,
    fn: () => T,
  ): T {
    try {
      return fn();
    } catch (e) {
      if (isAppError(e)) auditRefused(ctx, draft, action, e);
      throw e;
    }
  }

  const actionOf = (kind: PaymentDraft['kind']) => `payment.${kind}` as const;

  /**
   * Journals the draft, sends it once, records the answer. The only place a create leaves the app, and
   * the only place its answer comes in: every text and URL of the answer (or of its error) passes
   * `scrub` — the request's card scrubber for a card capture, the rules without a card otherwise —
   * before anything is stored, logged, pushed or returned.
   */
  async function create(
    ctx: PaymentContext,
    draft: PaymentDraft,
    send: (gw: PaymentGateway) => Promise<Answer>,
    scrub: CardScrubber = cardScrub,
  ): Promise<PaymentIntent> {
    const action = actionOf(draft.kind);
    let inserted;
    try {
      inserted = deps.store.insertSending(draft, deps.sender, draft.createdAt);
    } catch (e) {
      const err = refusal(
        'unavailable',
        `Refund Desk could not record the payment before sending it: ${isAppError(e) ? e.message : String(e)}`,
        { storage: 'write_failed' },
      );
      auditRefused(ctx, draft, action, err);
      throw err;
    }
    if (!inserted.ok) {
      const err = refusal(
        'conflict',
        `Reference ${draft.reference} was already used by this desk (${inserted.existing.createdAt.slice(0, 10)}). The service refuses a reference used before: generate a new one.`,
        { fields: { reference: 'Already used: generate a new reference.' } },
      );
      auditRefused(ctx, draft, action, err);
      throw err;
    }
    const intent = inserted.intent;
    deps.onPayment?.(intent);
    // Its look-ups (now and on the follower's schedule) are scrubbed with the request's card too.
    follower.remember(intent.id, scrub);
    let answer: Answer;
    try {
      answer = await send(deps.gatewayFor(intent));
    } catch (e) {
      return recordFailure(intent, e, scrub);
    }
    // The page links as far as they are safe: one that carried card data is dropped (never opened).
    const { cashierUrl: _cashier, authUrl: _auth, ...rest } = answer;
    return recordCreated(intent, { ...rest, ...safeLinks(intent, answer, scrub) });
  }

  async function recordCreated(
    intent: PaymentIntent,
    a: Answer & { unsafeLink?: string },
  ): Promise<PaymentIntent> {
    // A success answer is believed only when it is about this payment: same amount, currency and
    // reference as sent, and a transaction number no other payment of this desk holds. Anything else
    // is evidence of a problem (outcome unknown, looked up by reference), never a success. The
    // evidence quotes the answer: the follower scrubs it with this request's card before keeping it.
    const disbelieve = (m: AnswerMismatch) =>
      follower.disbelieve(intent, m, ['sending', 'outcome_unknown'], actionOf(intent.kind));
    const mismatch = paymentAnswerMismatch(intent, a, follower.takenBy(intent, a.transactionNo));
    if (mismatch) return disbelieve(mismatch);
    // The whitelabel SDK data holds the vendor's client token: kept in memory for this session only.
    if (a.authorization) deps.keepSdkData?.(intent.id, a.authorization);
    const status = normaliseTransactionStatus(a.status ?? 'init');
    const to = finalStateFor(status) ?? 'open';
    const paidAt = to === 'succeeded' ? (serviceTimeToIso(a.paymentTime) ?? iso()) : undefined;
    let next: PaymentIntent | undefined;
    try {
      next = follower.move(
        intent,
        to,
        {
          transactionNo: a.transactionNo,
          paymentStatus: status,
          ...(a.cashierUrl ? { cashierUrl: a.cashierUrl } : {}),
          ...(a.authUrl ? { authUrl: a.authUrl } : {}),
          ...(paidAt ? { paidAt } : {}),
          detail: a.unsafeLink ?? null,
        },
        'created',
        ['sending', 'outcome_unknown'],
      );
    } catch (e) {
      // Another process recorded this number for another payment meanwhile (payment-store.ts).
      const other = isAppError(e) ? e.details?.transactionNoTakenBy : undefined;
      if (typeof other === 'string') return disbelieve(paymentAnswerMismatch(intent, a, other)!);
      deps.log.error('payment.record_failed', {
        intentId: intent.id,
        error: e instanceof Error ? e.message : '',
      });
      throw new AppError(
        'outcome_unknown',
        `The service created payment ${a.transactionNo}, but Refund Desk could not record it (${isAppError(e) ? e.message : 'storage failure'}). Do not create it again; look it up in Transactions.`,
        { details: { moneyMoved: 'unknown', transactionNo: a.transactionNo } },
      );
    }
    const created = next ?? deps.store.get(intent.id) ?? intent;
    if (a.unsafeLink) deps.log.warn('payment.page_unsafe', { intentId: intent.id });
    follower.audit(
      created,
      to === 'open' ? 'created' : (to as 'succeeded' | 'failed' | 'closed'),
      actionOf(created.kind),
      a.unsafeLink,
    );
    deps.onTransaction?.(created, transactionOf(created), 'created');
    const kept = follower.keepMethod(created, a.vaultId);
    if (kept.state === 'open') follower.kick(kept.id);
    return kept;
  }

  async function recordFailure(
    intent: PaymentIntent,
    e: unknown,
    scrub: CardScrubber,
  ): Promise<PaymentIntent> {
    const notSent = isAppError(e) && e.details?.sent === false;
    const { detail, ...said } = scrubbedFailure(intent, e, scrub);
    const retCode = isAppError(e) && typeof e.details?.ret_code === 'string' ? e.details.ret_code : undefined;
    // 000000 / 000080 say the service (or the acquirer behind it) failed, not that it refused: the
    // payment may exist, so it is looked for by reference like a lost answer.
    const ambiguous = retCode !== undefined && AMBIGUOUS_RET_CODES.has(retCode);
    if (isAppError(e) && !ambiguous && (REJECTION_CODES.has(e.code) || notSent)) {
      const rejected =
        follower.move(intent, 'rejected', { ...said, detail }, 'rejected', ['sending', 'outcome_unknown']) ??
        deps.store.get(intent.id) ??
        intent;
      follower.audit(rejected, 'rejected', actionOf(rejected.kind), detail);
      return rejected;
    }
    deps.log.warn('payment.outcome_unknown', { intentId: intent.id });
    const unknown =
      follower.move(intent, 'outcome_unknown', { ...said, detail }, 'outcome_unknown', ['sending']) ?? intent;
    follower.audit(unknown, 'outcome_unknown', actionOf(unknown.kind), detail);
    // Look for it by its reference right away; never send it again.
    return (await follower.check(intent.id).catch(() => undefined)) ?? deps.store.get(intent.id) ?? unknown;
  }

  return { contextFor, customerOf, draftOf, checked, actionOf, create };
}

/** The payment as the renderer's cache holds transactions, from what this desk knows right after creating it. */
export function transactionOf(i: PaymentIntent): Transaction {
  return {
    transactionNo: i.transactionNo ?? '',
    reference: i.reference,
    amountMinor: i.amountMinor,
    currency: i.currency,
    settleCurrency: i.settleCurrency,
    status: normaliseTransactionStatus(i.paymentStatus ?? 'init'),
    vendor: i.vendor,
    transactionType: 'payment',
    createdAt: i.createdAt,
    ...(i.paidAt ? { paidAt: i.paidAt } : {}),
    refunds: [],
  };
}
