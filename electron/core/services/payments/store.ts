import { accountKeyOf } from '../../../../shared/domain/account';
import { AppError } from '../../../../shared/domain/errors';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { AuditRecord, IntentRecord, IntentStore, ScopeKey } from '../engine/port';
import { InvariantViolation } from '../engine/port';
import type { PaymentAccount, PaymentDraft, PaymentIntent, PaymentPatch, PaymentState } from './intent';
import { scrubAudit, scrubDraft, scrubIntent, scrubNote, scrubPatch } from './scrub';

/** A customer registered from this desk, as kept locally (the service has no customer lookup). */
export interface CustomerRecord extends Omit<PaymentAccount, 'profileName'> {
  id: string;
  customerNo: string;
  customerCode?: string;
  firstName: string;
  lastName: string;
  email: string;
  countryCode: string;
  state?: string;
  operator: string;
  createdAt: string;
}

/** A stored payment method: the service's vaultId (main only) and what a person recognises it by. */
export interface StoredMethod {
  id: string;
  customerId: string;
  vendor: string;
  vaultId: string;
  cardLast4?: string;
  /** The payment that stored it. */
  paymentId?: string;
  createdAt: string;
}

export type InsertResult =
  | { ok: true; intent: PaymentIntent }
  /** This desk already used the reference for this merchant (the service would refuse it too). */
  | { ok: false; reason: 'reference_in_use'; existing: PaymentIntent };

/**
 * What payments keep beside their intents (the engine's): customers registered from this desk and their
 * stored methods. `saveMethod` keeps a method and links it to the payment that created it, in one
 * transaction; saving the same vaultId for the same customer again returns the method already kept.
 */
