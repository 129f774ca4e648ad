import type { InvokeChannel } from '../channels';
import type { Contract } from './index';

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

/** Each group's module, imported once: the other operations of a loaded group wait for nothing. */
const group = {
  app: once(() => import('./app')),
  approvals: once(() => import('./approvals')),
  bootstrap: once(() => import('./bootstrap')),
  payments: once(() => import('./payments')),
  profiles: once(() => import('./profiles')),
  reconciliation: once(() => import('./reconciliation')),
  refundBatch: once(() => import('./refund-batch')),
  refunds: once(() => import('./refunds')),
  team: once(() => import('./team')),
  timeline: once(() => import('./timeline')),
  transactions: once(() => import('./transactions')),
  transactionsBatch: once(() => import('./transactions-batch')),
};

/**
 * Each operation's schemas, loaded with their group's module on the first call that needs them. Building
 * every zod schema of the contract is a good part of the core's start (the browser host's core answers
 * nothing until its code has run); the first calls need only a few groups (app, profiles, refunds, team).
 * The same schema objects as `contract` (index.ts): a module runs once, whichever way it is imported.
 * Typed against `Contract`, so an entry naming another operation's schemas does not compile.
 */
const SPECS: { [C in InvokeChannel]: () => Promise<Contract[C]> } = {
  'app.info': () => group.app().then((m) => m.appInfo),
  'app.health': () => group.app().then((m) => m.appHealth),
  'app.bootstrap': () => group.bootstrap().then((m) => m.appBootstrap),
  'app.openExternal': () => group.app().then((m) => m.appOpenExternal),
  'app.reportError': () => group.app().then((m) => m.appReportError),
  'profiles.list': () => group.profiles().then((m) => m.profilesList),
  'profiles.save': () => group.profiles().then((m) => m.profilesSave),
  'profiles.delete': () => group.profiles().then((m) => m.profilesDelete),
  'profiles.activate': () => group.profiles().then((m) => m.profilesActivate),
  'profiles.setToken': () => group.profiles().then((m) => m.profilesSetToken),
  'profiles.clearToken': () => group.profiles().then((m) => m.profilesClearToken),
  'profiles.testConnection': () => group.profiles().then((m) => m.profilesTestConnection),
  'transactions.lookup': () => group.transactions().then((m) => m.transactionsLookup),
  'transactions.refresh': () => group.transactions().then((m) => m.transactionsRefresh),
  'transactions.sync': () => group.transactionsBatch().then((m) => m.transactionsSync),
  'reconciliation.create': () => group.reconciliation().then((m) => m.reconciliationCreate),
  'reconciliation.addInput': () => group.reconciliation().then((m) => m.reconciliationAddInput),
  'reconciliation.start': () => group.reconciliation().then((m) => m.reconciliationStart),
  'reconciliation.pause': () => group.reconciliation().then((m) => m.reconciliationPause),
  'reconciliation.resume': () => group.reconciliation().then((m) => m.reconciliationResume),
  'reconciliation.cancel': () => group.reconciliation().then((m) => m.reconciliationCancel),
  'reconciliation.get': () => group.reconciliation().then((m) => m.reconciliationGet),
  'reconciliation.list': () => group.reconciliation().then((m) => m.reconciliationList),
  'reconciliation.report': () => group.reconciliation().then((m) => m.reconciliationReport),
  'reconciliation.items': () => group.reconciliation().then((m) => m.reconciliationItems),
  'reconciliation.recheck': () => group.reconciliation().then((m) => m.reconciliationRecheck),
  'reconciliation.demoLedger': () => group.reconciliation().then((m) => m.reconciliationDemoLedger),
  'reconciliation.exceptions': () => group.reconciliation().then((m) => m.reconciliationExceptions),
  'reconciliation.updateException': () =>
    import('./reconciliation').then((m) => m.reconciliationUpdateException),
  'reconciliation.matchException': () =>
    import('./reconciliation').then((m) => m.reconciliationMatchException),
  'reconciliation.signOff': () => group.reconciliation().then((m) => m.reconciliationSignOff),
  'reconciliation.awaitingSignOff': () =>
    import('./reconciliation').then((m) => m.reconciliationAwaitingSignOff),
  'reconciliation.audit': () => group.reconciliation().then((m) => m.reconciliationAudit),
  'refunds.preview': () => group.refunds().then((m) => m.refundsPreview),
  'refunds.submit': () => group.refunds().then((m) => m.refundsSubmit),
  'refunds.list': () => group.refunds().then((m) => m.refundsList),
  'refunds.checkAgain': () => group.refunds().then((m) => m.refundsCheckAgain),
  'refunds.closeNotSent': () => group.refunds().then((m) => m.refundsCloseNotSent),
  'refunds.batchDryRun': () => group.refundBatch().then((m) => m.refundsBatchDryRun),
  'refunds.batchStart': () => group.refundBatch().then((m) => m.refundsBatchStart),
  'refunds.batchPause': () => group.refundBatch().then((m) => m.refundsBatchPause),
  'refunds.batchCancel': () => group.refundBatch().then((m) => m.refundsBatchCancel),
  'refunds.batchApprove': () => group.refundBatch().then((m) => m.refundsBatchApprove),
  'refunds.batchReject': () => group.refundBatch().then((m) => m.refundsBatchReject),
  'refunds.batchList': () => group.refundBatch().then((m) => m.refundsBatchList),
  'refunds.batchStatus': () => group.refundBatch().then((m) => m.refundsBatchStatus),
  'refunds.batchReport': () => group.refundBatch().then((m) => m.refundsBatchReport),
  'audit.list': () => group.refunds().then((m) => m.auditList),
  'approvals.list': () => group.approvals().then((m) => m.approvalsList),
  'approvals.approveAndSend': () => group.approvals().then((m) => m.approvalsApproveAndSend),
  'approvals.reject': () => group.approvals().then((m) => m.approvalsReject),
  'approvals.cancel': () => group.approvals().then((m) => m.approvalsCancel),
  'approvals.whoAmI': () => group.approvals().then((m) => m.approvalsWhoAmI),
  'approvals.approvers': () => group.approvals().then((m) => m.approvalsApprovers),
  'customers.list': () => group.payments().then((m) => m.customersList),
  'customers.register': () => group.payments().then((m) => m.customersRegister),
  'payments.list': () => group.payments().then((m) => m.paymentsList),
  'payments.createCheckout': () => group.payments().then((m) => m.paymentsCreateCheckout),
  'payments.captureCard': () => group.payments().then((m) => m.paymentsCaptureCard),
  'payments.chargeMethod': () => group.payments().then((m) => m.paymentsChargeMethod),
  'payments.checkAgain': () => group.payments().then((m) => m.paymentsCheckAgain),
  'payments.openPage': () => group.payments().then((m) => m.paymentsOpenPage),
  'payments.audit': () => group.payments().then((m) => m.paymentsAudit),
  'payments.timeline': () => group.timeline().then((m) => m.paymentsTimeline),
  'payments.addNote': () => group.timeline().then((m) => m.paymentsAddNote),
  'team.status': () => group.team().then((m) => m.teamStatus),
  'team.settings': () => group.team().then((m) => m.teamSettings),
  'team.save': () => group.team().then((m) => m.teamSave),
  'team.forget': () => group.team().then((m) => m.teamForget),
  'team.setPassword': () => group.team().then((m) => m.teamSetPassword),
  'team.testConnection': () => group.team().then((m) => m.teamTestConnection),
};

const loading = new Map<InvokeChannel, Promise<unknown>>();
const loaded = new Map<InvokeChannel, unknown>();

/** The input and output schemas of `channel`, loading its group's module the first time. */
export function specOf<C extends InvokeChannel>(channel: C): Promise<Contract[C]> {
  let spec = loading.get(channel);
  if (!spec) {
    spec = (SPECS[channel] as () => Promise<Contract[C]>)().then((s) => {
      loaded.set(channel, s);
      return s;
    });
    loading.set(channel, spec);
  }
  return spec as Promise<Contract[C]>;
}

/**
 * The schemas of `channel` if they are loaded already, else undefined: a call of a loaded operation is
 * checked and handed to its handler at once, in the same turn, as when every schema was built at start.
 */
export function loadedSpec<C extends InvokeChannel>(channel: C): Contract[C] | undefined {
  return loaded.get(channel) as Contract[C] | undefined;
}
