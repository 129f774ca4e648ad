import { z } from 'zod';
import { currencySchema } from '../../domain/currencies';
import { refuseUnsafeText } from '../../domain/text';
import { scoped } from './scope';
import { minorSchema } from '../../domain/money';

const transactionNo = z.string().regex(/^\d{1,32}$/, 'A transaction number is digits only.');

/** A note is short enough to read in the panel and to fit one audit row. */
export const PAYMENT_NOTE_MAX = 1000;

/**
 * One thing that happened to a payment, as main keeps it: an action a person took (the audit), what
 * the engine did on its own (checks of a refund), a notification from the service (IPN), a look-up of
 * it from this desk, or a note.
 */
export const timelineEntrySchema = z.object({
  at: z.string(),
  source: z.enum(['refund', 'payment', 'ipn', 'note', 'lookup']),
  /** What happened, in words ("Refund accepted", "Notification: payment success"). */
  what: z.string(),
  /** Who: the operator, or the service / this desk for what no person did. */
  person: z.string(),
  automatic: z.boolean(),
  amountMinor: minorSchema.optional(),
  currency: currencySchema.optional(),
  detail: z.string().optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const paymentsTimeline = {
  input: z.object({ ...scoped, transactionNo }).strict(),
  output: z.object({
    profileId: z.string(),
    transactionNo: z.string(),
    /** Newest first. */
    entries: z.array(timelineEntrySchema),
  }),
};

export const paymentsAddNote = {
  input: z
    .object({
      ...scoped,
      transactionNo,
      text: z
        .string()
        .trim()
        .min(1, 'Type the note.')
        .max(PAYMENT_NOTE_MAX, `A note is at most ${PAYMENT_NOTE_MAX} characters.`)
        .superRefine(refuseUnsafeText('note', { multiline: true })),
    })
    .strict(),
  output: z.object({ id: z.string(), at: z.string(), operator: z.string() }),
};