export interface CustomerStore {
  saveMethod(paymentId: string, method: StoredMethod, at: string): StoredMethod;
  customers: {
    insert(c: CustomerRecord): CustomerRecord;
    get(id: string): CustomerRecord | undefined;
    /** Newest first. */
    list(profileId?: string): CustomerRecord[];
  };
  methods: {
    get(id: string): StoredMethod | undefined;
    forCustomer(customerId: string): StoredMethod[];
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
/** A payment's own fields, kept in the record's `data`. */
const DATA_FIELDS = [
  'vendor',
  'terminal',
  'description',
  'note',
  'goods',
  'timeoutMin',
  'customerId',
  'customerNo',
  'methodId',
  'saveCard',
  'paymentStatus',
  'cashierUrl',
  'authUrl',
  'savedMethodId',
  'paidAt',
] as const;

export function toPaymentRecord(p: PaymentIntent): IntentRecord {
  const data: Record<string, unknown> = { paymentKind: p.kind };
  for (const k of DATA_FIELDS) if (p[k] !== undefined) data[k] = p[k];
  const rec: IntentRecord = {
    id: p.id,
    kind: 'payment',
    state: p.state,
    profileId: p.profileId,
    profileName: p.profileName,
    environment: p.environment,
    baseUrl: p.baseUrl,
    merchantNo: p.merchantNo,
    storeNo: p.storeNo,
    reference: p.reference,
    amountMinor: p.amountMinor,
    currency: p.currency,
    settleCurrency: p.settleCurrency,
    operator: p.operator,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    checks: p.checks,
    attempts: 1,
    data,
  };
  const extra = {
    transactionNo: p.transactionNo,
    sender: p.sender,
    retCode: p.retCode,
    retMsg: p.retMsg,
    detail: p.detail,
    cardLast4: p.cardLast4,
    lastCheck: p.lastCheck,
  };
  for (const [k, v] of Object.entries(extra))
    if (v !== undefined) (rec as unknown as Record<string, unknown>)[k] = v;
  return rec;
}

export function fromPaymentRecord(r: IntentRecord): PaymentIntent {
  const d = r.data;
  const p: PaymentIntent = {
    id: r.id,
    kind: d['paymentKind'] as PaymentIntent['kind'],
    state: r.state as PaymentState,
    profileId: r.profileId,
    profileName: r.profileName,
    environment: r.environment,
    baseUrl: r.baseUrl,
    merchantNo: r.merchantNo,
    storeNo: r.storeNo,
    operator: r.operator,
    reference: r.reference ?? '',
    amountMinor: r.amountMinor,
    currency: r.currency,
    // Always there for a payment (the store refuses to read one without it).
    settleCurrency: r.settleCurrency ?? r.currency,
    vendor: str(d['vendor']) ?? '',
    terminal: str(d['terminal']) ?? '',
    goods: (d['goods'] as PaymentIntent['goods'] | undefined) ?? [],
    saveCard: d['saveCard'] === true || d['saveCard'] === 1,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    checks: r.checks,
  };
  const extra: Partial<PaymentIntent> = {
    description: str(d['description']),
    note: str(d['note']),
    timeoutMin: typeof d['timeoutMin'] === 'number' ? d['timeoutMin'] : undefined,
    customerId: str(d['customerId']),
    customerNo: str(d['customerNo']),
    methodId: str(d['methodId']),
    cardLast4: r.cardLast4,
    sender: r.sender,
    transactionNo: r.transactionNo,
    paymentStatus: str(d['paymentStatus']),
    cashierUrl: str(d['cashierUrl']),
    authUrl: str(d['authUrl']),
    savedMethodId: str(d['savedMethodId']),
    retCode: r.retCode,
    retMsg: r.retMsg,
    detail: r.detail,
    lastCheck: r.lastCheck,
    paidAt: str(d['paidAt']),
  };
  for (const [k, v] of Object.entries(extra))
    if (v !== undefined) (p as unknown as Record<string, unknown>)[k] = v;
  return p;
}

export function toPaymentAudit(e: PaymentAuditEntry): AuditRecord {
  const { action, reference, customerNo, vendor, subjectId, ...rest } = e;
  return {
    ...rest,
    kind: 'payment',
    subjectId,
    data: {
      action,
      ...(reference ? { reference } : {}),
      ...(customerNo ? { customerNo } : {}),
      ...(vendor ? { vendor } : {}),
    },
  };
}

export function fromPaymentAudit(a: AuditRecord): PaymentAuditEntry {
  const e: Record<string, unknown> = {
    at: a.at,
    operator: a.operator,
    profileId: a.profileId,
    profileName: a.profileName,
    environment: a.environment,
    action: a.data['action'],
    outcome: a.outcome,
    subjectId: a.subjectId,
  };
  const extra = {
    reference: str(a.data['reference']),
    transactionNo: a.transactionNo,
    customerNo: str(a.data['customerNo']),
    amountMinor: a.amountMinor,
    currency: a.currency,
    vendor: str(a.data['vendor']),
    retCode: a.retCode,
    retMsg: a.retMsg,
    detail: a.detail,
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) e[k] = v;
  return e as unknown as PaymentAuditEntry;
}

/** A patch's payment fields go to `data`; the engine's columns stay columns. null clears. */
function recordPatch(p: PaymentPatch) {
  const { transactionNo, retCode, retMsg, detail, ...own } = p;
  const cols = { transactionNo, retCode, retMsg, detail };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(cols)) if (k in p) out[k] = v ?? null;
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(own)) data[k] = v ?? null;
  return { ...out, ...(Object.keys(data).length ? { data } : {}) };
}

const UNFINISHED = ['sending', 'open', 'outcome_unknown'];

/**
 * Payments' view of the engine's store (payment intents and their audit, kind `payment`) together with
 * the customers and stored methods payments keep beside them.
 */
