import type { Clock } from '../ports';

export interface Reachability {
  reachable: boolean;
  at: string;
  detail?: string;
}

/**
 * What the last call to each profile's service said about the connection — learnt from traffic the app
 * makes anyway, so the health indicator can show "service unreachable" without polling the service.
 */
export function createReachabilityTracker(clock: Clock) {
  const last = new Map<string, Reachability>();
  return {
    record(profileId: string, reachable: boolean, detail?: string): void {
      last.set(profileId, {
        reachable,
        at: new Date(clock.now()).toISOString(),
        ...(detail ? { detail } : {}),
      });
    },
    /** undefined until the app has talked to that profile's service at all. */
    get: (profileId: string): Reachability | undefined => last.get(profileId),
  };
}
export type ReachabilityTracker = ReturnType<typeof createReachabilityTracker>;
