import { hostname, userInfo } from 'node:os';
import type { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import type { EventBus } from '../event-bus';
import type { Clock, Logger } from '../ports';
import type { ProfilesRuntime } from '../profiles/runtime';
import { describeAccount, findAccountProfile } from './accounts';
import type { IntentAccount } from './intent';
import { createRefundPoller } from './poller';
import { createRefundService, type RefundContext, type RefundGateway } from './service';
import type { RefundStore } from './store';

/** The OS account name, used as the operator when a profile names none. */
export function osUser(): string {
  try {
    return userInfo().username || 'unknown operator';
  } catch {
    return 'unknown operator';
  }
}

/** `host:pid` of this process, recorded on every intent it sends. */
export const THIS_SENDER = `${hostname()}:${process.pid}`;

/**
 * Whether the process that is sending an intent may still be running. Another host's process cannot be
 * seen from here: it counts as alive until the intent is stale (resolver.SENDING_STALE_MS).
 */
export function senderAlive(sender: string): boolean {
  const at = sender.lastIndexOf(':');
  const host = sender.slice(0, at);
  const pid = Number(sender.slice(at + 1));
  if (host !== hostname()) return true;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
      operator: p.operatorName ?? osUser(),
      guardrails: p.guardrails ?? { limits: [] },
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
          try {
            const p = deps.profiles.profiles.get(profileId);
            const baseUrl = deps.profiles.profiles.effectiveBaseUrl(profileId) ?? '';
            return (
              intent.merchantNo === p.merchantNo &&
              intent.storeNo === p.storeNo &&
              (p.environment === 'demo'
                ? intent.environment === 'demo'
                : intent.baseUrl !== '' && intent.baseUrl === baseUrl)
            );
          } catch {
            return false;
          }
        },
    newId: () => newSortableId('RD', deps.clock.now()),
    sender: THIS_SENDER,
    senderAlive,
    untrusted: deps.untrusted,
    ...(deps.unreadable ? { unreadable: deps.unreadable } : {}),
    closePolicy: (a) => {
      try {
        return deps.profiles.profiles.get(a.profileId).guardrails?.unknownClose;
      } catch {
        return undefined; // its profile is gone: the defaults apply
      }
    },
    onChange: (intent) => {
      deps.events.emit('refunds.updated', intent);
      if (intent.state === 'accepted') poller.kick();
    },
  });
  const poller = createRefundPoller(service, deps.log);

  // An IPN (confirmed by a fresh query) about a refund is a hint to follow that payment's refunds now.
  const unsubscribe = deps.events.subscribe((event, payload) => {
    if (event !== 'transactions.updated') return;
    const p = payload as { refundTransactionNo?: string; transaction: { transactionNo: string } };
    if (p.refundTransactionNo) void service.track(p.transaction.transactionNo).catch(() => undefined);
  });

  // What other processes wrote: pushed to the renderer as it happens, and accepted ones are polled.
  const background = deps.background ?? true;
  let seq = safe(() => deps.store.currentSeq(), 0);
  let version = safe(() => deps.store.dataVersion(), 0);
  let sweeping = false;
  let watchingClosed = false;
  const watch = background
    ? setInterval(() => {
        // A process that died while sending leaves its intent `sending`: find out by query, now.
        if (!sweeping && !deps.untrusted()) {
          sweeping = true;
          void service
            .sweepOrphans()
            .catch(() => undefined)
            .finally(() => (sweeping = false));
        }
        // Refunds closed as not sent are still asked about (each on its own interval, see
        // resolver.watchClosed); one the service lists becomes the refund it was, pushed at once.
        if (!watchingClosed && !deps.untrusted()) {
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
        try {
          const v = deps.store.dataVersion();
          if (v === version) return;
          version = v;
          const changes = deps.store.changesSince(seq);
          seq = changes.seq;
          for (const i of changes.intents) deps.events.emit('refunds.updated', i);
          if (changes.intents.some((i) => i.state === 'accepted')) poller.kick();
        } catch (e) {
          deps.log.warn('refund.watch_failed', { error: e instanceof Error ? e.message : String(e) });
        }
      }, deps.watchMs ?? 1_000)
    : undefined;
  watch?.unref?.();

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
      clearInterval(watch);
      unsubscribe();
      poller.stop();
    },
  };
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