export function paymentStoreOn(store: IntentStore, kept: CustomerStore) {
  // Belt and braces (./scrub.ts): no card data into a record, its events or the audit log whoever wrote
  // it, and none out of one an older version kept.
  const read = (r: IntentRecord) => scrubIntent(fromPaymentRecord(r));
  const one = async (id: string) => {
    const r = await store.get(id);
    return r && r.kind === 'payment' ? read(r) : undefined;
  };
  return {
    engine: store,
    /**
     * Inserts the intent as `sending` with the sender's lease, committed before this resolves — unless
     * the merchant reference is already taken by an intent the service did not reject.
     */
    insertSending: (
      draft: PaymentDraft,
      lease: { holder: string; ms: number },
      at: string,
    ): Promise<InsertResult> =>
      store.decide(
        [{ reference: { merchantNo: draft.merchantNo, reference: draft.reference } }],
        async (tx) => {
          const taken = async () =>
            (await tx.byReference('payment', draft.merchantNo, draft.reference)).find(
              (r) => r.state !== 'rejected',
            );
          const existing = await taken();
          if (existing)
            return {
              ok: false as const,
              reason: 'reference_in_use' as const,
              existing: read(existing),
            };
          const intent: PaymentIntent = { ...scrubDraft(draft), state: 'sending', updatedAt: at, checks: 0 };
          try {
            const r = await tx.insert(toPaymentRecord(intent), lease, { at, type: 'decided' });
            return { ok: true as const, intent: read(r) };
          } catch (e) {
            if (e instanceof InvariantViolation && e.which === 'reference') {
              const raced = await taken();
              if (raced)
                return {
                  ok: false as const,
                  reason: 'reference_in_use' as const,
                  existing: read(raced),
                };
            }
            throw e;
          }
        },
      ),
    get: one,
    /** Newest first: one profile's payment intents, or every profile's when none is named. */
    list: async (profileId?: string) =>
      (
        await store.list({ kind: 'payment', ...(profileId !== undefined ? { owner: { profileId } } : {}) })
      ).items.map(read),
    /** Every intent whose creation or payment is not final yet (resume, follower). */
    unfinished: async () => (await store.inStates('payment', UNFINISHED)).map(read),
    /** `sending` creates whose sender's lease ran out: resolved by query. */
    orphans: async () => (await store.expiredLeases('payment')).map(read),
    byTransaction: async (merchantNo: string, transactionNo: string) => {
      const [r] = await store.byTransaction('payment', merchantNo, transactionNo);
      return r && read(r);
    },
    /**
     * Guarded transition and its audit entries in one unit of work; undefined when something else won.
     * Throws `conflict` (details.transactionNoTakenBy) when the patch's transactionNo is already recorded
     * for another intent of the merchant: one payment, one intent — decided inside the unit of work, so
     * two processes given the same number cannot both keep it.
     */
    async transition(
      id: string,
      from: readonly PaymentState[],
      to: PaymentState,
      given: PaymentPatch,
      event: { at: string; type: string; data?: Record<string, unknown> },
      audit?: (next: PaymentIntent) => PaymentAuditEntry[],
    ): Promise<PaymentIntent | undefined> {
      const before = await store.get(id);
      if (!before || before.kind !== 'payment') return undefined;
      const number = typeof given.transactionNo === 'string' ? given.transactionNo : undefined;
      const scope: ScopeKey[] = number
        ? [{ payment: { ...accountKeyOf(before), transactionNo: number } }]
        : [];
      const r = await store.decide(scope, async (tx) => {
        const cur = await tx.get(id);
        if (!cur) return undefined;
        const patch = scrubPatch(given, fromPaymentRecord(cur));
        if (typeof patch.transactionNo === 'string') {
          const other = (await tx.byTransaction('payment', cur.merchantNo, patch.transactionNo)).find(
            (o) => o.id !== id,
          );
          if (other)
            throw new AppError(
              'conflict',
              `Transaction ${patch.transactionNo} is already recorded for payment ${other.id}.`,
              { details: { transactionNoTakenBy: other.id } },
            );
        }
        return tx.transition({
          id,
          from,
          to,
          patch: recordPatch(patch),
          event,
          ...(audit
            ? {
                audit: (next: IntentRecord) => audit(read(next)).map((e) => toPaymentAudit(scrubAudit(e))),
              }
            : {}),
        });
      });
      return r && read(r);
    },
    /** Records the evidence of one query about an intent (its state is unchanged). */
    noteCheck: async (id: string, given: { at: string; found: boolean; note: string }) => {
      const cur = await store.get(id);
      const note = scrubNote(given.note, cur ? fromPaymentRecord(cur) : {});
      const r = await store.noteCheck(id, { ...given, note, reached: true });
      return r && read(r);
    },
    watch: (fn: (changed: PaymentIntent[]) => void) =>
      store.watch((changed) => {
        const mine = changed.filter((r) => r.kind === 'payment').map(read);
        if (mine.length > 0) fn(mine);
      }),
    saveMethod: kept.saveMethod,
    customers: kept.customers,
    methods: kept.methods,
    audit: {
      record: (e: PaymentAuditEntry) => store.audit.record(toPaymentAudit(scrubAudit(e))),
      /** Newest first. */
      list: async (profileId?: string) =>
        (
          await store.audit.list({ kind: 'payment', ...(profileId !== undefined ? { profileId } : {}) })
        ).items.map((a) => scrubAudit(fromPaymentAudit(a))),
    },
  };
}
export type PaymentStore = ReturnType<typeof paymentStoreOn>;
