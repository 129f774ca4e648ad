import { closePolicyAtFloor } from '../../../../shared/domain/guardrails';
import { DEFAULT_UNKNOWN_CLOSE } from '../../../../shared/domain/profile';
import type { IntentView } from '../../../../shared/domain/refund-intent';
import type { Clock } from '../ports';
import { type ClosePolicy, closeReadiness } from './close-rule';
import type { Intent, IntentAccount } from './intent';
import type { RefundStore } from './store';

/**
 * What main adds to an intent before a person sees it: when an unknown refund may be closed as not
 * sent (its profile's policy, the checks in the journal) and, for a closed one, who closed it and when
 * (the audit). Read-only: closing itself is re-checked by the resolver with the same rule.
 */
export function createIntentViews(deps: {
  store: Pick<RefundStore, 'checksOf' | 'audit'>;
  clock: Clock;
  closePolicy?: ((account: IntentAccount) => ClosePolicy | undefined) | undefined;
  /** Team storage: this desk's id as the database stamps it on what it writes (undefined: one desk). */
  desk?: (() => string | undefined) | undefined;
}) {
  /**
   * The close policy of an intent's own profile (the defaults when it has none, or is gone), raised to
   * the floor as the resolver raises it: the screen says what main will enforce.
   */
  const policyFor = (intent: Intent): ClosePolicy =>
    closePolicyAtFloor(deps.closePolicy?.(intent) ?? DEFAULT_UNKNOWN_CLOSE);

  const closeOf = async (intent: Intent): Promise<IntentView['close']> => {
    if (intent.state !== 'outcome_unknown') return undefined;
    const checks = await deps.store.checksOf(intent.id);
    // Listed once by the service: it was sent, and is never closeable this way.
    if (checks.some((c) => c.found)) return undefined;
    const policy = policyFor(intent);
    const r = closeReadiness(
      intent.createdAt,
      checks.filter((c) => c.reached).length,
      policy,
      deps.clock.now(),
    );
    return {
      possibleAt: r.possibleAt,
      checksNeeded: r.checksNeeded,
      minChecks: policy.minChecks,
      minMinutes: policy.minMinutes,
    };
  };

  /** Closed as not sent (and maybe listed by the service after all): by whom, when, after how many checks. */
  const isClosed = (i: Intent) => i.closedNotSentAt !== undefined || i.state === 'refused';
  const closedOf = async (
    intent: Intent,
    closings: ReadonlyMap<string, { operator: string; at: string }>,
  ): Promise<IntentView['closedNotSent']> => {
    const entry = isClosed(intent) ? closings.get(intent.id) : undefined;
    if (!entry) return undefined;
    const at = intent.closedNotSentAt ?? entry.at;
    return {
      by: entry.operator,
      at,
      // The checks that reached the service up to the close (the watch goes on asking afterwards).
      checks: (await deps.store.checksOf(intent.id)).filter((c) => c.reached && c.at <= at).length,
    };
  };

  /** Every "closed as not sent" audit entry by intent id (read only when a closed intent is shown). */
  const closings = async (intents: readonly Intent[]) => {
    const out = new Map<string, { operator: string; at: string }>();
    if (!intents.some(isClosed)) return out;
    for (const e of await deps.store.audit.list())
      if (e.outcome === 'closed_not_sent') out.set(e.intentId, e);
    return out;
  };

  /**
   * Team storage: made at this desk only when the database stamped this desk's id on it (the operator
   * name is the desk's own text — "cli" for the command line — and says nothing about where).
   */
  const madeHere = (intent: Intent): boolean | undefined => {
    const desk = deps.desk?.();
    if (desk === undefined) return undefined;
    return intent.author !== undefined && intent.author.desk === desk;
  };

  const decorate = async (
    intent: Intent,
    closed: ReadonlyMap<string, { operator: string; at: string }>,
  ): Promise<IntentView> => {
    const close = await closeOf(intent);
    const closedNotSent = await closedOf(intent, closed);
    const here = madeHere(intent);
    return {
      ...intent,
      ...(close ? { close } : {}),
      ...(closedNotSent ? { closedNotSent } : {}),
      ...(here !== undefined ? { madeHere: here } : {}),
    };
  };

  return {
    policyFor,
    view: async (intent: Intent): Promise<IntentView> => decorate(intent, await closings([intent])),
    views: async (intents: readonly Intent[]): Promise<IntentView[]> => {
      const closed = await closings(intents);
      return Promise.all(intents.map((i) => decorate(i, closed)));
    },
  };
}
export type IntentViews = ReturnType<typeof createIntentViews>;
