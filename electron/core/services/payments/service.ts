import type { Currency } from '../../../../shared/domain/currencies';
import { cardExpired, type CardInput } from '../../../../shared/domain/card';
import { checkoutProblem, goodsInfoText } from '../../../../shared/domain/checkout';
import { refuseOtherProfile } from '../scope';
import { AppError } from '../../../../shared/domain/errors';
import type { Input } from '../../../../shared/ipc/contract';
import { cardScrubber, chargeConfirmation, checkServiceUrl, refusal } from './checks';
import { createPaymentFollower } from './follow';
import type { PaymentIntent } from './intent';
import { createRecorder, type RecorderDeps } from './recorder';

export type { PaymentContext } from './recorder';
export { transactionOf } from './recorder';
export type PaymentServiceDeps = RecorderDeps;

type CheckoutInput = Input<'payments.createCheckout'>;
/** What a refusal's audit entry says about the create. */
const about = (i: { reference: string; amountMinor: number; currency: Currency }, vendor: string) => ({
  reference: i.reference,
  amountMinor: i.amountMinor,
  currency: i.currency,
  vendor,
});
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
  const { contextFor, customerOf, draftOf, checked, actionOf, create } = createRecorder(deps, follower);

  async function createCheckout(input: CheckoutInput): Promise<PaymentIntent> {
    const ctx = contextFor(input.profileId);
    const whitelabel = input.kind === 'whitelabel';
    const partial = about(input, input.vendor);
    const { customer, callbackUrl, ipnUrl } = await checked(ctx, actionOf(input.kind), partial, () => {
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
    const partial = about(input, 'creditcard');
    const customer = await checked(ctx, 'payment.card', partial, () => {
      if (ctx.moneyMode === 'live' && input.pciAcknowledged !== true)
        throw refusal(
          'invalid_input',
          'Card entry with live money puts this computer in PCI DSS scope: confirm you have read the warning.',
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
    const partial = about(input, 'creditcard');
    const { method, customer } = await checked(ctx, 'payment.charge', partial, () => {
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
        moneyMode: ctx.moneyMode,
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
    /** The named profile's context; refused when storage is untrusted. */
    contextFor,
    createCheckout,
    captureCard,
    chargeMethod,
    /** Asks the service about one payment now; never sends anything that creates one. */
    async checkAgain(profileId: string, id: string): Promise<PaymentIntent> {
      const i = await deps.store.get(id);
      if (!i) throw new AppError('not_found', 'This desk has no payment with that id. Reload the list.');
      refuseOtherProfile('payment', i, profileId);
      const after = (await follower.check(id)) ?? i;
      follower.kick(id);
      return after;
    },
    list: (profileId?: string) => deps.store.list(profileId),
    /** One profile's audit entries, or every profile's. */
    audit: (profileId?: string) => deps.store.audit.list(profileId),
  };
}
export type PaymentService = ReturnType<typeof createPaymentService>;
