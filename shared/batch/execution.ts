/**
 * A refund batch being executed, as main reports it (IPC refunds.batchStart / batchStatus / batchReport,
 * the `refunds.batchProgress` event, and `cli refund-batch --yes`): one schema each, checked where they
 * cross IPC and used as main's types. Counts are of rows; money stays per currency.
 */
import { z } from 'zod';
import { currencySchema } from '../domain/currencies';
import { minorSchema } from '../domain/money';
import { batchRowResultSchema } from './result';

/**
 * awaiting_approval: team mode, the batch's total is above the account's approval policy (nothing sent);
 * rejected by a checker or expired before approval: final, nothing sent.
 */
export const BATCH_RUN_STATES = [
  'awaiting_approval',
  'running',
  'paused',
  'cancelled',
  'finished',
  'rejected',
  'expired',
] as const;

const count = z.number().int().min(0);

export const batchStatusSchema = z
  .object({
    batchId: z.string(),
    profileId: z.string(),
    profileName: z.string(),
    state: z.enum(BATCH_RUN_STATES),
    /** A process is executing it now (this one): progress is still coming. */
    active: z.boolean(),
    fileName: z.string(),
    createdAt: z.string(),
    operator: z.string(),
    moneyMode: z.string(),
    /** Every data row of the file. */
    dataRows: count,
    /** Rows the dry run said will be refunded: the batch's work. */
    toSend: count,
    /** Of those: not yet taken. */
    pending: count,
    /** Sent, and the service accepted (or settled) the refund. */
    refunded: count,
    /** Checked again just before sending and refused (nothing sent), or rejected by the service. */
    refused: count,
    /** Sent, and whether money moved is not known yet (resolved by query, never resent). */
    unknown: count,
    /** Not sent because the batch was cancelled first. */
    cancelled: count,
    /** Rows an earlier batch already refunded (recognised by their row key). */
    alreadyDone: count,
    /** Rows the dry run refused or could not use (their class says why). */
    notUsable: count,
    /** Expected time to the end at the pace of this run so far, when known. */
    etaMs: z.number().int().min(0).optional(),
    /** Set when starting found an unfinished batch of the same file and account and resumed it. */
    resumed: z.boolean().optional(),
    totals: z.array(z.object({ currency: currencySchema, amountMinor: minorSchema, rows: count })),
    /**
     * Team mode: who started it (database login), and — for a batch above the approval policy — until
     * when it may be approved (server time) and who approved it as a whole.
     */
    approval: z
      .object({
        startedBy: z.string().max(200),
        expiresAt: z.string().optional(),
        approvedBy: z.string().max(200).optional(),
        approvedDesk: z.string().max(200).optional(),
        /** Rejected or expired: who closed it (the checker; for expiry, whose read marked it), when. */
        closedBy: z.string().max(200).optional(),
        closedAt: z.string().optional(),
        /** The checker's comment when rejected. */
        closeComment: z.string().max(1000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type BatchStatus = z.infer<typeof batchStatusSchema>;

export const batchReportRowSchema = batchRowResultSchema
  .extend({
    /** What executing it did: the refund's state, refused, cancelled; absent for a row never to be sent. */
    outcome: z.string().max(40).optional(),
    refundTransactionNo: z.string().max(64).optional(),
    /** The refund intent (its refundReference at the service). */
    intentId: z.string().max(80).optional(),
    at: z.string().optional(),
    operator: z.string().max(120).optional(),
  })
  .strict();
export type BatchExecutedRow = z.infer<typeof batchReportRowSchema>;

export const batchReportSchema = z
  .object({ status: batchStatusSchema, rows: z.array(batchReportRowSchema) })
  .strict();
export type BatchReport = z.infer<typeof batchReportSchema>;
