import { AppError, isAppError } from '../../../../shared/domain/errors';
import { closePolicyAtFloor, UNKNOWN_CLOSE_FLOOR } from '../../../../shared/domain/guardrails';
import { formatMinor } from '../../../../shared/domain/money';
import {
  CLOSED_WATCH_MS,
  closedWatchIntervalMs,
  closedWatchUntil,
} from '../../../../shared/domain/refund-intent';
import type { RefundRecord } from '../../../../shared/domain/transaction';
import type { AuditEntry } from './audit';
import type { Intent, IntentPatch, IntentState } from './intent';
import type { RefundServiceDeps } from './service';

/**
 * A `sending` intent older than this is not waited for any longer, even if a process with the sender's
 * pid still runs (pids are reused; a hung process must not block a payment for ever). Far above the
 * gateway's refund timeout. The sender's own answer still applies afterwards (see recordAnswer).
 */
export const SENDING_STALE_MS = 10 * 60_000;

/**
 * Settles what the first answer left open, only ever by querying — never by sending again — and records
 * every answer as a guarded transition, so concurrent resolvers (this process's poller, another window,
 * a CLI run) never both act and a sender's late answer is never lost:
 * - the sender's own answer (accepted / rejected) applies from `sending` or `outcome_unknown`: if a
 *   resolver already marked it unknown, the direct answer still wins;
 * - an unknown outcome is looked for in the payment's refundInfo by refundReference = intent id, at the
 *   intent's own account;
 * - an accepted refund is followed until its status is final;
 * - a refund a person closed as not sent is still watched by reference (CLOSED_WATCH_MS): if the service
 *   lists it after all, it becomes the refund it was, counted again, and the person is told.
 */
