import type { AccountKey } from '../../../../shared/domain/account';
import type { Currency } from '../../../../shared/domain/currencies';
import {
  type DecideApprovals,
  type IntentCheck,
  type IntentRecord,
  type IntentStore,
  type Owner,
  type ScopeKey,
  type StoreApprovals,
  UnreadableRecords,
} from '../engine/port';
import type { AuditEntry } from './audit';
import {
  COUNTED_STATES,
  FINAL_STATES,
  fromAuditRecord,
  fromRecord,
  type Intent,
  type IntentDraft,
  type IntentPatch,
  type IntentState,
  toAuditRecord,
  toRecord,
} from './intent';

export type { IntentCheck };

/** The refund's own fields a transition may change, split into the engine's columns and `data`. */
function recordPatch(p: IntentPatch) {
  const { refundTransactionNo, refundStatus, closedNotSentAt, ...cols } = p;
  const data: Record<string, unknown> = {};
  if ('refundTransactionNo' in p) data['refundTransactionNo'] = refundTransactionNo ?? null;
  if ('refundStatus' in p) data['refundStatus'] = refundStatus ?? null;
  if ('closedNotSentAt' in p) data['closedNotSentAt'] = closedNotSentAt ?? null;
  return { ...cols, ...(Object.keys(data).length ? { data } : {}) };
}

const UNFINISHED = ['sending', 'outcome_unknown', 'accepted'];
/** States in which a refund is final and moved no money: the only ones a decision may do without. */
const NO_MONEY: ReadonlySet<string> = new Set([
  'rejected',
  'refused',
  'failed',
  'declined',
  'cancelled',
  'expired',
]);

/**
 * A payment's refunds, for deciding (or previewing) a refund of it. One that cannot be read is never
 * left out: unless it ended without moving money, its amount may be refunded and it may still be open,
 * so what remains cannot be worked out without it — UnreadableIntentError says so.
 */
async function paymentRefunds(read: () => Promise<IntentRecord[]>): Promise<Intent[]> {
  try {
    return (await read()).map(fromRecord);
  } catch (e) {
    if (!(e instanceof UnreadableRecords)) throw e;
    const blocking = e.unreadable.find((u) => !NO_MONEY.has(u.state));
    if (blocking)
      throw new UnreadableIntentError(
        blocking.id,
        `Refund ${blocking.id} of this payment is in the database but cannot be read (${blocking.reason}); it may have refunded money or still be unresolved, so what remains refundable cannot be worked out. Look the payment up with the payment service: this desk does not refund it.`,
      );
    return e.readable.map(fromRecord);
  }
}

/**
 * Refunds' view of the engine's store: refund intents and audit entries in and out of the shared
 * records (./intent.ts toRecord / fromRecord). Every rule of atomicity is the store's (engine/port.ts).
 */
export function refundStoreOn(store: IntentStore) {
  /** Every intent of one payment; throws UnreadableIntentError (see paymentRefunds). */
  const forPayment = (merchantNo: string, storeNo: string, transactionNo: string) =>
    paymentRefunds(() => store.forPayment('refund', { merchantNo, storeNo, transactionNo }));
  const dayTotal = async (m: string, s: string, currency: Currency, fromIso: string, toIso: string) =>
    store.sum({
      kind: 'refund',
      account: { merchantNo: m, storeNo: s },
      currency,
      states: [...COUNTED_STATES],
      fromIso,
      toIso,
    });
  return {
    engine: store,
    /**
     * One decision, exclusive against every other decision on the same payment and the same account's
     * daily total in `currency` (in any process, on any machine). No network inside.
     */
    decide<T>(
      payment: { account: AccountKey; transactionNo: string; currency: Currency },
      fn: (tx: RefundDecisionTx) => T | Promise<T>,
    ): Promise<T> {
      const { account, transactionNo, currency } = payment;
      const scope: ScopeKey[] = [
        { payment: { ...account, transactionNo } },
        { daily: { account, currency } },
      ];
      return store.decide(scope, (tx) =>
        fn({
          forPayment: (m, s, t) =>
            paymentRefunds(() => tx.forPayment('refund', { merchantNo: m, storeNo: s, transactionNo: t })),
          dayTotal: (m, s, ccy, from, to) =>
            tx.sum({
              kind: 'refund',
              account: { merchantNo: m, storeNo: s },
              currency: ccy,
              states: [...COUNTED_STATES],
              fromIso: from,
              toIso: to,
            }),
          insertSending: async (draft, lease, at) => ({
            ...fromRecord(
              await tx.insert(
                toRecord({ ...draft, state: 'sending', updatedAt: at, checks: 0, attempts: 1 }),
                lease,
                { at, type: 'decided' },
              ),
            ),
            settleCurrency: draft.settleCurrency,
          }),
          ...(tx.approvals ? { approvals: decisionApprovals(tx.approvals, account, currency) } : {}),
        }),
      );
    },
    /** Four-eyes outside a decision: only on a team database (a single desk has no second person). */
    ...(store.approvals ? { approvals: refundApprovals(store.approvals) } : {}),
    get: async (id: string) => {
      const r = await store.get(id);
      return r && r.kind === 'refund' ? fromRecord(r) : undefined;
    },
    /** Newest first: every refund, or one owner's (its own, or sent to its account). */
    list: async (owner?: Owner) =>
      (await store.list({ kind: 'refund', ...(owner ? { owner } : {}) })).items.map(fromRecord),
    /** Every intent not yet final (resume, poller). */
    unfinished: async () => (await store.inStates('refund', UNFINISHED)).map(fromRecord),
    /**
     * Intents a person closed as not sent after `sinceIso` that are still closed (state `refused`): the
     * ones still watched, in case the service lists them after all. Oldest close first.
     */
    closedSince: async (sinceIso: string) =>
      (await store.inStates('refund', ['refused']))
        .map(fromRecord)
        .filter((i) => i.closedNotSentAt !== undefined && i.closedNotSentAt > sinceIso)
        .sort((a, b) => (a.closedNotSentAt! < b.closedNotSentAt! ? -1 : 1)),
    /** `sending` intents whose sender's lease ran out: resolved by query. */
    orphans: async () => (await store.expiredLeases('refund')).map(fromRecord),
    forPayment,
    dayTotal,
    /** Guarded transition and its audit entry in one unit of work; undefined when another changed it first. */
    async transition(
      id: string,
      from: readonly IntentState[],
      to: IntentState,
      patch: IntentPatch,
      event: { at: string; type: string; data?: Record<string, unknown> },
      audit?: (next: Intent) => AuditEntry | undefined,
    ): Promise<Intent | undefined> {
      const r = await store.transition({
        id,
        from,
        to,
        patch: recordPatch(patch),
        event,
        ...(audit
          ? {
              audit: (next) => {
                const e = audit(fromRecord(next));
                return e ? toAuditRecord(e) : undefined;
              },
            }
          : {}),
      });
      return r && fromRecord(r);
    },
    noteCheck: async (id: string, check: IntentCheck) => {
      const r = await store.noteCheck(id, check);
      return r && fromRecord(r);
    },
    checksOf: (id: string) => store.checksOf(id),
    isFinal: (s: IntentState) => FINAL_STATES.has(s),
    watch: (fn: (changed: Intent[]) => void) =>
      store.watch((changed) => {
        const mine = changed.filter((r) => r.kind === 'refund').map(fromRecord);
        if (mine.length > 0) fn(mine);
      }),
    audit: {
      record: (e: AuditEntry) => store.audit.record(toAuditRecord(e)),
      /** Newest first. */
      list: async (profileId?: string) =>
        (
          await store.audit.list({ kind: 'refund', ...(profileId !== undefined ? { profileId } : {}) })
        ).items.map(fromAuditRecord),
    },
  };
}
export type RefundStore = ReturnType<typeof refundStoreOn>;

