/** How much checking an unknown refund needs before a person may close it as not sent. */
export interface ClosePolicy {
  minChecks: number;
  minMinutes: number;
}

/** Where an unknown refund stands against its close policy at `nowMs`. */
export interface CloseReadiness {
  /** Whole minutes since it was sent. */
  minutes: number;
  /** Checks that reached the service so far. */
  checks: number;
  /** More checks that must reach the service. */
  checksNeeded: number;
  /** The earliest moment it may be closed (created + the policy's minutes), UTC ISO. */
  possibleAt: string;
  ready: boolean;
}

/**
 * The one rule for "enough checks over enough time": the resolver refuses a close with it, and the
 * Refunds list shows "possible after 06:49 (1 more check)" from it, so the two cannot disagree.
 */
export function closeReadiness(
  createdAt: string,
  reachedChecks: number,
  policy: ClosePolicy,
  nowMs: number,
): CloseReadiness {
  const created = Date.parse(createdAt);
  const minutes = Math.floor((nowMs - created) / 60_000);
  const checksNeeded = Math.max(0, policy.minChecks - reachedChecks);
  return {
    minutes,
    checks: reachedChecks,
    checksNeeded,
    possibleAt: new Date(created + policy.minMinutes * 60_000).toISOString(),
    ready: checksNeeded === 0 && minutes >= policy.minMinutes,
  };
}
