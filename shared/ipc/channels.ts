/**
 * Channel names: plain constants only, because the sandboxed preload imports this file and a
 * sandboxed preload cannot load packages (it must be one bundled CommonJS file). The contract (zod
 * schemas) lives in ./contract and is checked against these lists by a unit test.
 */
export const INVOKE_CHANNELS = [
  'app.info',
  'app.health',
  'app.bootstrap',
  'app.openExternal',
  'app.reportError',
  'profiles.list',
  'profiles.save',
  'profiles.delete',
  'profiles.activate',
  'profiles.setToken',
  'profiles.clearToken',
  'profiles.testConnection',
  'transactions.lookup',
  'transactions.refresh',
  'transactions.sync',
  'reconciliation.create',
  'reconciliation.addInput',
  'reconciliation.start',
  'reconciliation.pause',
  'reconciliation.resume',
  'reconciliation.cancel',
  'reconciliation.get',
  'reconciliation.list',
  'reconciliation.report',
  'reconciliation.items',
  'reconciliation.recheck',
  'reconciliation.exceptions',
  'reconciliation.updateException',
  'reconciliation.matchException',
  'reconciliation.signOff',
  'reconciliation.demoLedger',
  'refunds.preview',
  'refunds.submit',
  'refunds.list',
  'refunds.checkAgain',
  'refunds.closeNotSent',
  'refunds.batchDryRun',
  'audit.list',
  'customers.list',
  'customers.register',
  'payments.list',
  'payments.createCheckout',
  'payments.captureCard',
  'payments.chargeMethod',
  'payments.checkAgain',
  'payments.openPage',
  'payments.audit',
  'payments.timeline',
  'payments.addNote',
  'team.status',
  'team.settings',
  'team.save',
  'team.forget',
  'team.setPassword',
  'team.testConnection',
] as const;
export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];

/** Main → renderer pushes. Subscribing returns an unsubscribe function. */
export const EVENT_CHANNELS = [
  'app.notice',
  'profiles.changed',
  'transactions.updated',
  'reconciliation.progress',
  'refunds.updated',
  'payments.updated',
  'customers.updated',
] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** The global name the bridge is exposed under (preload and browser host alike). */
export const BRIDGE_GLOBAL = 'refundDesk';
