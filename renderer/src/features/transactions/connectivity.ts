import { createContext, useContext } from 'react';

/** Whether the payment service answers, as the transactions screen last saw it. */
export interface Connectivity {
  state: 'unknown' | 'online' | 'offline';
  /** Why we think the service is unreachable (its own words). */
  reason?: string;
  /** Report the outcome of any network action: failures of the network kind switch to offline. */
  report(outcome: { ok: true } | { ok: false; error: { code: string; message: string } }): void;
  /** Ask the service again now (the banner's "Try again"). */
  recheck(): void;
  isChecking: boolean;
}

/** Error codes meaning "could not ask" rather than "the service said no". */
export const OFFLINE_CODES: ReadonlySet<string> = new Set(['network', 'timeout', 'unavailable']);

export const ConnectivityContext = createContext<Connectivity | null>(null);

export function useConnectivity(): Connectivity {
  const c = useContext(ConnectivityContext);
  if (!c) throw new Error('ConnectivityContext is missing above this component.');
  return c;
}

/** The reason shown on every network action while offline. */
export const OFFLINE_REASON = 'Offline: this waits for the connection (see the banner above).';
