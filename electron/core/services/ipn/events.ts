import type { Clock, Logger } from '../ports';

/** One authentic notification, reduced to what the app needs (no signature, no free text). */
export interface IpnEvent {
  profileId: string;
  kind: 'payment' | 'refund';
  transactionNo: string;
  refundTransactionNo?: string;
  reference?: string;
  status: string;
  /** A vaulting payment's stored method (capture IPNs carry it): kept in main, never sent to the renderer. */
  vaultId?: string;
  receivedAt: string;
}

export interface IpnListenerDeps {
  clock: Clock;
  log: Logger;
  /** The token that signs this profile's IPNs; undefined → the IPN is refused. */
  tokenFor: (profileId: string) => Promise<string | undefined>;
  /**
   * Durably records the event under its dedup key; `success` is answered only after this resolves.
   * 'duplicate' when the key was recorded before (also by an earlier run: the keys are persisted, so a
   * replayed months-old IPN is not treated as new after a restart).
   */
  record: (event: IpnEvent, key: string) => Promise<'recorded' | 'duplicate' | void>;
  /** Called after recording (the hint to confirm with tran-query). Must not throw. */
  onEvent: (event: IpnEvent) => void;
  /** Bad-signature (and foreign-origin) log lines allowed per minute (the rest are counted, not logged). */
  badSignatureLogsPerMinute?: number;
  /** Accepted/duplicate log lines allowed per minute, per kind (a resend storm must not flood the log). */
  eventLogsPerMinute?: number;
  /** Tests: how long a slow sender may take for its headers, and for its body (default 10 s each). */
  slowSenderMs?: number;
}

/**
 * Deduplication is by state because the service resends and has no notification id: one key per
 * profile, payment (or refund) and status.
 */
export function ipnDedupKey(
  e: Pick<IpnEvent, 'profileId' | 'kind' | 'transactionNo' | 'refundTransactionNo' | 'status'>,
) {
  return [e.profileId, e.kind, e.transactionNo, e.refundTransactionNo ?? '', e.status].join('|');
}

/** The IPN listener as services use it (the HTTP server itself is an adapter). */
export interface IpnListener {
  /** Listens on 127.0.0.1 (a free port unless one is given); resolves to the listener's base URL. */
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  isRunning(): boolean;
  /** The ipnUrl to send with a profile's payments and refunds, or undefined when not listening. */
  urlFor(profileId: string): string | undefined;
}

/** Builds a listener; the composition root passes the HTTP adapter's. */
export type IpnListenerFactory = (deps: IpnListenerDeps) => IpnListener;
