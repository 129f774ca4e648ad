import type { z } from 'zod';
import type { Result } from '../../domain/errors';
import type { EventChannel, InvokeChannel } from '../channels';
import { appEvents, appHealth, appInfo, appOpenExternal, appReportError } from './app';
import { appBootstrap } from './bootstrap';
import {
  profileEvents,
  profilesActivate,
  profilesClearToken,
  profilesDelete,
  profilesList,
  profilesSave,
  profilesSetToken,
  profilesTestConnection,
} from './profiles';
import { transactionEvents, transactionsLookup, transactionsRefresh } from './transactions';
import { transactionsSync } from './transactions-batch';
import {
  reconciliationAddInput,
  reconciliationCancel,
  reconciliationCreate,
  reconciliationDemoLedger,
  reconciliationEvents,
  reconciliationExceptions,
  reconciliationMatchException,
  reconciliationSignOff,
  reconciliationUpdateException,
  reconciliationAwaitingSignOff,
  reconciliationAudit,
  reconciliationGet,
  reconciliationItems,
  reconciliationList,
  reconciliationPause,
  reconciliationRecheck,
  reconciliationReport,
  reconciliationResume,
  reconciliationStart,
} from './reconciliation';
import {
  auditList,
  refundEvents,
  refundsCheckAgain,
  refundsCloseNotSent,
  refundsList,
  refundsPreview,
  refundsSubmit,
} from './refunds';
import {
  refundBatchEvents,
  refundsBatchApprove,
  refundsBatchCancel,
  refundsBatchList,
  refundsBatchReject,
  refundsBatchDryRun,
  refundsBatchPause,
  refundsBatchReport,
  refundsBatchStart,
  refundsBatchStatus,
} from './refund-batch';
import {
  approvalsApproveAndSend,
  approvalsCancel,
  approvalsList,
  approvalsReject,
  approvalsWhoAmI,
  approvalsApprovers,
} from './approvals';
import {
  customersList,
  customersRegister,
  paymentEvents,
  paymentsAudit,
  paymentsCaptureCard,
  paymentsChargeMethod,
  paymentsCheckAgain,
  paymentsCreateCheckout,
  paymentsList,
  paymentsOpenPage,
} from './payments';
import { paymentsAddNote, paymentsTimeline } from './timeline';
import { teamForget, teamSave, teamSetPassword, teamSettings, teamStatus, teamTestConnection } from './team';

/**
 * The IPC contract: one entry per operation (`domain.verb`) with zod input and output schemas, plus
 * declared main → renderer events. Main parses every input with it; the preload and the browser
 * bridge are typed against it.
 */
export const contract = {
  'app.info': appInfo,
  'app.health': appHealth,
  'app.bootstrap': appBootstrap,
  'app.openExternal': appOpenExternal,
  'app.reportError': appReportError,
  'profiles.list': profilesList,
  'profiles.save': profilesSave,
  'profiles.delete': profilesDelete,
  'profiles.activate': profilesActivate,
  'profiles.setToken': profilesSetToken,
  'profiles.clearToken': profilesClearToken,
  'profiles.testConnection': profilesTestConnection,
  'transactions.lookup': transactionsLookup,
  'transactions.refresh': transactionsRefresh,
  'transactions.sync': transactionsSync,
  'reconciliation.create': reconciliationCreate,
  'reconciliation.addInput': reconciliationAddInput,
  'reconciliation.start': reconciliationStart,
  'reconciliation.pause': reconciliationPause,
  'reconciliation.resume': reconciliationResume,
  'reconciliation.cancel': reconciliationCancel,
  'reconciliation.get': reconciliationGet,
  'reconciliation.list': reconciliationList,
  'reconciliation.report': reconciliationReport,
  'reconciliation.items': reconciliationItems,
  'reconciliation.recheck': reconciliationRecheck,
  'reconciliation.demoLedger': reconciliationDemoLedger,
  'reconciliation.exceptions': reconciliationExceptions,
  'reconciliation.updateException': reconciliationUpdateException,
  'reconciliation.matchException': reconciliationMatchException,
  'reconciliation.signOff': reconciliationSignOff,
  'reconciliation.awaitingSignOff': reconciliationAwaitingSignOff,
  'reconciliation.audit': reconciliationAudit,
  'refunds.preview': refundsPreview,
  'refunds.submit': refundsSubmit,
  'refunds.list': refundsList,
  'refunds.checkAgain': refundsCheckAgain,
  'refunds.closeNotSent': refundsCloseNotSent,
  'refunds.batchDryRun': refundsBatchDryRun,
  'refunds.batchStart': refundsBatchStart,
  'refunds.batchPause': refundsBatchPause,
  'refunds.batchCancel': refundsBatchCancel,
  'refunds.batchApprove': refundsBatchApprove,
  'refunds.batchReject': refundsBatchReject,
  'refunds.batchList': refundsBatchList,
  'refunds.batchStatus': refundsBatchStatus,
  'refunds.batchReport': refundsBatchReport,
  'audit.list': auditList,
  'approvals.list': approvalsList,
  'approvals.approveAndSend': approvalsApproveAndSend,
  'approvals.reject': approvalsReject,
  'approvals.cancel': approvalsCancel,
  'approvals.whoAmI': approvalsWhoAmI,
  'approvals.approvers': approvalsApprovers,
  'customers.list': customersList,
  'customers.register': customersRegister,
  'payments.list': paymentsList,
  'payments.createCheckout': paymentsCreateCheckout,
  'payments.captureCard': paymentsCaptureCard,
  'payments.chargeMethod': paymentsChargeMethod,
  'payments.checkAgain': paymentsCheckAgain,
  'payments.openPage': paymentsOpenPage,
  'payments.audit': paymentsAudit,
  'payments.timeline': paymentsTimeline,
  'payments.addNote': paymentsAddNote,
  'team.status': teamStatus,
  'team.settings': teamSettings,
  'team.save': teamSave,
  'team.forget': teamForget,
  'team.setPassword': teamSetPassword,
  'team.testConnection': teamTestConnection,
} satisfies Record<InvokeChannel, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  ...appEvents,
  ...profileEvents,
  ...transactionEvents,
  ...reconciliationEvents,
  ...refundEvents,
  ...refundBatchEvents,
  ...paymentEvents,
} satisfies Record<EventChannel, z.ZodType>;

export type Contract = typeof contract;
export type Input<C extends InvokeChannel> = z.input<Contract[C]['input']>;
export type Output<C extends InvokeChannel> = z.output<Contract[C]['output']>;
export type EventPayload<E extends EventChannel> = z.output<(typeof events)[E]>;

/** One operation of the bridge: the input is optional where the contract allows `undefined`. */
export type Operation<C extends InvokeChannel> =
  undefined extends Input<C>
    ? (input?: Input<C>) => Promise<Result<Output<C>>>
    : (input: Input<C>) => Promise<Result<Output<C>>>;
/** Subscribing to one event; the returned function unsubscribes. */
export type Subscription<E extends EventChannel> = (
  listener: (payload: EventPayload<E>) => void,
) => () => void;

/**
 * The API the preload (Electron) and the browser host's page script expose to the renderer; both
 * build it with `buildBridge` (shared/ipc/bridge.ts).
 */
export type Bridge = { [C in InvokeChannel]: Operation<C> } & {
  on: { [E in EventChannel]: Subscription<E> };
};
