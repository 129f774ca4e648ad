import { refuseOtherProfile } from '../scope';
import { UNSAFE_LINK_NOTICES } from '../../../../shared/domain/card-scrub';
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import { moneyModeOf } from '../../../../shared/domain/profile';
import type { EventBus } from '../event-bus';
import type { IpnEvent } from '../ipn/events';
import type { Clock, Logger, OpenExternal, ProcessIdentity } from '../ports';
import type { ProfilesRuntime } from '../profiles/runtime';
import { findAccountProfile } from '../engine/account';
import { isAllowedPaymentPage } from './checks';
import { createCustomerRegistry } from './customers';
import type { PaymentGateway } from './follow';
import type { PaymentAccount } from './intent';
import { createPaymentService, type PaymentContext } from './service';
import type { PaymentStore } from './store';
import { createViews } from './views';

/**
 * Wires back-office payments to the database, the active profile, the event bus (payments.updated,
 * customers.updated, and transactions.updated so new payments reach the renderer's cache), IPN hints
 * and a follower that checks every unfinished payment on a backoff schedule, from start-up on.
 */
export function createPaymentsRuntime(deps: {
  store: PaymentStore;
  untrusted: () => string | undefined;
  clock: Clock;
  log: Logger;
  events: EventBus;
  profiles: ProfilesRuntime;
  openExternal: OpenExternal;
  identity: ProcessIdentity;
  /** Sender lease length (tests shorten it). */
  leaseMs?: number;
  /** How often due payments are checked. */
  /** false: payments are not followed in the background (a host that runs one command and exits). */
  background?: boolean;
  tickMs?: number;
  /** Waits between checks of one payment. */
  scheduleMs?: readonly number[];
}) {
  // Whitelabel SDK data (it holds the vendor's client token) lives in memory only, for this session.
  const sdkData = new Map<string, string>();
  const keepSdkData = (id: string, data: string) => {
    sdkData.set(id, data);
    if (sdkData.size > 200) sdkData.delete(sdkData.keys().next().value as string);
  };
  const views = createViews(deps.store, (id) => sdkData.get(id));
  /**
   * A Demo whitelabel payment has no hosted page (the merchant's own page runs the vendor SDK): the
   * embedded sandbox names a stand-in payer page in its SDK data (`approveUrl`), so a clerk can pay or
   * fail it. Only for Demo, only from this session's SDK data; openPage still checks the address.
   */
  const demoPayerPage = (i: { id: string; kind: string; environment: string }): string | undefined => {
    const data = i.kind === 'whitelabel' && i.environment === 'demo' ? sdkData.get(i.id) : undefined;
    if (!data) return undefined;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
      const url = (parsed as { approveUrl?: unknown }).approveUrl;
      return typeof url === 'string' ? url : undefined;
    } catch {
      return undefined;
    }
  };
  const context = (profileId: string): PaymentContext => {
    const p = deps.profiles.profiles.get(profileId);
    const ipnUrl = deps.profiles.ipnUrlFor(p.id);
    const demo = p.environment === 'demo' ? deps.profiles.demoBaseUrl() : undefined;
    const baseUrl = deps.profiles.profiles.effectiveBaseUrl(p.id) ?? '';
    return {
      profileId: p.id,
      profileName: p.name,
      environment: p.environment,
      baseUrl,
      moneyMode: moneyModeOf(p.environment, baseUrl || undefined, p.loopbackMoneyMode),
      merchantNo: p.merchantNo,
      storeNo: p.storeNo,
      operator: p.operatorName ?? deps.identity.osUser,
      guardrails: p.guardrails ?? { limits: [] },
      ...(ipnUrl ? { ipnUrl } : {}),
      // The sandbox's own return page: the payer lands on words, not on the API's JSON.
      ...(demo
        ? { defaultCallbackUrl: `${demo}/returned?status={status}&reference={reference}&amount={amount}` }
        : {}),
    };
  };

  // Follow-ups go to the payment's own account only (its profile, or one for exactly that service,
  // merchant and store), with that profile's token — as for refunds.
  const accountGateway = async (a: PaymentAccount) => {
    const candidates = await deps.profiles.accountCandidates();
    return deps.profiles.gatewayFor(findAccountProfile(candidates, a).id);
  };
  const gatewayFor = (a: PaymentAccount): PaymentGateway => ({
    createCustomer: async (input, o) => (await accountGateway(a)).createCustomer(input, o),
    securePay: async (input, o) => (await accountGateway(a)).securePay(input, o),
    capture: async (input, o) => (await accountGateway(a)).capture(input, o),
    queryTransaction: async (key, o) => (await accountGateway(a)).queryTransaction(key, o),
  });
  const newId = (prefix: string) => newSortableId(prefix, deps.clock.now());
  const emitCustomer = (id: string) => {
    const c = deps.store.customers.get(id);
    if (c) deps.events.emit('customers.updated', views.customer(c));
  };

  const service = createPaymentService({
    gatewayFor,
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    newId,
    sender: deps.identity.sender,
    ...(deps.leaseMs ? { leaseMs: deps.leaseMs } : {}),
    context,
    keepSdkData,
    untrusted: deps.untrusted,
    ...(deps.scheduleMs ? { scheduleMs: deps.scheduleMs } : {}),
    onPayment: (i) => deps.events.emit('payments.updated', views.payment(i)),
    onCustomer: emitCustomer,
    onTransaction: (i, transaction, source) =>
      deps.events.emit('transactions.updated', {
        profileId: i.profileId,
        source,
        confirmed: true,
        transaction,
        fetchedAt: new Date(deps.clock.now()).toISOString(),
      }),
  });
  const registry = createCustomerRegistry({
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    newId,
    gatewayFor: (ctx) => deps.profiles.gatewayFor(ctx.profileId),
    onCustomer: emitCustomer,
  });

  // A payment IPN, confirmed by main's own query (ipn/confirm.ts), settles a payment without asking again.
  const unsubscribe = deps.events.subscribe((event, payload) => {
    if (event !== 'transactions.updated') return;
    const p = payload as {
      profileId: string;
      source: string;
      confirmed: boolean;
      transaction: { transactionNo: string };
    };
    if (p.source !== 'ipn' || !p.confirmed) return;
    try {
      const merchantNo = deps.profiles.profiles.get(p.profileId).merchantNo;
      void service.follower
        .applyConfirmed(p.profileId, merchantNo, payload as never)
        .catch((e: unknown) =>
          deps.log.warn('payment.ipn_apply_failed', { error: e instanceof Error ? e.message : String(e) }),
        );
    } catch (e) {
      deps.log.warn('payment.ipn_apply_failed', { error: e instanceof Error ? e.message : String(e) });
    }
  });

  // What other processes wrote (another window, a browser host or CLI on this data directory, another
  // desk on a shared database) arrives through the store's change feed and is pushed to the renderer;
  // this process's own changes are pushed where they are made.
  const unwatch =
    (deps.background ?? true)
      ? deps.store.watch((changed) => {
          for (const i of changed) deps.events.emit('payments.updated', views.payment(i));
        })
      : undefined;

  let ticking = false;
  const timer =
    (deps.background ?? true)
      ? setInterval(() => {
          if (ticking || deps.untrusted()) return;
          ticking = true;
          void service.follower
            .tick()
            .catch((e: unknown) =>
              deps.log.warn('payment.tick_failed', { error: e instanceof Error ? e.message : '' }),
            )
            .finally(() => (ticking = false));
        }, deps.tickMs ?? 1_000)
      : undefined;
  timer?.unref?.();

  return {
    service,
    views,
    /** A verified IPN about a payment: follow it now (and keep a vaultId it carries for Save card). */
    hint: (e: IpnEvent) => {
      if (e.kind === 'payment') void service.follower.hint(e).catch(() => undefined);
    },
    /** One profile's customers, or every profile's. */
    customers(profileId?: string) {
      return deps.store.customers.list(profileId).map(views.customer);
    },
    async register(profileId: string, fields: Parameters<typeof registry.register>[1]) {
      const ctx = service.contextFor(profileId);
      return views.customer(await registry.register(ctx, fields));
    },
    /** One profile's payments, or every profile's. */
    async payments(profileId?: string) {
      return (await service.list(profileId)).map(views.payment);
    },
    /** Hands a payment's checkout or 3-D Secure page to the system browser, if its address is allowed. */
    async openPage(profileId: string, id: string, page: 'checkout' | '3ds') {
      const i = await deps.store.get(id);
      if (!i) throw new AppError('not_found', 'This desk has no payment with that id. Reload the list.');
      refuseOtherProfile('payment', i, profileId);
      const url = page === 'checkout' ? (i.cashierUrl ?? i.authUrl ?? demoPayerPage(i)) : i.authUrl;
      // A link that carried card data was never kept: say so, and what to do instead.
      if (!url && i.detail && UNSAFE_LINK_NOTICES.has(i.detail)) {
        deps.log.warn('payment.page_refused', { intentId: id });
        throw new AppError('forbidden', i.detail);
      }
      if (!url) throw new AppError('not_found', 'The service gave no page for this payment.');
      let base: string | undefined = i.baseUrl;
      try {
        base = deps.profiles.profiles.effectiveBaseUrl(i.profileId) ?? i.baseUrl;
      } catch {
        // the profile is gone: only the address recorded with the payment counts
      }
      if (!isAllowedPaymentPage(url, base)) {
        deps.log.warn('payment.page_refused', { intentId: id });
        throw new AppError(
          'forbidden',
          'Refund Desk opens only pages of the payment service itself. Copy the link if you trust it.',
        );
      }
      await deps.openExternal(url);
      deps.log.info('payment.page_opened', { intentId: id, page });
      return { opened: true, url };
    },
    close(): void {
      clearInterval(timer);
      unwatch?.();
      unsubscribe();
    },
  };
}
export type PaymentsRuntime = ReturnType<typeof createPaymentsRuntime>;
