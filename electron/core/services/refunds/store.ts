import type { AccountKey } from '../../../../shared/domain/account';
import type { Currency } from '../../../../shared/domain/currencies';
import type { IntentCheck, IntentStore, Owner, ScopeKey } from '../engine/port';
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
  const { refundTransactionNo, refundStatus, ...cols } = p;
  const data: Record<string, unknown> = {};
  if ('refundTransactionNo' in p) data['refundTransactionNo'] = refundTransactionNo ?? null;
  if ('refundStatus' in p) data['refundStatus'] = refundStatus ?? null;
  return { ...cols, ...(Object.keys(data).length ? { data } : {}) };
}

const UNFINISHED = ['sending', 'outcome_unknown', 'accepted'];

/**
 * Refunds' view of the engine's store: refund intents and audit entries in and out of the shared
 * records (./intent.ts toRecord / fromRecord). Every rule of atomicity is the store's (engine/port.ts).
 */
export function refundStoreOn(store: IntentStore) {
  const forPayment = async (merchantNo: string, storeNo: string, transactionNo: string) =>
    (await store.forPayment('refund', { merchantNo, storeNo, transactionNo })).map(fromRecord);
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
          forPayment: async (m, s, t) =>
            (await tx.forPayment('refund', { merchantNo: m, storeNo: s, transactionNo: t })).map(fromRecord),
          dayTotal: (m, s, ccy, from, to) =>
            tx.sum({
              kind: 'refund',
              account: { merchantNo: m, storeNo: s },
              currency: ccy,
              states: [...COUNTED_STATES],
              fromIso: from,
              toIso: to,
            }),
          insertSending: async (draft, lease, at) =>
            fromRecord(
              await tx.insert(
                toRecord({ ...draft, state: 'sending', updatedAt: at, checks: 0, attempts: 1 }),
                lease,
                { at, type: 'decided' },
              ),
            ),
        }),
      );
    },
    get: async (id: string) => {
      const r = await store.get(id);
      return r && r.kind === 'refund' ? fromRecord(r) : undefined;
    },
    /** Newest first: every refund, or one owner's (its own, or sent to its account). */
    list: async (owner?: Owner) =>
      (await store.list({ kind: 'refund', ...(owner ? { owner } : {}) })).items.map(fromRecord),
    /** Every intent not yet final (resume, poller). */
    unfinished: async () => (await store.inStates('refund', UNFINISHED)).map(fromRecord),
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
  insertSending(draft: IntentDraft, lease: { holder: string; ms: number }, at: string): Promise<Intent>;
}
