import { AppError, isAppError } from '../../../../shared/domain/errors';
import { cardLabel } from '../../../../shared/domain/card';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { GatewayClient, QueriedTransaction } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import { SENDING_STALE_MS } from '../refunds/resolver';
import {
  FINAL_PAYMENT_STATES,
  finalStateFor,
  type PaymentAccount,
  type PaymentIntent,
  type PaymentPatch,
  type PaymentState,
} from './intent';
import { createPaymentAuditor } from './audit';
import { type AnswerMismatch, paymentAnswerMismatch } from './answers';
import { createScrubberRegistry, knownIds } from './card-guard';
import type { PaymentStore } from './store';

export type PaymentGateway = Pick<
  GatewayClient,
  'createCustomer' | 'securePay' | 'capture' | 'queryTransaction'
>;

export interface FollowerDeps {
  /** The gateway of the payment's own account; throws an AppError when it cannot be reached from here. */
  gatewayFor: (account: PaymentAccount) => PaymentGateway;
  store: PaymentStore;
  clock: Clock;
  log: Logger;
  newId: (prefix: string) => string;
  /** True while the process named by `sender` may still be sending. */
  senderAlive: (sender: string) => boolean;
  onPayment?: (intent: PaymentIntent) => void;
  onCustomer?: (customerId: string) => void;
  /** What the service now says about a payment this desk created (for the renderer's cache). */
  onTransaction?: (intent: PaymentIntent, tx: Transaction, source: 'poll' | 'created') => void;
  /** Waits between checks of one payment; the last one repeats. */
  scheduleMs?: readonly number[];
}

/** How long a created-but-unanswered payment is looked for before it counts as never created. */
export const NOT_CREATED_AFTER_MS = SENDING_STALE_MS;

const DEFAULT_SCHEDULE = [3_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000];

/**
 * Follows payments this desk created to their final status, only ever by querying — never by sending
 * again: an unknown creation is looked up by its reference; an open payment by its transaction number
 * (IPN hints, confirmed by main's query, arrive through `applyConfirmed`). A successful Save-card payment
 * puts the stored method on its customer.
 */
