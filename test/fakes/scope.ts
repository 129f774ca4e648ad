/**
 * Test convenience: names the profile on account-scoped calls the way the renderer does, so a test that
 * is about something else can keep its calls short. Tests of the scoping itself name profiles explicitly.
 */
export const LIST_CHANNELS = new Set([
  'refunds.list',
  'audit.list',
  'reconciliation.list',
  'payments.list',
  'payments.audit',
  'customers.list',
]);

export const ACCOUNT_CHANNELS = new Set([
  'transactions.lookup',
  'transactions.refresh',
  'transactions.sync',
  'refunds.preview',
  'refunds.submit',
  'refunds.checkAgain',
  'refunds.closeNotSent',
  'approvals.list',
  'approvals.approveAndSend',
  'approvals.reject',
  'approvals.cancel',
  'reconciliation.create',
  'reconciliation.addInput',
  'reconciliation.start',
  'reconciliation.pause',
  'reconciliation.resume',
  'reconciliation.cancel',
  'reconciliation.get',
  'reconciliation.report',
  'reconciliation.items',
  'reconciliation.recheck',
  'reconciliation.awaitingSignOff',
  'reconciliation.audit',
  'payments.createCheckout',
  'payments.captureCard',
  'payments.chargeMethod',
  'payments.checkAgain',
  'payments.openPage',
  'payments.timeline',
  'payments.addNote',
  'customers.register',
]);

/** The input with `profileId` added where the channel is account-scoped and the input has none. */
export function withProfile(channel: string, input: unknown, profileId: string): unknown {
  if (LIST_CHANNELS.has(channel)) return input ?? { profileId };
  if (!ACCOUNT_CHANNELS.has(channel)) return input;
  const obj = (input ?? {}) as Record<string, unknown>;
  return 'profileId' in obj ? obj : { profileId, ...obj };
}
