import { AppError, isAppError } from '../../../../shared/domain/errors';
import { cardExpired, type CardInput } from '../../../../shared/domain/card';
import { checkoutProblem, goodsInfoText } from '../../../../shared/domain/checkout';
import type { Guardrails } from '../../../../shared/domain/guardrails';
import type { Input } from '../../../../shared/ipc/contract';
import type { Transaction } from '../../../../shared/domain/transaction';
import { normaliseTransactionStatus } from '../../../../shared/protocol/statuses';
import { serviceTimeToIso } from '../../../../shared/protocol/time';
import { cardScrubber, chargeConfirmation, checkServiceUrl, refusal } from './checks';
import { createPaymentFollower, type FollowerDeps, type PaymentGateway } from './follow';
import { finalStateFor, type PaymentAccount, type PaymentDraft, type PaymentIntent } from './intent';
import type { CustomerRecord } from './store';

/** The active profile, as a payment is created for it. */
export interface PaymentContext extends PaymentAccount {
  operator: string;
  guardrails: Guardrails;
  /** The local IPN listener's address for this profile, when the service can reach it. */
  ipnUrl?: string;
  /** Demo: where the payer lands after the hosted page (the sandbox's own page). */
  defaultCallbackUrl?: string;
}

export interface PaymentServiceDeps extends FollowerDeps {
  context: () => PaymentContext;
  /** `host:pid` of this process: recorded on every create it sends. */
  sender: string;
  /** Set when the database cannot be trusted: every create is refused with this reason. */
  untrusted?: () => string | undefined;
}

/** What a create answered, whichever endpoint it went to. */
interface Answer {
  transactionNo: string;
  status?: string;
  cashierUrl?: string;
  authorization?: string;
  authUrl?: string;
  vaultId?: string;
  paymentTime?: string;
}

const REJECTION_CODES = new Set([
  'upstream_rejected',
  'not_found',
  'unauthorized',
  'invalid_input',
  'forbidden',
]);

type CheckoutInput = Input<'payments.createCheckout'>;
type CaptureInput = Input<'payments.captureCard'>;
type ChargeInput = Input<'payments.chargeMethod'>;

/**
 * Back-office payments with the same care as refunds: every create is checked here (the renderer is not
 * trusted), journaled as `sending` in one committed transaction BEFORE its request leaves, sent once,
 * and its answer recorded as a guarded transition. An answer that never came is resolved by querying the
 * payment's reference — never by sending again. Card data goes straight into the request and is kept
 * nowhere (only its last four digits).
 */
