import type { Clock } from '../ports';

export interface Reachability {
  reachable: boolean;
  at: string;
  detail?: string;
  /** When the service last answered at all (undefined: not since the app started). */
  lastSuccessAt?: string;
  /** When the current run of failures began (only while unreachable). */
  failingSince?: string;
}

/**
 * What the last call to each profile's service said about the connection — learnt from traffic the app
 * makes anyway, so the health indicator can show "service unreachable" without polling the service.
 */
export function createReachabilityTracker(clock: Clock) {
  const last = new Map<string, Reachability>();
  return {
    /** Called on every attempt: the first failure turns it unreachable, the next answer turns it back. */
    record(profileId: string, reachable: boolean, detail?: string): void {
      const at = new Date(clock.now()).toISOString();
      const prev = last.get(profileId);
      const lastSuccessAt = reachable ? at : prev?.lastSuccessAt;
      const failingSince = reachable
        ? undefined
        : prev && !prev.reachable
          ? (prev.failingSince ?? prev.at)
          : at;
      last.set(profileId, {
        reachable,
        at,
        ...(detail ? { detail } : {}),
        ...(lastSuccessAt ? { lastSuccessAt } : {}),
        ...(failingSince ? { failingSince } : {}),
      });
    },
    /** undefined until the app has talked to that profile's service at all. */
    get: (profileId: string): Reachability | undefined => last.get(profileId),
  };
}
export type ReachabilityTracker = ReturnType<typeof createReachabilityTracker>;
