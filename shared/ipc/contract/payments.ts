import { z } from 'zod';
import { cardSchema } from '../../domain/card';
import { currencySchema } from '../../domain/currencies';
import { recordedEnvironmentSchema } from '../../domain/profile';
import { REFERENCE_MESSAGE, REFERENCE_PATTERN, TIMEOUT_MIN, VENDOR_CODES } from '../../domain/checkout';
import { customerInputSchema } from '../../domain/customer';
import { refuseUnsafeText } from '../../domain/text';
import { listScopeSchema, profileIdSchema } from './scope';
import { minorSchema } from '../../domain/money';

const positive = minorSchema.refine((n) => n > 0, 'The amount must be greater than zero.');
const currency = currencySchema;
const profileId = profileIdSchema;
const reference = z.string().trim().regex(REFERENCE_PATTERN, REFERENCE_MESSAGE);
const shortText = (what: string) =>
  z
    .string()
    .trim()
    .max(100, `Keep the ${what} under 100 characters.`)
    .superRefine(refuseUnsafeText(what))
    .optional();
const localId = z.string().min(1).max(64);

/** How a payment was started from this desk. */
export const PAYMENT_KINDS = ['link', 'whitelabel', 'card', 'charge'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/**
 * A payment creation's lifecycle in main (electron/core/services/payments/intent.ts): journaled as
 * `sending` before the request leaves; `open` once the service created it and until its status is
 * final; `rejected` when the service said no (nothing created); `outcome_unknown` when the answer was
 * lost, resolved by querying the reference (never by sending again); `not_created` when that query still
 * finds nothing ten minutes later.
 */
export const PAYMENT_STATES = [
  'sending',
  'open',
  'succeeded',
  'failed',
  'closed',
  'rejected',
  'outcome_unknown',
  'not_created',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const goodsLineSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Name the item.')
      .max(100, 'Keep item names under 100 characters.')
      .superRefine(refuseUnsafeText('item name')),
    quantity: z.number().int().min(1, 'At least 1.').max(9999, 'At most 9999.'),
  })
  .strict();

