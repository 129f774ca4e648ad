import { type AccountKey, sameAccount } from '../../../../shared/domain/account';
import type { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import { describeAccount, findAccountProfile, type IntentAccount } from '../engine/account';
import type { EventBus } from '../event-bus';
import type { Clock, Logger, ProcessIdentity } from '../ports';
import type { ProfilesRuntime } from '../profiles/runtime';
import type { Intent } from './intent';
import { createRefundPoller } from './poller';
import { createRefundService, type RefundContext, type RefundGateway } from './service';
import type { RefundStore } from './store';

export type { ProcessIdentity } from '../ports';

/**
 * A host that acts for one account only (the CLI): refunds are made and followed up through this profile,
 * and an intent that went to any other account is refused with `refuse` — never checked elsewhere.
 */
export interface SingleAccount {
  profileId: string;
  /** Why an intent of `target` cannot be checked by a host acting for `self` (an `unavailable` AppError). */
  refuse: (self: IntentAccount, target: IntentAccount) => AppError;
}

/**
 * Wires the refund service to the database, the active profile, the IPN confirmations (hints), the
 * poller and a watcher that notices what other processes (the CLI, another window) changed and keeps
 * asking about refunds closed as not sent; resumes every intent that is not final on start.
 */
export function createRefundsRuntime(deps: {
  store: RefundStore;
  /** Why refunds must be refused (the database cannot be trusted), or undefined. */
  untrusted: () => string | undefined;
  /** Why the database cannot be read at all (lists answer that, not an empty list), or undefined. */
  unreadable?: () => string | undefined;
  /** Team storage: this desk's id as the database stamps it (undefined: one desk's own journal). */
  desk?: () => string | undefined;
  clock: Clock;
  log: Logger;
  events: EventBus;
  profiles: ProfilesRuntime;
  /** How often other processes' changes are looked for. */
  watchMs?: number;
  /**
   * false: nothing runs in the background — no resuming, polling, orphan sweep or watching for other
   * processes' changes (a host that runs one command and exits).
   */
  background?: boolean;
  singleAccount?: SingleAccount;
  identity: ProcessIdentity;
  /** Sender lease length (tests shorten it). */
  leaseMs?: number;
}) {
  const context = (profileId: string): RefundContext => {
    const p = deps.profiles.profiles.get(profileId);
    const ipnUrl = deps.profiles.ipnUrlFor(p.id);
    return {
      profileId: p.id,
      profileName: p.name,
      environment: p.environment,
      baseUrl: deps.profiles.profiles.effectiveBaseUrl(p.id) ?? '',
      merchantNo: p.merchantNo,
      storeNo: p.storeNo,
      operator: p.operatorName ?? deps.identity.osUser,
      guardrails: p.guardrails ?? { limits: [] },
      ...(p.loopbackMoneyMode ? { loopbackMoneyMode: p.loopbackMoneyMode } : {}),
      ...(ipnUrl ? { ipnUrl } : {}),
    };
  };

  // An intent is followed up at its own account only: the profile it was sent with (or, for a CLI
  // intent, a profile for exactly that address, merchant and store), with that profile's token.
  const accountGateway = async (a: IntentAccount) => {
    const candidates = await deps.profiles.accountCandidates();
    return deps.profiles.gatewayFor(findAccountProfile(candidates, a).id);
  };
  const single = deps.singleAccount;
  // Acting for one account: an intent is followed up there only if it went to exactly that account (one
  // recorded before addresses were kept is taken to have gone where this host points).
  const singleGateway = (one: SingleAccount, a: IntentAccount) => {
    const self = context(one.profileId);
    const target = a.baseUrl === '' ? { ...a, baseUrl: self.baseUrl } : a;
    try {
      findAccountProfile(
        [
          {
            id: self.profileId,
            name: self.profileName,
            environment: self.environment,
            merchantNo: self.merchantNo,
            storeNo: self.storeNo,
            effectiveBaseUrl: self.baseUrl,
            hasToken: true,
          },
        ],
        target,
      );
    } catch {
      throw one.refuse(self, target);
    }
    return deps.profiles.gatewayFor(one.profileId);
  };
  const gatewayFor = (a: IntentAccount): RefundGateway => {
    const resolve = async () => (single ? singleGateway(single, a) : accountGateway(a));
    return {
      queryTransaction: async (key, o) => (await resolve()).queryTransaction(key, o),
      refund: async (input, o) => (await resolve()).refund(input, o),
    };
  };

  /** A profile's account now (Demo: the running sandbox), or undefined for a profile that is gone. */
  const accountNow = (profileId: string): AccountKey | undefined => {
    try {
      const p = deps.profiles.profiles.get(profileId);
      return {
        environment: p.environment,
        baseUrl: deps.profiles.profiles.effectiveBaseUrl(profileId) ?? '',
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
      };
    } catch {
      return undefined;
    }
  };

  const service = createRefundService({
    gatewayFor,
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    context,
    // Acting for one account, every intent is looked at; gatewayFor refuses another account's in words.
    belongsTo: single
      ? () => true
      : (intent, profileId) => {
          // A CLI intent records its own profile id: it is this profile's when it went to exactly its account.
          const account = accountNow(profileId);
          return account !== undefined && sameAccount(intent, account);
        },
    // The same rule as one query: the profile's own intents, or any sent to its account.
    ownerOf: (profileId) => {
      if (single) return undefined;
      const account = accountNow(profileId);
      return account ? { profileId, account } : { profileId };
    },
    newId: () => newSortableId('RD', deps.clock.now()),
    sender: deps.identity.sender,
    ...(deps.leaseMs ? { leaseMs: deps.leaseMs } : {}),
    untrusted: deps.untrusted,
    ...(deps.unreadable ? { unreadable: deps.unreadable } : {}),
    ...(deps.desk ? { desk: deps.desk } : {}),
    closePolicy: (a) => {
      try {
        return deps.profiles.profiles.get(a.profileId).guardrails?.unknownClose;
      } catch {
        return undefined; // its profile is gone: the defaults apply
      }
    },
    onChange: (intent) => {
      push([intent]);
      if (intent.state === 'accepted') poller.kick();
    },
  });
  const poller = createRefundPoller(service, deps.log);
  /**
   * Pushes intents to the renderer as a person sees them (views.ts reads their checks and closings). The
   * renderer keeps the newest by updatedAt, so views that resolve out of order cannot undo a change; if a
   * view cannot be read, the intent goes as it is rather than not at all.
   */
  function push(intents: readonly Intent[]): void {
    void service.views(intents).then(
      (views) => views.forEach((v) => deps.events.emit('refunds.updated', v)),
      (e: unknown) => {
        deps.log.warn('refund.view_failed', { error: e instanceof Error ? e.message : String(e) });
        intents.forEach((i) => deps.events.emit('refunds.updated', i));
      },
    );
  }

  // An IPN (confirmed by a fresh query) about a refund is a hint to follow that payment's refunds now.
  const unsubscribe = deps.events.subscribe((event, payload) => {
    if (event !== 'transactions.updated') return;
    const p = payload as { refundTransactionNo?: string; transaction: { transactionNo: string } };
    if (p.refundTransactionNo) void service.track(p.transaction.transactionNo).catch(() => undefined);
  });

  // What other processes wrote (the store's change feed) is pushed to the renderer, and accepted ones
  // are polled. A process that died while sending lets its lease expire: found out by query, now.
  const background = deps.background ?? true;
  const unwatch = background
    ? deps.store.watch((changed) => {
        push(changed);
        if (changed.some((i) => i.state === 'accepted')) poller.kick();
      })
    : undefined;
  let sweeping = false;
  let watchingClosed = false;
  const sweep = background
    ? setInterval(() => {
        if (deps.untrusted()) return;
        // A process that died while sending lets its lease expire: find out by query, now.
        if (!sweeping) {
          sweeping = true;
          void service
            .sweepOrphans()
            .catch(() => undefined)
            .finally(() => (sweeping = false));
        }
        // Refunds closed as not sent are still asked about (each on its own interval, see
        // resolver.watchClosed); one the service lists becomes the refund it was, pushed at once.
        if (!watchingClosed) {
          watchingClosed = true;
          void service
            .watchClosed()
            .catch((e: unknown) =>
              deps.log.warn('refund.watch_closed_failed', {
                error: e instanceof Error ? e.message : String(e),
              }),
            )
            .finally(() => (watchingClosed = false));
        }
      }, deps.watchMs ?? 1_000)
    : undefined;
  sweep?.unref?.();

  // Resume in the background: start-up must not wait on the network.
  if (background && !deps.untrusted())
    void service
      .resumeAll()
      .then((resumed) => {
        if (resumed.length > 0) deps.log.info('refund.resumed', { count: resumed.length });
        poller.kick();
      })
      .catch((e: unknown) =>
        deps.log.error('refund.resume_failed', { error: e instanceof Error ? e.message : String(e) }),
      );

  return {
    service,

    describeAccount,
    close(): void {
      clearInterval(sweep);
      unwatch?.();
      unsubscribe();
      poller.stop();
    },
  };
}