export function createResolver(
  deps: Pick<RefundServiceDeps, 'gatewayFor' | 'store' | 'clock' | 'log' | 'onChange' | 'senderAlive'>,
) {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const changed = (i: Intent | undefined): Intent | undefined => {
    if (i) deps.onChange?.(i);
    return i;
  };
  const auditOf = (i: Intent, outcome: AuditEntry['outcome'], detail?: string) => {
    try {
      deps.store.audit.record({
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
        ...(i.retCode ? { retCode: i.retCode } : {}),
        ...(i.retMsg ? { retMsg: i.retMsg } : {}),
        ...(detail ? { detail } : {}),
      });
    } catch (e) {
      deps.log.error('audit.record_failed', {
        intentId: i.id,
        outcome,
        error: e instanceof Error ? e.message : '',
      });
    }
  };
  /** Guarded transition + audit; undefined when someone else changed the intent first. */
  const move = (
    i: Intent,
    from: readonly IntentState[],
    to: IntentState,
    patch: IntentPatch,
    type: string,
    audit?: { outcome: AuditEntry['outcome']; detail?: string },
  ): Intent | undefined => {
    const next = changed(deps.store.transition(i.id, from, to, patch, { at: iso(), type }));
    if (next && audit) auditOf(next, audit.outcome, audit.detail);
    return next;
  };
  const current = (i: Intent) => deps.store.get(i.id) ?? i;
  const causeOf = (e: unknown) => (isAppError(e) && e.details?.cause ? ` (${String(e.details.cause)})` : '');
  /**
   * What this process knows about refunds whose answer it could not record (disk full, I/O error): the
   * intent is still `sending` in the database. The sweep records it as unknown in these words, not as
   * a sender that stopped, as soon as a write succeeds — before a restart forgets them.
   */
  const unrecorded = new Map<string, string>();

  // One resolution at a time per intent in this process; other processes are kept apart by the guards.
  const chains = new Map<string, Promise<unknown>>();
  function serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const run = (chains.get(id) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    chains.set(id, tail);
    void tail.then(() => chains.get(id) === tail && chains.delete(id));
    return run;
  }

  function settleIfFinal(stale: Intent, status: string): Intent {
    const intent = current(stale);
    if (intent.state !== 'accepted' || (status !== 'success' && status !== 'failed')) return intent;
    const to = status === 'success' ? 'succeeded' : 'failed';
    return (
      move(intent, ['accepted'], to, { refundStatus: status }, 'settled', { outcome: to }) ?? current(intent)
    );
  }

  /** The sender's own answer: the service accepted the refund. */
  function recordAnswer(intent: Intent, answer: { refundTransactionNo: string; status: string }): Intent {
    try {
      const accepted = move(
        intent,
        ['sending', 'outcome_unknown'],
        'accepted',
        { refundTransactionNo: answer.refundTransactionNo, refundStatus: answer.status, detail: null },
        'accepted',
        { outcome: 'accepted' },
      );
      return settleIfFinal(accepted ?? current(intent), answer.status);
    } catch (e) {
      // The service accepted the refund but recording it failed (disk full, I/O error): money moved, and
      // the person must hear exactly that — never "nothing was sent". The intent stays open in the
      // database and is resolved by query later.
      deps.log.error('refund.record_failed', {
        intentId: intent.id,
        error: e instanceof Error ? e.message : '',
      });
      unrecorded.set(
        intent.id,
        `The service accepted this refund as ${answer.refundTransactionNo}, but Refund Desk could not record its answer${causeOf(e)}.`,
      );
      throw new AppError(
        'outcome_unknown',
        `The service accepted refund ${answer.refundTransactionNo}, but Refund Desk could not record it${isAppError(e) && e.details?.cause ? ` (${String(e.details.cause)})` : ''}. Do not refund this payment again; fix that and restart.`,
        {
          details: {
            moneyMoved: 'yes',
            refundTransactionNo: answer.refundTransactionNo,
            intentId: intent.id,
          },
        },
      );
    }
  }

  /** The sender's own answer: the service refused it, or it provably never left. No money moved. */
  function recordRejected(
    intent: Intent,
    patch: { retCode?: string; retMsg?: string; detail: string },
  ): Intent {
    try {
      return (
        move(intent, ['sending', 'outcome_unknown'], 'rejected', patch, 'rejected', {
          outcome: 'rejected',
          detail: patch.detail,
        }) ?? current(intent)
      );
    } catch (e) {
      const said = [patch.retMsg ? `“${patch.retMsg}”` : '', patch.retCode ? `(${patch.retCode})` : '']
        .filter(Boolean)
        .join(' ');
      unrecorded.set(
        intent.id,
        `The service rejected this refund${said ? ` ${said}` : ''}, but Refund Desk could not record its answer${causeOf(e)}.`,
      );
      throw new AppError(
        'unavailable',
        `The service refused this refund (no money moved), but Refund Desk could not record that${isAppError(e) && e.details?.cause ? ` (${String(e.details.cause)})` : ''}. The refund stays blocked until it is checked again.`,
        { details: { moneyMoved: 'no', intentId: intent.id } },
      );
    }
  }

  /** The request may or may not have reached the service: record that, then look for it by query. */
  async function recordUnknown(intent: Intent, detail: string): Promise<Intent> {
    try {
      move(intent, ['sending'], 'outcome_unknown', { detail }, 'outcome_unknown', {
        outcome: 'outcome_unknown',
        detail,
      });
    } catch (e) {
      unrecorded.set(intent.id, `${detail} Refund Desk could not record that at the time${causeOf(e)}.`);
      throw new AppError(
        'outcome_unknown',
        `Whether this refund reached the service is not known, and Refund Desk could not record that${isAppError(e) && e.details?.cause ? ` (${String(e.details.cause)})` : ''}. Do not refund this payment again.`,
        { details: { moneyMoved: 'unknown', intentId: intent.id } },
      );
    }
    return resolve(intent.id);
  }

  async function refundsOf(intent: Intent): Promise<RefundRecord[]> {
    const { transaction } = await deps
      .gatewayFor(intent)
      .queryTransaction({ transactionNo: intent.transactionNo });
    return transaction.refunds;
  }

  const resolve = (id: string): Promise<Intent> => serial(id, () => resolveNow(id));

  async function resolveNow(id: string): Promise<Intent> {
    let intent = deps.store.get(id);
    if (!intent)
      throw new AppError('not_found', 'This desk has no refund with that id. Refresh the Refunds list.');
    if (intent.state === 'sending') {
      const known = unrecorded.get(id);
      const age = deps.clock.now() - Date.parse(intent.updatedAt);
      if (!known && intent.sender && deps.senderAlive(intent.sender) && age < SENDING_STALE_MS) return intent;
      // Its sender stopped (or gave up long ago) before recording an answer: the request may have left,
      // and an answer may have come. What this process knows of an answer it could not record is said.
      intent =
        move(
          intent,
          ['sending'],
          'outcome_unknown',
          {
            detail: known
              ? `${known} It is settled by looking the refund up by its reference.`
              : 'The process sending this refund stopped before it recorded an answer from the service: whether the refund was applied is not known, so it is looked up by its reference.',
          },
          known ? 'answer_unrecorded' : 'sender_gone',
          {
            outcome: 'outcome_unknown',
            detail: known
              ? 'the service answered; the answer could not be recorded'
              : 'sender stopped before recording an answer',
          },
        ) ?? current(intent);
      unrecorded.delete(id);
    }
    if (intent.state === 'accepted') return trackNow(intent);
    // Check again (or `check-refund`) on a refund closed as not sent: asked about now, at any age.
    if (intent.state === 'refused' && intent.closedNotSentAt !== undefined) return watchNow(intent);
    if (intent.state !== 'outcome_unknown') return intent;
    let refunds: RefundRecord[];
    try {
      refunds = await refundsOf(intent);
    } catch (e) {
      const why = isAppError(e) ? e.message : 'unexpected error';
      const cannot = isAppError(e) && e.details?.cannotCheck === true;
      const note = cannot ? `Cannot be checked: ${why}` : `Could not ask the payment service: ${why}`;
      return (
        changed(deps.store.noteCheck(id, { at: iso(), found: false, reached: false, note })) ??
        current(intent)
      );
    }
    const mine = refunds.find((r) => r.refundReference === id);
    if (mine && (mine.refundAmountMinor !== intent.amountMinor || mine.currency !== intent.currency)) {
      // Found, but not as sent: never taken as this refund succeeding. A person must look.
      const note = `The service lists refund ${mine.refundTransactionNo} with reference ${id}, but for ${mine.refundAmountMinor} minor units of ${mine.currency} (sent: ${intent.amountMinor} of ${intent.currency}). Check this payment with the payment service.`;
      return (
        changed(deps.store.noteCheck(id, { at: iso(), found: true, reached: true, note })) ?? current(intent)
      );
    }
    if (!mine) {
      const note = `The service lists ${refunds.length} refund(s) for this payment and none carries reference ${id}. It may still appear; check again before doing anything else.`;
      return (
        changed(deps.store.noteCheck(id, { at: iso(), found: false, reached: true, note })) ?? current(intent)
      );
    }
    deps.store.noteCheck(id, {
      at: iso(),
      found: true,
      reached: true,
      note: `Found as refund ${mine.refundTransactionNo} (${mine.status}).`,
    });
    const accepted = move(
      current(intent),
      ['outcome_unknown'],
      'accepted',
      { refundTransactionNo: mine.refundTransactionNo, refundStatus: mine.status, detail: null },
      'found_by_query',
      { outcome: 'accepted', detail: 'Resolved by query after an unknown outcome.' },
    );
    return settleIfFinal(accepted ?? current(intent), mine.status);
  }

  const trackOne = (intent: Intent): Promise<Intent> => serial(intent.id, () => trackNow(current(intent)));

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
      // "Cannot be checked" is shown on the refund; a passing network failure is not worth a note.
      if (isAppError(e) && e.details?.cannotCheck === true)
        return (
          changed(
            deps.store.noteCheck(intent.id, {
              reached: false,
              at: iso(),
              found: false,
              note: `Cannot be checked: ${e.message}`,
            }),
          ) ?? intent
        );
      return intent;
    }
  }

  /**
   * The service lists a refund a person closed as not sent: it was sent after all. As sent (same amount
   * and currency), it becomes that refund — accepted, then followed to final — so its amount counts
   * against what remains again and in the day's total. Listed otherwise, it is unknown again, which
   * blocks the payment until a person looks (and it can never be closed again). Either way an audit entry
   * and an event (`refunds.updated`, with `closedNotSentAt` set) tell the person at once.
   */
  function recordFoundAfterClose(intent: Intent, mine: RefundRecord, how: string): Intent {
    const closedAt = intent.closedNotSentAt ?? intent.updatedAt;
    const sent = `${formatMinor(intent.amountMinor, intent.currency)} ${intent.currency}`;
    deps.log.warn('refund.found_after_close', {
      intentId: intent.id,
      refundTransactionNo: mine.refundTransactionNo,
      status: mine.status,
    });
    deps.store.noteCheck(intent.id, {
      at: iso(),
      found: true,
      reached: true,
      note: `Found ${how} as refund ${mine.refundTransactionNo} (${mine.status}), after it was closed as not sent at ${closedAt}.`,
    });
    if (mine.refundAmountMinor !== intent.amountMinor || mine.currency !== intent.currency) {
      const detail = `Closed as not sent at ${closedAt}, but the service lists refund ${mine.refundTransactionNo} with reference ${intent.id} for ${formatMinor(mine.refundAmountMinor, mine.currency)} ${mine.currency} (sent: ${sent}). Whether, and how much, was refunded is not known: do not refund this payment again; check it with the payment service.`;
      return (
        move(
          current(intent),
          ['refused'],
          'outcome_unknown',
          { detail, refundTransactionNo: mine.refundTransactionNo, refundStatus: mine.status },
          'found_after_close',
          { outcome: 'found_after_close', detail },
        ) ?? current(intent)
      );
    }
    const detail = `Closed as not sent at ${closedAt}, but the service has it: refund ${mine.refundTransactionNo} of ${sent} was sent and is ${mine.status === 'success' ? 'completed' : mine.status}. It counts against what remains refundable; a refund made for this payment after closing it was made in addition to this one.`;
    const accepted = move(
      current(intent),
      ['refused'],
      'accepted',
      { refundTransactionNo: mine.refundTransactionNo, refundStatus: mine.status, detail },
      'found_after_close',
      { outcome: 'found_after_close', detail },
    );
    return settleIfFinal(accepted ?? current(intent), mine.status);
  }

  /** One look at a refund closed as not sent: is it listed at the service now? */
  async function watchNow(intent: Intent): Promise<Intent> {
    let refunds: RefundRecord[];
    try {
      refunds = await refundsOf(intent);
    } catch (e) {
      const why = isAppError(e) ? e.message : 'unexpected error';
      return (
        changed(
          deps.store.noteCheck(intent.id, {
            at: iso(),
            found: false,
            reached: false,
            note: `Closed as not sent; still watched, but the service could not be asked: ${why}`,
          }),
        ) ?? current(intent)
      );
    }
    const mine = refunds.find((r) => r.refundReference === intent.id);
    if (mine) return recordFoundAfterClose(current(intent), mine, 'while watched');
    const until = closedWatchUntil(intent);
    return (
      changed(
        deps.store.noteCheck(intent.id, {
          at: iso(),
          found: false,
          reached: true,
          note: `Closed as not sent; still not listed: the service lists ${refunds.length} refund(s) for this payment and none carries reference ${intent.id}.${until ? ` Watched until ${until}.` : ''}`,
        }),
      ) ?? current(intent)
    );
  }

  /**
   * The refunds a person closed as not sent within CLOSED_WATCH_MS, each asked about when its interval
   * since the last look (any process's: the last check is in the database) has passed.
   */
  async function watchClosed(): Promise<Intent[]> {
    const now = deps.clock.now();
    const out: Intent[] = [];
    for (const i of deps.store.closedSince(new Date(now - CLOSED_WATCH_MS).toISOString())) {
      const closedAt = Date.parse(i.closedNotSentAt ?? '');
      const last = Date.parse(i.lastCheck?.at ?? '');
      if (Number.isNaN(closedAt)) continue;
      if (!Number.isNaN(last) && now - last < closedWatchIntervalMs(now - closedAt)) continue;
      try {
        out.push(
          await serial(i.id, async () => {
            const cur = current(i);
            return cur.state === 'refused' && cur.closedNotSentAt !== undefined ? watchNow(cur) : cur;
          }),
        );
      } catch (e) {
        deps.log.warn('refund.watch_closed_failed', {
          intentId: i.id,
          error: e instanceof Error ? e.message : '',
        });
      }
    }
    return out;
  }

  /**
   * A fresh query of a payment (before deciding a new refund, or for the dialog) that lists a refund
   * closed as not sent: recorded now, without waiting for the watch. Returns the intents so found.
   */
  function noticeFoundAfterClose(
    intents: readonly Intent[],
    refunds: readonly RefundRecord[],
  ): Promise<Intent[]> {
    const found = intents.flatMap((i) => {
      const mine = refunds.find((r) => r.refundReference === i.id);
      return i.state === 'refused' && i.closedNotSentAt !== undefined && mine ? [{ i, mine }] : [];
    });
    return Promise.all(
      found.map(({ i, mine }) =>
        serial(i.id, async () => {
          const cur = current(i);
          return cur.state === 'refused' ? recordFoundAfterClose(cur, mine, 'in a fresh query') : cur;
        }),
      ),
    );
  }

  /**
   * The way out of "unknown" for a refund the service never lists (a 503 before anything happened, a
   * process killed before the request arrived): after enough checks over enough time — the profile's
   * policy, never less than the floor — a person closes it as not sent. One more query is made
   * immediately before closing; if the reference appears, it is not closed (it is recorded as found). A
   * refund the service ever listed is never closeable this way. A closed refund is still watched.
   */
  const closeNotSent = (
    id: string,
    by: { operator: string; policy: { minChecks: number; minMinutes: number } },
  ): Promise<Intent> =>
    serial(id, async () => {
      const intent = deps.store.get(id);
      if (!intent)
        throw new AppError('not_found', 'This desk has no refund with that id. Refresh the Refunds list.');
      if (intent.state !== 'outcome_unknown')
        throw new AppError(
          'conflict',
          `Only a refund whose outcome is unknown can be closed as not sent; this one is ${intent.state}.`,
          { details: { intentId: id, state: intent.state } },
        );
      const checks = deps.store.checksOf(id);
      if (checks.some((c) => c.found))
        throw new AppError(
          'conflict',
          'The service has listed this refund, so it was sent: it cannot be closed as not sent. Check again to follow it.',
          { details: { intentId: id } },
        );
      const reached = checks.filter((c) => c.reached);
      const minutes = Math.floor((deps.clock.now() - Date.parse(intent.createdAt)) / 60_000);
      // Whatever the profile says (a settings file is not trusted), never less than the floor: a refund
      // closed while the service may still be applying it can be paid twice.
      const { minChecks, minMinutes } = closePolicyAtFloor(by.policy);
      if (reached.length < minChecks || minutes < minMinutes)
        throw new AppError(
          'conflict',
          `Check again at least ${minChecks} time(s) over ${minMinutes} minute(s) before closing it as not sent: ${reached.length} check(s) reached the service so far, ${minutes} minute(s) since it was sent. The payment service may still apply a refund up to ${UNKNOWN_CLOSE_FLOOR.minMinutes / 60} hours after it was sent; closing it sooner could pay it twice.`,
          { details: { intentId: id, checks: reached.length, minutes, minChecks, minMinutes } },
        );
      let refunds: RefundRecord[];
      try {
        refunds = await refundsOf(intent);
      } catch (e) {
        throw new AppError(
          'unavailable',
          `Could not ask the payment service one last time (${isAppError(e) ? e.message : 'unexpected error'}), so the refund was not closed. Try again when the service answers.`,
          { details: { intentId: id } },
        );
      }
      const mine = refunds.find((r) => r.refundReference === id);
      if (mine) {
        deps.store.noteCheck(id, {
          at: iso(),
          found: true,
          reached: true,
          note: `Found as refund ${mine.refundTransactionNo} (${mine.status}) when asked before closing.`,
        });
        const found = await resolveNow(id);
        throw new AppError(
          'conflict',
          `The service lists this refund now (as ${mine.refundTransactionNo}): it was sent, so it was not closed.`,
          { details: { intentId: id, state: found.state } },
        );
      }
      const at = iso();
      const evidence = `${reached.length + 1} checks over ${minutes} minute(s), the last at ${at}: the service listed ${refunds.length} refund(s) for this payment and none with reference ${id}.`;
      deps.store.noteCheck(id, {
        at,
        found: false,
        reached: true,
        note: `Asked before closing: ${evidence}`,
      });
      const until = new Date(Date.parse(at) + CLOSED_WATCH_MS).toISOString();
      const closed = move(
        current(intent),
        ['outcome_unknown'],
        'refused',
        {
          detail: `Closed as not sent by ${by.operator} at ${at} after ${evidence} Refund Desk keeps asking the service for it until ${until}; if it appears there, it becomes the refund it was and you are told.`,
          closedNotSentAt: at,
        },
        'closed_not_sent',
      );
      if (!closed)
        throw new AppError('conflict', 'This refund changed meanwhile; it was not closed. Look at it again.');
      auditOf(closed, 'closed_not_sent', `Closed by ${by.operator}. ${evidence}`);
      return closed;
    });

  return {
    resolve,
    closeNotSent,
    watchClosed,
    noticeFoundAfterClose,
    recordAnswer,
    recordRejected,
    recordUnknown,
    /** Every intent not final, one step, by query: the same rules as Check again. */
    async resumeAll(): Promise<Intent[]> {
      const out: Intent[] = [];
      for (const i of deps.store.unfinished()) {
        try {
          out.push(await resolve(i.id));
        } catch (e) {
          deps.log.warn('refund.resume_failed', {
            intentId: i.id,
            error: e instanceof Error ? e.message : '',
          });
        }
      }
      return out;
    },
    /**
     * `sending` intents whose sender stopped (killed, crashed, another window closed) are resolved by
     * query now rather than at the next start. Called by the runtime's watcher.
     */
    async sweepOrphans(): Promise<Intent[]> {
      const out: Intent[] = [];
      for (const i of deps.store.unfinished()) {
        if (i.state !== 'sending') continue;
        const young = deps.clock.now() - Date.parse(i.updatedAt) < SENDING_STALE_MS;
        if (!unrecorded.has(i.id) && i.sender && deps.senderAlive(i.sender) && young) continue;
        try {
          out.push(await resolve(i.id));
        } catch (e) {
          deps.log.warn('refund.orphan_failed', {
            intentId: i.id,
            error: e instanceof Error ? e.message : '',
          });
        }
      }
      return out;
    },
    /** Follows accepted refunds (optionally of one payment) to a final status. */
    async trackAccepted(transactionNo?: string): Promise<Intent[]> {
      const open = deps.store
        .unfinished()
        .filter((i) => i.state === 'accepted' && (!transactionNo || i.transactionNo === transactionNo));
      const out: Intent[] = [];
      for (const i of open) out.push(await trackOne(i));
      return out;
    },
  };
}