export const paymentViewSchema = z.object({
  id: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  state: z.enum(PAYMENT_STATES),
  profileId: z.string(),
  profileName: z.string(),
  environment: recordedEnvironmentSchema,
  operator: z.string(),
  reference: z.string(),
  amountMinor: minorSchema,
  currency: currencySchema,
  settleCurrency: currencySchema,
  vendor: z.string(),
  description: z.string().optional(),
  note: z.string().optional(),
  goods: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
  timeoutMin: z.number().int().optional(),
  /** When an unpaid link closes at the service (created + timeout). */
  expiresAt: z.string().optional(),
  customerId: z.string().optional(),
  customerNo: z.string().optional(),
  customerName: z.string().optional(),
  methodId: z.string().optional(),
  /** The stored method charged (masked), or the method this payment saved. */
  methodLabel: z.string().optional(),
  saveCard: z.boolean(),
  /** The service has stored the card (creditType=vault) and it is on the customer. */
  methodSaved: z.boolean(),
  cardLast4: z.string().optional(),
  transactionNo: z.string().optional(),
  /** The service's own status of the payment (init, pending, success, failed, closed, …). */
  paymentStatus: z.string().optional(),
  cashierUrl: z.string().optional(),
  /**
   * Whitelabel: the vendor SDK's initialization data (`authorization`) for the merchant's own page. Held
   * in main's memory for the session that created the payment; never stored.
   */
  sdkAuthorization: z.string().optional(),
  /** Card: the 3-D Secure page the cardholder must complete. */
  authUrl: z.string().optional(),
  retCode: z.string().optional(),
  retMsg: z.string().optional(),
  detail: z.string().optional(),
  lastCheck: z.object({ at: z.string(), found: z.boolean(), note: z.string() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.string().optional(),
});
export type PaymentView = z.infer<typeof paymentViewSchema>;

const listInput = listScopeSchema;

export const paymentsList = { input: listInput, output: z.array(paymentViewSchema) };

const common = {
  /** The profile the person saw: refused if another one is active when the request arrives. */
  profileId,
  amountMinor: positive,
  currency,
  reference,
  note: shortText('note'),
  customerId: localId.optional(),
};

export const paymentsCreateCheckout = {
  input: z
    .object({
      ...common,
      kind: z.enum(['link', 'whitelabel']),
      settleCurrency: currency,
      vendor: z.enum(VENDOR_CODES, { message: 'Choose a payment method.' }),
      description: shortText('description'),
      goods: z.array(goodsLineSchema).max(20, 'At most 20 item lines.').default([]),
      timeoutMin: z
        .number()
        .int()
        .min(TIMEOUT_MIN.min, 'At least 1 minute.')
        .max(TIMEOUT_MIN.max, 'At most 30 days (43200 minutes).'),
      /** Where the payer is sent after the hosted page (links only; Demo uses the sandbox's own page). */
      callbackUrl: z.string().trim().max(500).superRefine(refuseUnsafeText('return page address')).optional(),
      /** The merchant's own notification address, for profiles without the local listener. */
      ipnUrl: z.string().trim().max(500).superRefine(refuseUnsafeText('notification address')).optional(),
    })
    .strict(),
  output: paymentViewSchema,
};

export const paymentsCaptureCard = {
  input: z
    .object({
      ...common,
      saveCard: z.boolean(),
      card: cardSchema,
      /** The person read the PCI scope warning (required on a production profile). */
      pciAcknowledged: z.boolean().optional(),
    })
    .strict(),
  output: paymentViewSchema,
};

export const paymentsChargeMethod = {
  input: z
    .object({
      ...common,
      methodId: localId,
      confirmation: z.object({ typedAmount: z.string().max(32).optional() }).strict(),
    })
    .strict(),
  output: paymentViewSchema,
};

export const paymentsCheckAgain = {
  input: z.object({ profileId, id: localId }).strict(),
  output: paymentViewSchema,
};

export const paymentsOpenPage = {
  input: z.object({ profileId, id: localId, page: z.enum(['checkout', '3ds']) }).strict(),
  output: z.object({ opened: z.boolean(), url: z.string() }),
};

export const PAYMENT_AUDIT_ACTIONS = [
  'customer.register',
  'payment.link',
  'payment.whitelabel',
  'payment.card',
  'payment.charge',
  'payment.check',
  'payment.final',
  'method.saved',
  'payment.note',
] as const;
export const PAYMENT_AUDIT_OUTCOMES = [
  'refused',
  'rejected',
  'created',
  'registered',
  'outcome_unknown',
  'succeeded',
  'failed',
  'closed',
  'not_created',
  'found',
  'saved',
  'noted',
  /** Team mode: a desk's late answer disagreed with what another desk recorded (adapters/outbox-store.ts). */
  'conflicting_answer',
] as const;

export const paymentAuditEntrySchema = z.object({
  at: z.string(),
  operator: z.string(),
  profileId: z.string(),
  profileName: z.string(),
  environment: recordedEnvironmentSchema,
  action: z.enum(PAYMENT_AUDIT_ACTIONS),
  outcome: z.enum(PAYMENT_AUDIT_OUTCOMES),
  /** The payment intent or customer this entry is about ('' when nothing was recorded). */
  subjectId: z.string(),
  reference: z.string().optional(),
  transactionNo: z.string().optional(),
  customerNo: z.string().optional(),
  amountMinor: minorSchema.optional(),
  currency: currencySchema.optional(),
  vendor: z.string().optional(),
  retCode: z.string().optional(),
  retMsg: z.string().optional(),
  detail: z.string().optional(),
});
export type PaymentAuditEntry = z.infer<typeof paymentAuditEntrySchema>;

export const paymentsAudit = {
  input: listScopeSchema,
  output: z.array(paymentAuditEntrySchema),
};

export const storedMethodSchema = z.object({
  id: z.string(),
  vendor: z.string(),
  /** "Card •••• 3220" */
  label: z.string(),
  /** The vaultId, masked ("pp_…9f2c"); the full id never leaves main. */
  vaultMasked: z.string(),
  createdAt: z.string(),
});

export const customerViewSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  customerNo: z.string(),
  customerCode: z.string().optional(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  countryCode: z.string(),
  state: z.string().optional(),
  createdAt: z.string(),
  operator: z.string(),
  methods: z.array(storedMethodSchema),
});
export type CustomerView = z.infer<typeof customerViewSchema>;

export const customersList = { input: listInput, output: z.array(customerViewSchema) };

export const customersRegister = {
  input: z.object({ profileId, customer: customerInputSchema }).strict(),
  output: customerViewSchema,
};

export const paymentEvents = {
  /** A payment this desk created changed (created, answered, followed to its final status…). */
  'payments.updated': paymentViewSchema,
  /** A customer changed (registered, a stored method arrived). */
  'customers.updated': customerViewSchema,
};