export function createPaymentFollower(deps: FollowerDeps) {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const schedule = deps.scheduleMs ?? DEFAULT_SCHEDULE;
  /** vaultIds announced by verified IPNs, by transactionNo, until the payment's success is confirmed. */
  const vaultHints = new Map<string, string>();
  const due = new Map<string, { at: number; step: number }>();
  const running = new Set<string>();
  // What a look-up brings back is scrubbed like the create's answer (with its card while it is recent).
  const scrubbers = createScrubberRegistry(() => deps.clock.now());
  const scrubbed = (i: PaymentIntent, text: string) => scrubbers.for(i.id).text(text, knownIds(i));

  const record = createPaymentAuditor(deps);
  function audit(
    i: PaymentIntent,
    outcome: PaymentAuditEntry['outcome'],
    action: PaymentAuditEntry['action'],
    detail?: string,
  ) {
    record(i, {
      action,
      outcome,
      subjectId: i.id,
      reference: i.reference,
      amountMinor: i.amountMinor,
      currency: i.currency,
      vendor: i.vendor,
      ...(i.transactionNo ? { transactionNo: i.transactionNo } : {}),
      ...(i.customerNo ? { customerNo: i.customerNo } : {}),
      ...(i.retCode ? { retCode: i.retCode } : {}),
      ...(i.retMsg ? { retMsg: i.retMsg } : {}),
      ...(detail ? { detail: scrubbed(i, detail) } : {}),
    });
  }

  /** Guarded transition; tells listeners; undefined when another process changed it first. */
  function move(
    i: PaymentIntent,
    to: PaymentState,
    patch: PaymentPatch,
    type: string,
    from: readonly PaymentState[] = [i.state],
  ): PaymentIntent | undefined {
    const next = deps.store.transition(i.id, from, to, patch, { at: iso(), type });
    if (next) deps.onPayment?.(next);
    if (next && FINAL_PAYMENT_STATES.has(next.state)) scrubbers.forget(i.id);
    return next;
  }

  /** Stores the vaulted method of a successful Save-card payment on its customer (once). */
  function keepMethod(i: PaymentIntent, vaultId: string | undefined): PaymentIntent {
    if (!vaultId || !i.saveCard || !i.customerId || i.savedMethodId || i.state !== 'succeeded') return i;
    const method = deps.store.saveMethod(
      i.id,
      {
        id: deps.newId('PM'),
        customerId: i.customerId,
        vendor: i.vendor,
        vaultId,
        ...(i.cardLast4 ? { cardLast4: i.cardLast4 } : {}),
        paymentId: i.id,
        createdAt: iso(),
      },
      iso(),
    );
    vaultHints.delete(i.transactionNo ?? '');
    const next = deps.store.get(i.id) ?? i;
    audit(
      next,
      'saved',
      'method.saved',
      `${cardLabel(method.cardLast4)} stored on customer ${i.customerNo ?? ''}`.trim(),
    );
    deps.onPayment?.(next);
    deps.onCustomer?.(i.customerId);
    return next;
  }

  /**
   * Applies what a fresh query says about the payment: its transaction number and status, its final
   * state, and — for Save card — the stored method.
   */
  function apply(stale: PaymentIntent, q: QueriedTransaction, vaultId?: string): PaymentIntent {
    const i = deps.store.get(stale.id) ?? stale;
    if (i.state === 'rejected' || i.state === 'not_created') return i;
    const tx = q.transaction;
    const to = finalStateFor(tx.status) ?? 'open';
    const patch: PaymentPatch = {
      transactionNo: tx.transactionNo,
      paymentStatus: tx.status,
      ...(to === 'succeeded' ? { paidAt: tx.paidAt ?? i.paidAt ?? iso() } : {}),
    };
    let next = i;
    const same = i.state === to && i.paymentStatus === tx.status && i.transactionNo === tx.transactionNo;
    if (!same && !FINAL_PAYMENT_STATES.has(i.state)) {
      const found = i.state === 'outcome_unknown' || i.state === 'sending';
      const moved = move(
        i,
        to,
        { ...patch, ...(found ? { detail: null } : {}) },
        found ? 'found' : 'followed',
      );
      if (moved) {
        next = moved;
        if (found) audit(next, 'found', 'payment.check', 'Found at the service by its reference.');
        if (FINAL_PAYMENT_STATES.has(to)) audit(next, to as PaymentAuditEntry['outcome'], 'payment.final');
        deps.onTransaction?.(next, tx, 'poll');
      } else next = deps.store.get(i.id) ?? i;
    }
    return keepMethod(next, vaultId ?? q.vaultId ?? vaultHints.get(tx.transactionNo));
  }

  /** The id of another payment of this desk already recorded with `transactionNo`, if any. */
  function takenBy(i: PaymentIntent, transactionNo: string | undefined): string | undefined {
    if (!transactionNo) return undefined;
    try {
      const other = deps.store.byTransaction(i.merchantNo, transactionNo);
      return other && other.id !== i.id ? other.id : undefined;
    } catch {
      // Unreadable now: recording the number is refused by the store's own guard if it is taken.
      return undefined;
    }
  }

  /**
   * An answer that is not about this payment is not believed: the payment's outcome is unknown, with
   * the evidence, and it is looked up by its own reference — never by the number the answer named.
   */
  async function disbelieve(
    i: PaymentIntent,
    m: AnswerMismatch,
    from: readonly PaymentState[],
    action: PaymentAuditEntry['action'],
  ): Promise<PaymentIntent> {
    deps.log.warn('payment.answer_mismatch', { intentId: i.id, fields: m.fields.join(',') });
    const detail = scrubbed(
      i,
      `The service's answer does not match the payment that was sent (${m.text}). Whether it exists, and for how much, is not known: Refund Desk looks it up by its reference ${i.reference}.`,
    );
    let unknown: PaymentIntent | undefined;
    try {
      unknown = move(i, 'outcome_unknown', { detail }, 'answer_mismatch', from);
    } catch (e) {
      // The service did answer something: never let a storage failure read as "nothing was sent".
      deps.log.error('payment.record_failed', { intentId: i.id, error: e instanceof Error ? e.message : '' });
      throw new AppError(
        'outcome_unknown',
        `${detail} Refund Desk could not record that (${isAppError(e) ? e.message : 'storage failure'}). Do not create it again; look it up in Transactions.`,
        { details: { moneyMoved: 'unknown', intentId: i.id } },
      );
    }
    if (unknown) audit(unknown, 'outcome_unknown', action, detail);
    const now = unknown ?? deps.store.get(i.id) ?? i;
    return now.state === 'outcome_unknown' ? lookUp(now) : now;
  }

  async function lookUp(i: PaymentIntent): Promise<PaymentIntent> {
    const gw = deps.gatewayFor(i);
    const byNumber = i.state === 'open' && i.transactionNo;
    try {
      const q = await gw.queryTransaction(
        byNumber ? { transactionNo: i.transactionNo! } : { reference: i.reference },
      );
      const tx = q.transaction;
      // By number the answer must be that payment as sent; by reference whatever number it names is
      // the payment's own — unless this desk already recorded that number for another of its payments.
      const m = paymentAnswerMismatch(
        byNumber ? i : { ...i, transactionNo: undefined },
        tx,
        takenBy(i, tx.transactionNo),
      );
      if (m && byNumber) return disbelieve(i, m, ['open'], 'payment.check');
      if (m) {
        // Someone else's payment carries this reference (or the service is confused): not taken for ours.
        return note(
          i,
          false,
          `A payment with reference ${i.reference} exists at the service, but it is not this one as sent (${m.text}).`,
        );
      }
      return apply(i, q);
    } catch (e) {
      if (isAppError(e) && e.code === 'not_found' && !byNumber) {
        const age = deps.clock.now() - Date.parse(i.createdAt);
        if (age >= NOT_CREATED_AFTER_MS) {
          const moved = move(
            i,
            'not_created',
            {
              detail: `No payment with reference ${i.reference} exists at the service ${Math.round(age / 60_000)} minutes after it was sent: it was not created. Nothing was charged.`,
            },
            'not_found',
          );
          if (moved) {
            audit(moved, 'not_created', 'payment.check', moved.detail);
            return moved;
          }
        }
        return note(i, false, `No payment with reference ${i.reference} at the service yet.`);
      }
      const why = isAppError(e) ? e.message : 'The check failed in an unexpected way.';
      if (i.state === 'open') throw e;
      return note(i, false, `The check could not be made: ${why}`);
    }
  }

  function note(i: PaymentIntent, found: boolean, text: string): PaymentIntent {
    const next = deps.store.noteCheck(i.id, { at: iso(), found, note: scrubbed(i, text) }) ?? i;
    deps.onPayment?.(next);
    return next;
  }

  /** Asks the service about one payment now (Check again, the schedule, start-up). */
  async function check(id: string): Promise<PaymentIntent | undefined> {
    const i = deps.store.get(id);
    if (!i || FINAL_PAYMENT_STATES.has(i.state)) return i;
    // A create still being sent by a live process is left to it; an orphan is resolved by query.
    if (
      i.state === 'sending' &&
      i.sender &&
      deps.senderAlive(i.sender) &&
      deps.clock.now() - Date.parse(i.createdAt) < SENDING_STALE_MS
    )
      return i;
    if (i.state === 'sending') {
      const unknown = move(
        i,
        'outcome_unknown',
        { detail: 'The process sending this payment stopped before the service answered.' },
        'orphaned',
        ['sending'],
      );
      if (!unknown) return deps.store.get(id);
      audit(unknown, 'outcome_unknown', 'payment.check', unknown.detail);
      return lookUp(unknown);
    }
    return lookUp(i);
  }

  /** Runs `check` for payments whose turn has come, one at a time per payment. */
  async function tick(): Promise<void> {
    const now = deps.clock.now();
    for (const i of deps.store.unfinished()) if (!due.has(i.id)) due.set(i.id, { at: now, step: 0 });
    for (const [id, d] of due) {
      if (d.at > now || running.has(id)) continue;
      running.add(id);
      try {
        const after = await check(id);
        if (!after || FINAL_PAYMENT_STATES.has(after.state)) due.delete(id);
        else
          due.set(id, {
            at: deps.clock.now() + schedule[Math.min(d.step, schedule.length - 1)]!,
            step: d.step + 1,
          });
      } catch (e) {
        deps.log.warn('payment.follow_failed', { intentId: id, code: isAppError(e) ? e.code : 'internal' });
        due.set(id, {
          at: deps.clock.now() + schedule[Math.min(d.step, schedule.length - 1)]!,
          step: d.step + 1,
        });
      } finally {
        running.delete(id);
      }
    }
  }

  return {
    check,
    apply,
    disbelieve,
    takenBy,
    tick,
    audit,
    move,
    keepMethod,
    /** The scrubber of a card create, for the texts its look-ups bring back (hashes, for a while). */
    remember: scrubbers.remember,
    /** Follows one payment from the fastest step again (after a create, an IPN, Check again). */
    kick(id: string): void {
      due.set(id, { at: deps.clock.now() + schedule[0]!, step: 1 });
    },
    /**
     * A verified IPN (signature checked by the listener) may carry the vaultId of a Save-card payment.
     * Kept until the payment's success is confirmed by a query; applied at once if it already is.
     */
    hint(event: { profileId: string; transactionNo: string; vaultId?: string }): void {
      const i = deps.store
        .unfinished()
        .find((x) => x.profileId === event.profileId && x.transactionNo === event.transactionNo);
      if (event.vaultId) {
        vaultHints.set(event.transactionNo, event.vaultId);
        if (vaultHints.size > 1_000) vaultHints.delete(vaultHints.keys().next().value as string);
      }
      if (i) due.set(i.id, { at: deps.clock.now(), step: 0 });
    },
    /** A payment status confirmed by main's own query after an IPN: applied without asking again. */
    applyConfirmed(profileId: string, merchantNo: string, q: QueriedTransaction): PaymentIntent | undefined {
      const i = deps.store.byTransaction(merchantNo, q.transaction.transactionNo);
      if (!i || i.profileId !== profileId) return undefined;
      const m = paymentAnswerMismatch(i, q.transaction);
      if (m) {
        // Not this payment as sent: not applied; its own check (by number, then by reference) settles it.
        deps.log.warn('payment.answer_mismatch', { intentId: i.id, fields: m.fields.join(',') });
        due.set(i.id, { at: deps.clock.now(), step: 0 });
        return i;
      }
      const vaultId = vaultHints.get(q.transaction.transactionNo);
      return apply(i, q, vaultId);
    },
  };
}
export type PaymentFollower = ReturnType<typeof createPaymentFollower>;
