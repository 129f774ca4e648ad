import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { RefundRecord } from '../../../../shared/domain/transaction';
import type { Intent } from './intent';
import type { RefundServiceDeps } from './service';

/**
 * Settles what the first answer left open, only ever by querying — never by sending again:
 * - an unknown outcome (or a `sent` intent found on restart) is looked for in the payment's refundInfo
 *   by refundReference = intent id;
 * - an accepted refund is followed until its status is final.
 */
export function createResolver(
  deps: Pick<RefundServiceDeps, 'gatewayFor' | 'journal' | 'audit' | 'clock' | 'log' | 'onChange'>,
) {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const change = (i: Intent | undefined, fallback: Intent): Intent => {
    if (i) deps.onChange?.(i);
    return i ?? fallback;
  };
  const auditOf = (i: Intent, outcome: 'accepted' | 'succeeded' | 'failed', detail?: string) =>
    deps.audit.record({
      at: iso(),
      outcome,
      operator: i.operator,
      profileId: i.profileId,
      profileName: i.profileName,
      environment: i.environment,
      intentId: i.id,
      transactionNo: i.transactionNo,
      amountMinor: i.amountMinor,
      currency: i.currency,
      reasonCode: i.reasonCode,
      reasonNote: i.reasonNote,
      ...(i.refundTransactionNo ? { refundTransactionNo: i.refundTransactionNo } : {}),
      ...(detail ? { detail } : {}),
    });

  // One resolution at a time per intent: the poller, an IPN hint, Check again and the start-up resume may
  // all ask at once, and each must see what the previous one recorded.
  const chains = new Map<string, Promise<unknown>>();
  function serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const run = (chains.get(id) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    chains.set(id, tail);
    void tail.then(() => chains.get(id) === tail && chains.delete(id));
    return run;
  }

  function settleIfFinal(stale: Intent, status: string): Intent {
    const intent = deps.journal.get(stale.id) ?? stale;
    if (intent.state !== 'accepted' || (status !== 'success' && status !== 'failed')) return intent;
    const done = change(
      deps.journal.record({
        type: 'final',
        at: iso(),
        id: intent.id,
        status: status === 'success' ? 'succeeded' : 'failed',
        refundStatus: status,
      }),
      intent,
    );
    auditOf(done, done.state === 'succeeded' ? 'succeeded' : 'failed');
    return done;
  }

  async function refundsOf(intent: Intent): Promise<RefundRecord[]> {
    const { transaction } = await deps
      .gatewayFor(intent)
      .queryTransaction({ transactionNo: intent.transactionNo });
    return transaction.refunds;
  }

  /** Looks for the intent at the service; records what was found either way (the evidence). */
  const resolve = (id: string): Promise<Intent> => serial(id, () => resolveNow(id));

  async function resolveNow(id: string): Promise<Intent> {
    deps.journal.refresh();
    let intent = deps.journal.get(id);
    if (!intent)
      throw new AppError('not_found', 'This desk has no refund with that id. Refresh the Refunds list.');
    if (intent.state === 'sent') {
      // Found on restart: the request left but no answer was recorded. Same as an unknown outcome.
      intent = change(
        deps.journal.record({
          type: 'outcome_unknown',
          at: iso(),
          id,
          detail: 'Refund Desk stopped before the service answered.',
        }),
        intent,
      );
    }
    if (intent.state === 'accepted') return trackNow(intent);
    if (intent.state !== 'outcome_unknown') return intent;
    let refunds: RefundRecord[];
    try {
      refunds = await refundsOf(intent);
    } catch (e) {
      const note = `Could not ask the payment service: ${isAppError(e) ? e.message : 'unexpected error'}`;
      return change(deps.journal.record({ type: 'checked', at: iso(), id, found: false, note }), intent);
    }
    // What another resolution recorded meanwhile wins (e.g. the refund was found already).
    if (deps.journal.get(id)?.state !== 'outcome_unknown') return deps.journal.get(id)!;
    const mine = refunds.find((r) => r.refundReference === id);
    if (!mine) {
      const note = `The service lists ${refunds.length} refund(s) for this payment and none carries reference ${id}. It may still appear; check again before doing anything else.`;
      return change(deps.journal.record({ type: 'checked', at: iso(), id, found: false, note }), intent);
    }
    deps.journal.record({
      type: 'checked',
      at: iso(),
      id,
      found: true,
      note: `Found as refund ${mine.refundTransactionNo} (${mine.status}).`,
    });
    const accepted = change(
      deps.journal.record({
        type: 'accepted',
        at: iso(),
        id,
        refundTransactionNo: mine.refundTransactionNo,
        refundStatus: mine.status,
        via: 'query',
      }),
      intent,
    );
    auditOf(accepted, 'accepted', 'Resolved by query after an unknown outcome.');
    return settleIfFinal(accepted, mine.status);
  }

  const trackOne = (intent: Intent): Promise<Intent> =>
    serial(intent.id, () => trackNow(deps.journal.get(intent.id) ?? intent));

  async function trackNow(intent: Intent): Promise<Intent> {
    if (intent.state !== 'accepted') return intent;
    try {
      const mine = (await refundsOf(intent)).find(
        (r) => r.refundTransactionNo === intent.refundTransactionNo,
      );
      if (!mine) return intent;
      return settleIfFinal(intent, mine.status);
    } catch (e) {
      deps.log.info('refund.track_failed', {
        intentId: intent.id,
        code: isAppError(e) ? e.code : 'internal',
      });
      return intent;
    }
  }

  return {
    resolve,
    settleIfFinal,
    /** Every non-final intent, one step: `created` was never sent (refused), `sent`/unknown are queried. */
    async resumeAll(): Promise<Intent[]> {
      const out: Intent[] = [];
      for (const i of deps.journal.list()) {
        if (i.state === 'created' && deps.journal.problems().length > 0) {
          // With damaged lines in the journal, "no `sent` line" no longer proves nothing was sent: the
          // damaged line may have been it. Find out by query instead of declaring it unsent.
          change(
            deps.journal.record({
              type: 'outcome_unknown',
              at: iso(),
              id: i.id,
              detail: 'The refund journal has damaged lines, so whether this refund was sent is not known.',
            }),
            i,
          );
          out.push(await resolve(i.id));
        } else if (i.state === 'created') {
          out.push(
            change(
              deps.journal.record({
                type: 'refused',
                at: iso(),
                id: i.id,
                detail: 'Refund Desk stopped before sending this refund. Nothing was sent.',
              }),
              i,
            ),
          );
        } else if (i.state === 'sent' || i.state === 'outcome_unknown' || i.state === 'accepted') {
          out.push(await resolve(i.id));
        }
      }
      return out;
    },
    /** Follows accepted refunds (optionally of one payment) to a final status. */
    async trackAccepted(transactionNo?: string): Promise<Intent[]> {
      const open = deps.journal
        .list()
        .filter((i) => i.state === 'accepted' && (!transactionNo || i.transactionNo === transactionNo));
      const out: Intent[] = [];
      for (const i of open) out.push(await trackOne(i));
      return out;
    },
  };
}