export function createPaymentService(deps: PaymentServiceDeps) {
  const follower = createPaymentFollower(deps);
  const iso = () => new Date(deps.clock.now()).toISOString();

  function contextFor(profileId: string): PaymentContext {
    const untrusted = deps.untrusted?.();
    if (untrusted)
      throw refusal('unavailable', `Payments are paused: ${untrusted}`, { storage: 'untrusted' });
    const ctx = deps.context();
    if (profileId !== ctx.profileId)
      throw refusal(
        'conflict',
        `The active profile changed to “${ctx.profileName}” after this form was opened. Check the form and send it again.`,
      );
    return ctx;
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

  function auditRefused(
    ctx: PaymentContext,
    draft: Partial<PaymentDraft>,
    action: 'payment.link' | 'payment.whitelabel' | 'payment.card' | 'payment.charge',
    e: AppError,
  ) {
    try {
      deps.store.audit.record({
        at: iso(),
        operator: ctx.operator,
        profileId: ctx.profileId,
        profileName: ctx.profileName,
        environment: ctx.environment,
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
    } catch (err) {
      deps.log.error('payment.audit_failed', { error: err instanceof Error ? err.message : '' });
    }
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

  /** Journals the draft, sends it once, records the answer. The only place a create leaves the app. */
  async function create(
    ctx: PaymentContext,
    draft: PaymentDraft,
    send: (gw: PaymentGateway) => Promise<Answer>,
    scrub: (t: string | undefined) => string | undefined = (t) => t,
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
    let answer: Answer;
    try {
      answer = await send(deps.gatewayFor(intent));
    } catch (e) {
      return recordFailure(intent, e, scrub);
    }
    return recordCreated(intent, answer);
  }

  function recordCreated(intent: PaymentIntent, a: Answer): PaymentIntent {
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
          ...(a.authorization ? { sdkAuthorization: a.authorization } : {}),
          ...(a.authUrl ? { authUrl: a.authUrl } : {}),
          ...(paidAt ? { paidAt } : {}),
          detail: null,
        },
        'created',
        ['sending', 'outcome_unknown'],
      );
    } catch (e) {
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
    follower.audit(
      created,
      to === 'open' ? 'created' : (to as 'succeeded' | 'failed' | 'closed'),
      actionOf(created.kind),
    );
    deps.onTransaction?.(created, transactionOf(created), 'created');
    const kept = follower.keepMethod(created, a.vaultId);
    if (kept.state === 'open') follower.kick(kept.id);
    return kept;
  }

  async function recordFailure(
    intent: PaymentIntent,
    e: unknown,
    scrub: (t: string | undefined) => string | undefined,
  ): Promise<PaymentIntent> {
    const notSent = isAppError(e) && e.details?.['sent'] === false;
    const detail = scrub(isAppError(e) ? e.message : 'The request failed in an unexpected way.');
    if (isAppError(e) && (REJECTION_CODES.has(e.code) || notSent)) {
      const retCode = typeof e.details?.['ret_code'] === 'string' ? e.details['ret_code'] : undefined;
      const retMsg = typeof e.details?.['ret_msg'] === 'string' ? scrub(e.details['ret_msg']) : undefined;
      const rejected =
        follower.move(
          intent,
          'rejected',
          { ...(retCode ? { retCode } : {}), ...(retMsg ? { retMsg } : {}), detail: detail ?? null },
          'rejected',
          ['sending', 'outcome_unknown'],
        ) ??
        deps.store.get(intent.id) ??
        intent;
      follower.audit(rejected, 'rejected', actionOf(rejected.kind), detail);
      return rejected;
    }
    deps.log.warn('payment.outcome_unknown', { intentId: intent.id });
    const unknown =
      follower.move(intent, 'outcome_unknown', { detail: detail ?? null }, 'outcome_unknown', ['sending']) ??
      intent;
    follower.audit(unknown, 'outcome_unknown', actionOf(unknown.kind), detail);
    // Look for it by its reference right away; never send it again.
    return (await follower.check(intent.id).catch(() => undefined)) ?? deps.store.get(intent.id) ?? unknown;
  }

  async function createCheckout(input: CheckoutInput): Promise<PaymentIntent> {
    const ctx = contextFor(input.profileId);
    const whitelabel = input.kind === 'whitelabel';
    const partial = {
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      vendor: input.vendor,
    };
    const { customer, callbackUrl, ipnUrl } = checked(ctx, actionOf(input.kind), partial, () => {
      const problem = checkoutProblem({
        vendor: input.vendor,
        currency: input.currency,
        settleCurrency: input.settleCurrency,
        whitelabel,
      });
      if (problem)
        throw refusal('invalid_input', problem.message, { fields: { [problem.field]: problem.message } });
      const cb = whitelabel ? undefined : input.callbackUrl || ctx.defaultCallbackUrl;
      if (!whitelabel && !cb)
        throw refusal(
          'invalid_input',
          'Give the page the customer returns to after paying (the service requires it).',
          { fields: { callbackUrl: 'Required for a payment link.' } },
        );
      const ipn = ctx.ipnUrl ?? input.ipnUrl;
      if (!ipn)
        throw refusal(
          'invalid_input',
          'The service requires a notification address (ipnUrl): give your own server’s address. Refund Desk follows the payment by polling either way.',
          { fields: { ipnUrl: 'Required by the service for this profile.' } },
        );
      return {
        customer: customerOf(ctx, input.customerId),
        callbackUrl: cb ? checkServiceUrl(cb, 'return page', 'callbackUrl') : undefined,
        ipnUrl: ctx.ipnUrl ?? checkServiceUrl(ipn, 'notification address', 'ipnUrl'),
      };
    });
    const goods = input.goods ?? [];
    const draft = draftOf(ctx, {
      kind: input.kind,
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      settleCurrency: input.settleCurrency,
      vendor: input.vendor,
      terminal: whitelabel ? 'YIP' : 'ONLINE',
      ...(input.description ? { description: input.description } : {}),
      ...(input.note ? { note: input.note } : {}),
      goods,
      timeoutMin: input.timeoutMin,
      ...(customer ? { customerId: customer.id, customerNo: customer.customerNo } : {}),
      saveCard: false,
    });
    return create(ctx, draft, async (gw) => {
      const r = await gw.securePay({
        amountMinor: draft.amountMinor,
        currency: draft.currency,
        settleCurrency: draft.settleCurrency,
        vendor: draft.vendor,
        terminal: whitelabel ? 'YIP' : 'ONLINE',
        reference: draft.reference,
        ipnUrl,
        ...(callbackUrl ? { callbackUrl } : {}),
        ...(draft.description ? { description: draft.description } : {}),
        ...(draft.note ? { note: draft.note } : {}),
        timeoutMin: input.timeoutMin,
        ...(goodsInfoText(goods) ? { goodsInfo: goodsInfoText(goods)! } : {}),
        ...(customer ? { customerNo: customer.customerNo } : {}),
      });
      return r;
    });
  }

  async function captureCard(input: CaptureInput): Promise<PaymentIntent> {
    const ctx = contextFor(input.profileId);
    const partial = {
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      vendor: 'creditcard',
    };
    const customer = checked(ctx, 'payment.card', partial, () => {
      if (ctx.environment === 'production' && input.pciAcknowledged !== true)
        throw refusal(
          'invalid_input',
          'Card entry on a production profile puts this computer in PCI DSS scope: confirm you have read the warning.',
          { requires: ['pci_acknowledgement'] },
        );
      const problem = checkoutProblem({
        vendor: 'creditcard',
        currency: input.currency,
        settleCurrency: 'USD',
        whitelabel: false,
      });
      if (problem) throw refusal('invalid_input', problem.message, { fields: { currency: problem.message } });
      if (cardExpired(input.card.expYear, input.card.expMonth, deps.clock.now()))
        throw refusal('invalid_input', 'This card has expired.', {
          fields: { expYear: 'This card has expired.' },
        });
      const c = customerOf(ctx, input.customerId);
      if (input.saveCard && !c)
        throw refusal('invalid_input', 'Choose the customer the card is saved for.', {
          fields: { customerId: 'Save card needs a customer.' },
        });
      return c;
    });
    // Only the last four digits are kept; the scrubber holds hashes, not the card.
    const scrub = cardScrubber(input.card);
    let card: CardInput | undefined = input.card;
    const draft = draftOf(ctx, {
      kind: 'card',
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      settleCurrency: 'USD',
      vendor: 'creditcard',
      terminal: 'ONLINE',
      ...(input.note ? { note: input.note } : {}),
      goods: [],
      ...(customer ? { customerId: customer.id, customerNo: customer.customerNo } : {}),
      saveCard: input.saveCard,
      cardLast4: input.card.number.slice(-4),
    });
    // Drop the caller's reference too: nothing in main holds the card once the request is on its way.
    delete (input as { card?: CardInput }).card;
    return create(
      ctx,
      draft,
      async (gw) => {
        const sending = gw.capture({
          amountMinor: draft.amountMinor,
          currency: draft.currency,
          settleCurrency: 'USD',
          reference: draft.reference,
          terminal: 'ONLINE',
          card: { number: card!.number, expYear: card!.expYear, expMonth: card!.expMonth, cvv: card!.cvv },
          ...(customer ? { customerNo: customer.customerNo } : {}),
          ...(draft.note ? { note: draft.note } : {}),
          ...(ctx.ipnUrl ? { ipnUrl: ctx.ipnUrl } : {}),
          ...(input.saveCard ? { creditType: 'vault' as const } : {}),
        });
        card = undefined;
        return sending;
      },
      scrub,
    );
  }

  async function chargeMethod(input: ChargeInput): Promise<PaymentIntent> {
    const ctx = contextFor(input.profileId);
    const partial = {
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      vendor: 'creditcard',
    };
    const { method, customer } = checked(ctx, 'payment.charge', partial, () => {
      const m = deps.store.methods.get(input.methodId);
      const c = m ? customerOf(ctx, m.customerId) : undefined;
      if (!m || !c)
        throw refusal(
          'not_found',
          'That stored method is not on a customer of this profile. Reload the customer.',
        );
      if (m.vendor !== 'creditcard')
        throw refusal('invalid_input', `A stored ${m.vendor} method cannot be charged from here.`);
      const problem = checkoutProblem({
        vendor: m.vendor,
        currency: input.currency,
        settleCurrency: 'USD',
        whitelabel: false,
      });
      if (problem) throw refusal('invalid_input', problem.message, { fields: { currency: problem.message } });
      const need = chargeConfirmation({
        amountMinor: input.amountMinor,
        currency: input.currency,
        environment: ctx.environment,
        guardrails: ctx.guardrails,
        typedAmount: input.confirmation.typedAmount,
      });
      if (need.missing.length > 0)
        throw refusal(
          'invalid_input',
          `This charge needs the amount typed again${need.reasons.length ? `: ${need.reasons.join('; ')}` : ''}.`,
          { requires: need.missing, reasons: need.reasons },
        );
      return { method: m, customer: c };
    });
    const draft = draftOf(ctx, {
      kind: 'charge',
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      settleCurrency: 'USD',
      vendor: method.vendor,
      terminal: 'ONLINE',
      ...(input.note ? { note: input.note } : {}),
      goods: [],
      customerId: customer.id,
      customerNo: customer.customerNo,
      methodId: method.id,
      saveCard: false,
      ...(method.cardLast4 ? { cardLast4: method.cardLast4 } : {}),
    });
    return create(ctx, draft, (gw) =>
      gw.capture({
        amountMinor: draft.amountMinor,
        currency: draft.currency,
        settleCurrency: 'USD',
        reference: draft.reference,
        terminal: 'ONLINE',
        vaultId: method.vaultId,
        customerNo: customer.customerNo,
        ...(draft.note ? { note: draft.note } : {}),
        ...(ctx.ipnUrl ? { ipnUrl: ctx.ipnUrl } : {}),
      }),
    );
  }

  return {
    follower,
    /** The active profile, checked against the one the caller named; refused when storage is untrusted. */
    contextFor,
    createCheckout,
    captureCard,
    chargeMethod,
    /** Asks the service about one payment now; never sends anything that creates one. */
    async checkAgain(id: string): Promise<PaymentIntent> {
      const i = deps.store.get(id);
      if (!i) throw new AppError('not_found', 'This desk has no payment with that id. Reload the list.');
      const after = (await follower.check(id)) ?? i;
      follower.kick(id);
      return after;
    },
    list: (profileId: string) => deps.store.list(profileId),
    audit: () => deps.store.audit.list(),
  };
}
export type PaymentService = ReturnType<typeof createPaymentService>;

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
