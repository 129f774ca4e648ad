import { z } from 'zod';
import { minorSchema } from '../../domain/money';
import { intentViewSchema } from '../../domain/refund-intent';
import { refuseUnsafeText } from '../../domain/text';
import { scoped } from './scope';

/**
 * Four-eyes over IPC (issue 26 item 4; a team database only — a single desk lists none and refuses the
 * rest in words). Every rule is main's and the database's: who may approve, up to what, until when.
 */
const requestId = z.string().min(1).max(64);

/** The same confirmations as a refund's confirm step (overLimit, the amount typed again for live money). */
const confirmationSchema = z
  .object({ overLimit: z.boolean().optional(), typedAmount: z.string().max(32).optional() })
  .strict();

/** Why a request is declined or cancelled: kept in the team database's audit beside the person. */
export const commentSchema = z
  .string()
  .trim()
  .min(1, 'Say why (a comment is required).')
  .max(1000, 'Keep the comment under 1000 characters.')
  .superRefine(refuseUnsafeText('comment', { multiline: true }));

/** Open requests (awaiting approval, or approved and about to be sent) for the profile's account. */
export const approvalsList = {
  input: z.object({ ...scoped }).strict(),
  output: z.array(intentViewSchema),
};

/** Approve another person's request and send it, in one action. */
export const approvalsApproveAndSend = {
  input: z
    .object({
      ...scoped,
      id: requestId,
      confirmation: confirmationSchema,
      /** The account the confirmation showed: refused if the profile now points elsewhere. */
      account: z
        .object({ baseUrl: z.string().max(2048), merchantNo: z.string().max(64) })
        .strict()
        .optional(),
    })
    .strict(),
  output: intentViewSchema,
};

export const approvalsReject = {
  input: z.object({ ...scoped, id: requestId, comment: commentSchema }).strict(),
  output: intentViewSchema,
};

export const approvalsCancel = {
  input: z.object({ ...scoped, id: requestId, comment: commentSchema }).strict(),
  output: intentViewSchema,
};

/**
 * Who may approve a request: the other people with the checker role whose limit covers it (the
 * requester's screen says whom to ask). Read from the database; approving still decides.
 */
export const approvalsApprovers = {
  input: z.object({ ...scoped, id: requestId }).strict(),
  output: z.object({ logins: z.array(z.string()) }),
};

/** Who this desk is in the team database, or `team: false` on a single desk. No password ever. */
export const approvalsWhoAmI = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.discriminatedUnion('team', [
    z.object({ team: z.literal(false) }),
    z.object({
      team: z.literal(true),
      login: z.string(),
      groups: z.array(z.string()),
      limits: z.array(z.object({ currency: z.string(), upToMinor: minorSchema })),
    }),
  ]),
};
