import { z } from 'zod';
import { currencySchema } from '../../domain/currencies';
import { guardrailsSchema } from '../../domain/guardrails';
import { environmentSchema } from '../../domain/profile';
import {
  type AuditEntry,
  auditEntrySchema,
  INTENT_STATES,
  intentSchema,
  type IntentView as DomainIntentView,
  intentViewSchema,
} from '../../domain/refund-intent';
import { refuseUnsafeText } from '../../domain/text';
import { listScopeSchema, scoped } from './scope';
import { transactionSchema } from '../../domain/transaction';

const minor = z.number().int().refine(Number.isSafeInteger, 'Amounts are whole minor units.');

/** Reasons offered in the dialog; the service has no reason field, so the reason is kept locally. */
export const REFUND_REASONS = [
  { code: 'customer_request', label: 'Customer request' },
  { code: 'duplicate', label: 'Duplicate payment' },
  { code: 'fraud', label: 'Suspected fraud' },
  { code: 'product_issue', label: 'Product or service issue' },
  { code: 'goodwill', label: 'Goodwill gesture' },
  { code: 'other', label: 'Other (explain in the note)' },
] as const;
export const REASON_CODES = REFUND_REASONS.map((r) => r.code) as [string, ...string[]];

/** The domain's refund intent (with what main derives for it) and audit entry, as the renderer sees them. */
export type IntentView = DomainIntentView;
export type AuditEntryView = AuditEntry;

/** One refund of the payment from the journal, for the dialog's "is this a different refund?". */
export const recentRefundSchema = z.object({
  id: z.string(),
  state: z.enum(INTENT_STATES),
  amountMinor: minor,
  currency: currencySchema,
  /** When it was made (ISO). */
  at: z.string(),
  /** The person (team login), else the operator name the desk recorded. */
  by: z.string(),
  /** The desk it was made at, where known (team database). */
  desk: z.string().optional(),
});
export type RecentRefundView = z.infer<typeof recentRefundSchema>;

export const refundsPreview = {
  input: z
    .object({
      ...scoped,
      transactionNo: z.string().regex(/^\d{1,32}$/, 'A transaction number is digits only.'),
    })
    .strict(),
  output: z.object({
    transaction: transactionSchema,
    remainingMinor: minor,
    /** Set when this payment cannot be refunded safely, with the reason in words (refund record, mixed currencies). */
    blockedReason: z.string().optional(),
    pendingIntents: z.array(intentSchema),
    todayTotalMinor: minor,
    guardrails: guardrailsSchema,
    environment: environmentSchema,
    /** live = real money (production host or any non-loopback custom address); test = vendor sandbox; local = Demo/loopback. */
    moneyMode: z.enum(['live', 'test', 'local']),
    /** Where the refund would go, and as which merchant. */
    baseUrl: z.string(),
    merchantNo: z.string(),
    profileId: z.string(),
    profileName: z.string(),
    operator: z.string(),
    /**
     * This payment's refunds in the journal in the last 24 hours that moved (or may move) money, newest
     * first: "1.00 USD refunded 2 minutes ago by alice at desk-2 — is this a different refund?"
     */
    recentRefunds: z.array(recentRefundSchema).optional(),
    fetchedAt: z.string(),
  }),
};

export const refundsSubmit = {
  input: z
    .object({
      transactionNo: z.string().regex(/^\d{1,32}$/),
      amountMinor: minor.refine((n) => n > 0, 'The refund amount must be greater than zero.'),
      currency: currencySchema,
      reasonCode: z.enum(REASON_CODES, { message: 'Choose a reason for the refund.' }),
      reasonNote: z
        .string()
        .trim()
        .max(500, 'Keep the note under 500 characters.')
        .superRefine(refuseUnsafeText('note', { multiline: true })),
      confirmation: z
        .object({ overLimit: z.boolean().optional(), typedAmount: z.string().max(32).optional() })
        .strict(),
      /** The profile the confirmation screen showed: the refund goes to this profile's account only. */
      ...scoped,
      /**
       * The account the confirmation showed (from the preview): refused with `conflict` if the profile
       * now points at another address or merchant.
       */
      account: z
        .object({ baseUrl: z.string().max(2048), merchantNo: z.string().max(64) })
        .strict()
        .optional(),
    })
    .strict()
    .refine((v) => v.reasonCode !== 'other' || v.reasonNote.length > 0, {
      path: ['reasonNote'],
      message: 'Explain the reason in the note.',
    }),
  output: intentViewSchema,
};

export const refundsList = { input: listScopeSchema, output: z.array(intentViewSchema) };
export const refundsCheckAgain = {
  input: z.object({ ...scoped, id: z.string().min(1).max(64) }).strict(),
  output: intentViewSchema,
};

/** Closes an unknown refund the service never listed as not sent (typed confirmation: "NOT SENT"). */
export const refundsCloseNotSent = {
  input: z
    .object({
      ...scoped,
      id: z.string().min(1).max(64),
      confirmation: z.string().max(32),
    })
    .strict(),
  output: intentViewSchema,
};

export const auditList = {
  input: listScopeSchema,
  output: z.array(auditEntrySchema),
};

export const refundEvents = {
  /** An intent changed state (sent, accepted, resolved, settled…). */
  'refunds.updated': intentViewSchema,
};
