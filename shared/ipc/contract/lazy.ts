import type { InvokeChannel } from '../channels';
import type { Contract } from './index';

/**
 * Each operation's schemas, loaded with their group's module on the first call that needs them. Building
 * every zod schema of the contract is a good part of the core's start (the browser host's core answers
 * nothing until its code has run); the first calls need only a few groups (app, profiles, refunds, team).
 * The same schema objects as `contract` (index.ts): a module runs once, whichever way it is imported.
 * Typed against `Contract`, so an entry naming another operation's schemas does not compile.
 */
const SPECS: { [C in InvokeChannel]: () => Promise<Contract[C]> } = {
  'app.info': () => import('./app').then((m) => m.appInfo),
  'app.health': () => import('./app').then((m) => m.appHealth),
  'app.bootstrap': () => import('./bootstrap').then((m) => m.appBootstrap),
  'app.openExternal': () => import('./app').then((m) => m.appOpenExternal),
  'app.reportError': () => import('./app').then((m) => m.appReportError),
  'profiles.list': () => import('./profiles').then((m) => m.profilesList),
  'profiles.save': () => import('./profiles').then((m) => m.profilesSave),
  'profiles.delete': () => import('./profiles').then((m) => m.profilesDelete),
  'profiles.activate': () => import('./profiles').then((m) => m.profilesActivate),
  'profiles.setToken': () => import('./profiles').then((m) => m.profilesSetToken),
  'profiles.clearToken': () => import('./profiles').then((m) => m.profilesClearToken),
  'profiles.testConnection': () => import('./profiles').then((m) => m.profilesTestConnection),
  'transactions.lookup': () => import('./transactions').then((m) => m.transactionsLookup),
  'transactions.refresh': () => import('./transactions').then((m) => m.transactionsRefresh),
  'transactions.sync': () => import('./transactions-batch').then((m) => m.transactionsSync),
  'reconciliation.create': () => import('./reconciliation').then((m) => m.reconciliationCreate),
  'reconciliation.addInput': () => import('./reconciliation').then((m) => m.reconciliationAddInput),
  'reconciliation.start': () => import('./reconciliation').then((m) => m.reconciliationStart),
  'reconciliation.pause': () => import('./reconciliation').then((m) => m.reconciliationPause),
  'reconciliation.resume': () => import('./reconciliation').then((m) => m.reconciliationResume),
  'reconciliation.cancel': () => import('./reconciliation').then((m) => m.reconciliationCancel),
  'reconciliation.get': () => import('./reconciliation').then((m) => m.reconciliationGet),
  'reconciliation.list': () => import('./reconciliation').then((m) => m.reconciliationList),
  'reconciliation.report': () => import('./reconciliation').then((m) => m.reconciliationReport),
  'reconciliation.items': () => import('./reconciliation').then((m) => m.reconciliationItems),
  'reconciliation.recheck': () => import('./reconciliation').then((m) => m.reconciliationRecheck),
  'reconciliation.demoLedger': () => import('./reconciliation').then((m) => m.reconciliationDemoLedger),
  'reconciliation.exceptions': () => import('./reconciliation').then((m) => m.reconciliationExceptions),
  'reconciliation.updateException': () =>
    import('./reconciliation').then((m) => m.reconciliationUpdateException),
  'reconciliation.matchException': () =>
    import('./reconciliation').then((m) => m.reconciliationMatchException),
  'reconciliation.signOff': () => import('./reconciliation').then((m) => m.reconciliationSignOff),
  'reconciliation.awaitingSignOff': () =>
    import('./reconciliation').then((m) => m.reconciliationAwaitingSignOff),
  'reconciliation.audit': () => import('./reconciliation').then((m) => m.reconciliationAudit),
  'refunds.preview': () => import('./refunds').then((m) => m.refundsPreview),
  'refunds.submit': () => import('./refunds').then((m) => m.refundsSubmit),
  'refunds.list': () => import('./refunds').then((m) => m.refundsList),
  'refunds.checkAgain': () => import('./refunds').then((m) => m.refundsCheckAgain),
  'refunds.closeNotSent': () => import('./refunds').then((m) => m.refundsCloseNotSent),
  'refunds.batchDryRun': () => import('./refund-batch').then((m) => m.refundsBatchDryRun),
  'refunds.batchStart': () => import('./refund-batch').then((m) => m.refundsBatchStart),
  'refunds.batchPause': () => import('./refund-batch').then((m) => m.refundsBatchPause),
  'refunds.batchCancel': () => import('./refund-batch').then((m) => m.refundsBatchCancel),
  'refunds.batchApprove': () => import('./refund-batch').then((m) => m.refundsBatchApprove),
  'refunds.batchReject': () => import('./refund-batch').then((m) => m.refundsBatchReject),
  'refunds.batchList': () => import('./refund-batch').then((m) => m.refundsBatchList),
  'refunds.batchStatus': () => import('./refund-batch').then((m) => m.refundsBatchStatus),
  'refunds.batchReport': () => import('./refund-batch').then((m) => m.refundsBatchReport),
  'audit.list': () => import('./refunds').then((m) => m.auditList),
  'approvals.list': () => import('./approvals').then((m) => m.approvalsList),
  'approvals.approveAndSend': () => import('./approvals').then((m) => m.approvalsApproveAndSend),
  'approvals.reject': () => import('./approvals').then((m) => m.approvalsReject),
  'approvals.cancel': () => import('./approvals').then((m) => m.approvalsCancel),
  'approvals.whoAmI': () => import('./approvals').then((m) => m.approvalsWhoAmI),
  'approvals.approvers': () => import('./approvals').then((m) => m.approvalsApprovers),
  'customers.list': () => import('./payments').then((m) => m.customersList),
  'customers.register': () => import('./payments').then((m) => m.customersRegister),
  'payments.list': () => import('./payments').then((m) => m.paymentsList),
  'payments.createCheckout': () => import('./payments').then((m) => m.paymentsCreateCheckout),
  'payments.captureCard': () => import('./payments').then((m) => m.paymentsCaptureCard),
  'payments.chargeMethod': () => import('./payments').then((m) => m.paymentsChargeMethod),
  'payments.checkAgain': () => import('./payments').then((m) => m.paymentsCheckAgain),
  'payments.openPage': () => import('./payments').then((m) => m.paymentsOpenPage),
  'payments.audit': () => import('./payments').then((m) => m.paymentsAudit),
  'payments.timeline': () => import('./timeline').then((m) => m.paymentsTimeline),
  'payments.addNote': () => import('./timeline').then((m) => m.paymentsAddNote),
  'team.status': () => import('./team').then((m) => m.teamStatus),
  'team.settings': () => import('./team').then((m) => m.teamSettings),
  'team.save': () => import('./team').then((m) => m.teamSave),
  'team.forget': () => import('./team').then((m) => m.teamForget),
  'team.setPassword': () => import('./team').then((m) => m.teamSetPassword),
  'team.testConnection': () => import('./team').then((m) => m.teamTestConnection),
};

const loaded = new Map<InvokeChannel, Promise<unknown>>();

/** The input and output schemas of `channel`, loading its group's module the first time. */
export function specOf<C extends InvokeChannel>(channel: C): Promise<Contract[C]> {
  let spec = loaded.get(channel);
  if (!spec) loaded.set(channel, (spec = (SPECS[channel] as () => Promise<Contract[C]>)()));
  return spec as Promise<Contract[C]>;
}