export interface RefundDecisionTx {
  forPayment(merchantNo: string, storeNo: string, transactionNo: string): Promise<Intent[]>;
  dayTotal(
    merchantNo: string,
    storeNo: string,
    currency: Currency,
    fromIso: string,
    toIso: string,
  ): Promise<number>;
  /** Inserts the intent as `sending`, its sender holding `lease`. */
  insertSending(
    draft: IntentDraft,
    lease: { holder: string; ms: number },
    at: string,
  ): Promise<SendingIntent>;
  /** Four-eyes: present on a team database only. */
  approvals?: RefundDecisionApprovals;
}

/** The decision's four-eyes steps for one refund (the account and currency the decision is about). */
function decisionApprovals(a: DecideApprovals, account: AccountKey, currency: Currency) {
  return {
    /** The account's approval threshold in the decision's currency; undefined: no approval needed. */
    policy: () => a.policy(account, currency),
    /** Records the refund as awaiting approval with its reason; nothing is sent. */
    request: async (draft: IntentDraft, reason: string, at: string): Promise<Intent> =>
      fromRecord(
        await a.request(
          toRecord({ ...draft, state: 'awaiting_approval', updatedAt: at, checks: 0, attempts: 0 }),
          reason,
          { at, type: 'approval_requested' },
        ),
      ),
    /** Approves another person's request and claims it for sending with this sender's lease. */
    approveAndClaim: async (id: string, lease: { holder: string; ms: number }, at: string) =>
      fromRecord(await a.approveAndClaim(id, lease, { at, type: 'approved_and_claimed' })),
  };
}
export type RefundDecisionApprovals = ReturnType<typeof decisionApprovals>;

function refundApprovals(a: StoreApprovals) {
  return {
    reject: async (id: string, comment: string) => fromRecord(await a.reject(id, comment)),
    cancel: async (id: string, comment: string) => fromRecord(await a.cancel(id, comment)),
    /** Requests awaiting approval (or approved, not sent yet), oldest first. */
    open: async () => (await a.open()).filter((r) => r.kind === 'refund').map(fromRecord),
    whoAmI: () => a.whoAmI(),
    approvers: (request: { currency: string; amountMinor: number; requestedBy: string }) =>
      a.approvers(request),
  };
}

/** An intent this version decided: it has every field a refund request needs. */
export type SendingIntent = Intent & Pick<IntentDraft, 'settleCurrency'>;

/**
 * A refund of the payment is in the database but cannot be read (an earlier version kept it in a
 * currency this app does not handle, or the row is damaged) and may have moved money: no refund of that
 * payment can be decided. `message` says so in words for the person.
 */
export class UnreadableIntentError extends Error {
  override name = 'UnreadableIntentError';
  constructor(
    readonly intentId: string,
    message: string,
  ) {
    super(message);
  }
}
