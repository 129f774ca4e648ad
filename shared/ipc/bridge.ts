import type { Result } from '../domain/errors';
import type { EventChannel, InvokeChannel } from './channels';
import type { Bridge, EventPayload, Input, Operation, Output, Subscription } from './contract';

/**
 * How a bridge reaches main: the preload over ipcRenderer, the browser host's page over loopback HTTP.
 * `invoke` sends one operation's input and resolves to main's envelope (main validates the input and
 * the output against the contract, so a transport only carries them); `subscribe` delivers one event's
 * payloads until the returned function is called.
 */
export interface BridgeTransport {
  invoke<C extends InvokeChannel>(channel: C, input: Input<C> | undefined): Promise<Result<Output<C>>>;
  subscribe<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/**
 * The one bridge builder: the preload (Electron) and the browser host's page script both expose what
 * this returns, so the renderer meets the same API in either host. One plain function per contract
 * operation, bound to its own channel and passing on only its input (extra arguments cannot choose a
 * channel or add data), and `on` with one subscribe function per event — no generic invoke, and a
 * listener gets the payload alone (never an IPC event or its sender).
 *
 * Every channel is spelled out rather than looped over so that `satisfies Bridge` checks it: a channel
 * added to ./channels.ts and missing here, a name that is not a channel, or a function of the wrong type
 * fails the typecheck. Types-only imports: the sandboxed preload bundle stays free of packages.
 */
export function buildBridge(transport: BridgeTransport): Bridge {
  const op =
    <C extends InvokeChannel>(channel: C): Operation<C> =>
    (input?: Input<C>) =>
      transport.invoke(channel, input);
  const on =
    <E extends EventChannel>(event: E): Subscription<E> =>
    (listener) =>
      transport.subscribe(event, (payload) => listener(payload));
  return {
    'app.info': op('app.info'),
    'app.health': op('app.health'),
    'app.bootstrap': op('app.bootstrap'),
    'app.openExternal': op('app.openExternal'),
    'app.reportError': op('app.reportError'),
    'profiles.list': op('profiles.list'),
    'profiles.save': op('profiles.save'),
    'profiles.delete': op('profiles.delete'),
    'profiles.activate': op('profiles.activate'),
    'profiles.setToken': op('profiles.setToken'),
    'profiles.clearToken': op('profiles.clearToken'),
    'profiles.testConnection': op('profiles.testConnection'),
    'transactions.lookup': op('transactions.lookup'),
    'transactions.refresh': op('transactions.refresh'),
    'transactions.sync': op('transactions.sync'),
    'reconciliation.create': op('reconciliation.create'),
    'reconciliation.addInput': op('reconciliation.addInput'),
    'reconciliation.start': op('reconciliation.start'),
    'reconciliation.pause': op('reconciliation.pause'),
    'reconciliation.resume': op('reconciliation.resume'),
    'reconciliation.cancel': op('reconciliation.cancel'),
    'reconciliation.get': op('reconciliation.get'),
    'reconciliation.list': op('reconciliation.list'),
    'reconciliation.report': op('reconciliation.report'),
    'reconciliation.items': op('reconciliation.items'),
    'reconciliation.recheck': op('reconciliation.recheck'),
    'reconciliation.exceptions': op('reconciliation.exceptions'),
    'reconciliation.updateException': op('reconciliation.updateException'),
    'reconciliation.matchException': op('reconciliation.matchException'),
    'reconciliation.signOff': op('reconciliation.signOff'),
    'reconciliation.awaitingSignOff': op('reconciliation.awaitingSignOff'),
    'reconciliation.audit': op('reconciliation.audit'),
    'reconciliation.demoLedger': op('reconciliation.demoLedger'),
    'refunds.preview': op('refunds.preview'),
    'refunds.submit': op('refunds.submit'),
    'refunds.list': op('refunds.list'),
    'refunds.checkAgain': op('refunds.checkAgain'),
    'refunds.closeNotSent': op('refunds.closeNotSent'),
    'refunds.batchDryRun': op('refunds.batchDryRun'),
    'refunds.batchStart': op('refunds.batchStart'),
    'refunds.batchPause': op('refunds.batchPause'),
    'refunds.batchCancel': op('refunds.batchCancel'),
    'refunds.batchApprove': op('refunds.batchApprove'),
    'refunds.batchReject': op('refunds.batchReject'),
    'refunds.batchList': op('refunds.batchList'),
    'refunds.batchStatus': op('refunds.batchStatus'),
    'refunds.batchReport': op('refunds.batchReport'),
    'audit.list': op('audit.list'),
    'approvals.list': op('approvals.list'),
    'approvals.approveAndSend': op('approvals.approveAndSend'),
    'approvals.reject': op('approvals.reject'),
    'approvals.cancel': op('approvals.cancel'),
    'approvals.whoAmI': op('approvals.whoAmI'),
    'approvals.approvers': op('approvals.approvers'),
    'customers.list': op('customers.list'),
    'customers.register': op('customers.register'),
    'payments.list': op('payments.list'),
    'payments.createCheckout': op('payments.createCheckout'),
    'payments.captureCard': op('payments.captureCard'),
    'payments.chargeMethod': op('payments.chargeMethod'),
    'payments.checkAgain': op('payments.checkAgain'),
    'payments.openPage': op('payments.openPage'),
    'payments.audit': op('payments.audit'),
    'payments.timeline': op('payments.timeline'),
    'payments.addNote': op('payments.addNote'),
    'team.status': op('team.status'),
    'team.settings': op('team.settings'),
    'team.save': op('team.save'),
    'team.forget': op('team.forget'),
    'team.setPassword': op('team.setPassword'),
    'team.testConnection': op('team.testConnection'),
    on: {
      'app.notice': on('app.notice'),
      'profiles.changed': on('profiles.changed'),
      'transactions.updated': on('transactions.updated'),
      'reconciliation.progress': on('reconciliation.progress'),
      'refunds.updated': on('refunds.updated'),
      'refunds.batchProgress': on('refunds.batchProgress'),
      'payments.updated': on('payments.updated'),
      'customers.updated': on('customers.updated'),
    },
  } satisfies Bridge;
}
