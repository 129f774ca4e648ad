import type { Logger } from '../ports';
import type { IntentStore } from './port';

/** How long a sender's lease lasts unless renewed; an expired one is resolved by query, by anyone. */
export const DEFAULT_LEASE_MS = 15_000;

export interface LeaseOptions {
  /** Lease length; renewed every third of it while the request is out. */
  ms: number;
  /** Who holds it: a label people recognise (`host:pid` of this process, given by the host). */
  holder: string;
}

/**
 * Runs `fn` (the one request that may move money) while renewing the intent's lease, so that any other
 * process — on this machine or another — sees it alive exactly while it is being sent, and sees it
 * expire within one lease length after this process dies or hangs.
 */
export async function whileLeased<T>(
  store: Pick<IntentStore, 'renewLease'>,
  lease: LeaseOptions,
  id: string,
  log: Logger,
  fn: () => Promise<T>,
): Promise<T> {
  const timer = setInterval(
    () =>
      void store
        .renewLease(id, lease.holder, lease.ms)
        .catch((e: unknown) =>
          log.warn('lease.renew_failed', { intentId: id, error: e instanceof Error ? e.message : '' }),
        ),
    Math.max(20, Math.floor(lease.ms / 3)),
  );
  timer.unref?.();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
