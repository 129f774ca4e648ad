import type { Currency } from '../../../../shared/domain/currencies';
import { refuseOtherProfile } from '../scope';
import { AppError, isAppError } from '../../../../shared/domain/errors';
import { closePolicyAtFloor } from '../../../../shared/domain/guardrails';
import { formatMinor } from '../../../../shared/domain/money';
import {
  DEFAULT_UNKNOWN_CLOSE,
  type Environment,
  type MoneyMode,
  moneyModeOf,
} from '../../../../shared/domain/profile';
import {
  refundBlocker,
  remainingRefundableMinor,
  type Transaction,
} from '../../../../shared/domain/transaction';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { AuditEntry } from './audit';
import { type Confirmation, type Guardrails, missingConfirmations } from './guardrails';
import type { IntentAccount } from '../engine/account';
import { classifyFailure } from '../engine/classify';
import { InvariantViolation, type Owner, type TeamIdentity } from '../engine/port';
import { DEFAULT_LEASE_MS, whileLeased } from '../engine/lease';
import { COUNTED_STATES, type Intent, OPEN_STATES } from './intent';
import { createKeyedLock } from './locks';
import { createResolver } from './resolver';
import { type RefundStore, type SendingIntent, UnreadableIntentError } from './store';
import { createIntentViews } from './views';

/** Who is refunding, and where to: the profile the call names, resolved by the host. */
/** The account a new refund is made in: a profile's now, so its environment is always a known one. */
type RefundAccount = Omit<IntentAccount, 'environment'> & { environment: Environment };

export interface RefundContext extends RefundAccount {
  /** What the person declared is behind a Custom address on this machine (moneyModeOf). */
  loopbackMoneyMode?: MoneyMode;
  operator: string;
  guardrails: Guardrails;
  /** Where refund IPNs should go (the loopback listener), if one runs. */
  ipnUrl?: string;
}

export type RefundGateway = Pick<GatewayClient, 'queryTransaction' | 'refund'>;

export interface RefundServiceDeps {
  /**
   * The gateway for an intent's exact account (its profile, at the address and merchant it went to).
   * Throws an AppError saying why it cannot be checked (profile deleted, retargeted, no token).
   */
  gatewayFor: (account: IntentAccount) => RefundGateway;
  store: RefundStore;
  clock: Clock;
  log: Logger;
  /** The named profile's account, operator and limits (`not_found` for a profile that no longer exists). */
  context: (profileId: string) => RefundContext;
  /** Whether an intent belongs to a profile: sent with it, or sent to exactly its account (the CLI). */
  belongsTo?: (intent: Intent, profileId: string) => boolean;
  /** The same rule as a query: whose intents a profile lists (undefined: every intent). */
  ownerOf?: (profileId: string) => Owner | undefined;
  newId: () => string;
  /** Who sends from this process (`host:pid`, given by the host): recorded on every intent it sends. */
  sender: string;
  /**
   * How long a sender's lease lasts (renewed every third of it while the request is out). An intent
   * whose lease expired is resolved by query by any process. Default DEFAULT_LEASE_MS.
   */
  leaseMs?: number;
  /** Called whenever an intent changes, so hosts can push it to the renderer. */
  onChange?: (intent: Intent) => void;
  /** Set when the database cannot be trusted: every refund is refused with this reason. */
  untrusted?: () => string | undefined;
  /** Set when the database cannot be read at all: lists fail with this reason instead of being empty. */
  unreadable?: () => string | undefined;
  /** How much checking an unknown refund needs before it may be closed (its profile's setting). */
  closePolicy?: (account: IntentAccount) => { minChecks: number; minMinutes: number } | undefined;
  /** Team storage: this desk's id as the database stamps it (which listed refunds were made here). */
  desk?: () => string | undefined;
}

/** What a person types to close an unknown refund as not sent. */
export const CLOSE_CONFIRMATION = 'NOT SENT';

export interface SubmitInput {
  transactionNo: string;
  amountMinor: number;
  currency: Currency;
  reasonCode: string;
  reasonNote: string;
  confirmation: Confirmation;
  /** The profile the person confirmed against: the refund goes to this profile's account only. */
  profileId: string;
  /** The account the confirmation showed; refused if the profile now points elsewhere. */
  account?: { baseUrl: string; merchantNo: string };
  /**
   * A refund batch row (issue 27): kept on the intent, and refused inside the deciding transaction when
   * an intent of this payment with the same row key may already have moved money (`alreadyDone`).
   * `approved`: the batch was approved as a whole (team mode), so a row above the single-refund policy
   * is sent, not requested again; the database accepts it only for a row of that approved batch.
   */
  batch?: { id: string; line: number; rowKey: string; approved?: boolean };
}

export interface Preview {
  transaction: Transaction;
  remainingMinor: number;
  /** Why this payment cannot be refunded safely (a refund record, refunds in another currency). */
  blockedReason?: string;
  pendingIntents: Intent[];
  todayTotalMinor: number;
  guardrails: Guardrails;
  environment: Environment;
  /** Whether this refund moves real money, from the address it goes to (see moneyModeOf). */
  moneyMode: MoneyMode;
  /** The service address it goes to, and as which merchant. */
  baseUrl: string;
  merchantNo: string;
  /** The one profile every figure above was computed for. */
  profileId: string;
  profileName: string;
  operator: string;
  /**
   * This payment's refunds in the journal made in the last RECENT_REFUND_MS that moved (or may move)
   * money, newest first: the dialog asks "is this a different refund?" — two people may be answering the
   * same complaint on two desks.
   */
  recentRefunds: RecentRefund[];
}

/** One refund of the payment from the journal, as the dialog's warning says it. */
export interface RecentRefund {
  id: string;
  state: Intent['state'];
  amountMinor: number;
  currency: Currency;
  /** When it was made (the desk's clock, ISO). */
  at: string;
  /** The person: their team login where the store knows it, else the operator name the desk recorded. */
  by: string;
  /** The desk it was made at, where the store knows it (team database). */
  desk?: string;
}

/** How far back the refund dialog looks for another refund of the same payment. */
export const RECENT_REFUND_MS = 24 * 60 * 60_000;

/** The journal's recent refunds of one payment (see Preview.recentRefunds). */
export function recentRefunds(intents: readonly Intent[], nowMs: number): RecentRefund[] {
  const since = nowMs - RECENT_REFUND_MS;
  return intents
    .filter((i) => COUNTED_STATES.has(i.state) && Date.parse(i.createdAt) >= since)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .map((i) => ({
      id: i.id,
      state: i.state,
      amountMinor: i.amountMinor,
      currency: i.currency,
      at: i.createdAt,
      by: i.author?.person ?? i.operator,
      ...(i.author?.desk ? { desk: i.author.desk } : {}),
    }));
}

/** What a checker sends to approve a request and send it (the same confirmations as a refund). */
export interface ApproveInput {
  /** The approver's profile: the request must be for its account; its limits ask the confirmations. */
  profileId: string;
  id: string;
  confirmation: Confirmation;
  /** The account the confirmation showed; refused if the profile now points elsewhere. */
  account?: { baseUrl: string; merchantNo: string };
}

/** Who this desk is in the team database, or that it is a single desk (no four-eyes). */
export type WhoAmI = { team: false } | ({ team: true } & TeamIdentity);

/** A decision not to send, thrown inside the deciding transaction and audited once it rolled back. */
class Refusal extends Error {
  constructor(
    readonly code: 'conflict' | 'invalid_input' | 'unavailable',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Why another refund of a payment cannot be decided while `open` is: in words, with what to do. */
function refusalForOpen(open: Intent): Refusal {
  const details = { intentId: open.id, state: open.state };
  if (open.state === 'awaiting_approval')
    return new Refusal(
      'conflict',
      `Refund ${open.id} for this payment is awaiting approval${open.approval ? ` (requested by ${open.approval.requestedBy})` : ''}. A checker approves or declines it, or its requester cancels it, first.`,
      details,
    );
  if (open.state === 'approved')
    return new Refusal(
      'conflict',
      `Refund ${open.id} for this payment was approved${open.approval?.approvedBy ? ` by ${open.approval.approvedBy}` : ''} and is about to be sent.`,
      details,
    );
  return new Refusal(
    'conflict',
    `Refund ${open.id} for this payment is still ${open.state === 'outcome_unknown' ? 'unresolved' : 'being sent'}. Resolve it first (Refunds → Check again).`,
    details,
  );
}

/** The reason a request for approval carries in the team database (required there). */
function requestReason(input: Pick<SubmitInput, 'reasonCode' | 'reasonNote'>): string {
  const note = input.reasonNote.trim();
  return note ? `${input.reasonCode}: ${note}` : input.reasonCode;
}

/** Which fields of a success answer contradict the request (absent echoes prove nothing either way). */
export function answerMismatch(
  intent: Pick<Intent, 'id' | 'transactionNo' | 'amountMinor' | 'currency'>,
  r: { transactionNo?: string; refundReference?: string; refundAmountMinor: number; currency: Currency },
): { fields: string[]; text: string } | undefined {
  const diffs: [string, string, string][] = [];
  if (r.refundAmountMinor !== intent.amountMinor)
    diffs.push([
      'refundAmount',
      `${formatMinor(intent.amountMinor, intent.currency)} ${intent.currency}`,
      `${formatMinor(r.refundAmountMinor, r.currency)} ${r.currency}`,
    ]);
  if (r.currency !== intent.currency) diffs.push(['currency', intent.currency, r.currency]);
  if (r.transactionNo && r.transactionNo !== intent.transactionNo)
    diffs.push(['transactionNo', intent.transactionNo, r.transactionNo]);
  if (r.refundReference && r.refundReference !== intent.id)
    diffs.push(['refundReference', intent.id, r.refundReference]);
  if (diffs.length === 0) return undefined;
  return {
    fields: diffs.map((d) => d[0]),
    text: diffs.map(([f, sent, got]) => `${f}: sent ${sent}, answered ${got}`).join('; '),
  };
}

/** The operator's calendar day (local time zone) as an ISO interval: a "daily" limit resets at local midnight. */
export function localDayBounds(nowMs: number): { from: string; to: string } {
  const start = new Date(nowMs);
  start.setHours(0, 0, 0, 0);
  const end = new Date(start);
  end.setDate(end.getDate() + 1);
  return { from: start.toISOString(), to: end.toISOString() };
}

/**
 * What remains refundable: the payment's amount less the service's refunds (success or pending) less
 * every intent of this account and payment that may have moved money and that the query does not show
 * yet (matched by refundReference / refundTransactionNo, so nothing is counted twice or missed — an intent
 * that became final after the query was taken still counts).
 */
export function remainingFor(tx: Transaction, intents: readonly Intent[]): number {
  return remainingRefundableMinor(
    tx,
    intents.filter((i) => COUNTED_STATES.has(i.state)),
  );
}

/**
 * Refunds that are never sent twice, never exceed what remains and are never lost. The renderer is not
 * trusted: every check happens here. A fresh query is taken, then ONE database transaction — exclusive
 * across every process sharing the data directory — re-reads this payment's intents, decides, and
 * inserts the intent as `sending`; only after it commits does the request leave.
 */
export function createRefundService(deps: RefundServiceDeps) {
  const lock = createKeyedLock();
  const lease = { holder: deps.sender, ms: deps.leaseMs ?? DEFAULT_LEASE_MS };
  const iso = () => new Date(deps.clock.now()).toISOString();
  const resolver = createResolver(deps);
  const views = createIntentViews(deps);
  const belongs = (i: Intent, profileId: string) =>
    i.profileId === profileId || (deps.belongsTo?.(i, profileId) ?? false);
  /** The intent, if the named profile may act on it; `conflict` when it is another profile's. */
  const ownIntent = async (profileId: string, id: string): Promise<Intent | undefined> => {
    const intent = await deps.store.get(id);
    if (intent && !belongs(intent, profileId)) refuseOtherProfile('refund', intent, profileId);
    return intent;
  };
  const audit = async (entry: Omit<AuditEntry, 'at' | 'outcome'>, outcome: AuditEntry['outcome']) => {
    try {
      await deps.store.audit.record({ ...entry, at: iso(), outcome });
    } catch (e) {
      // The audit entry of a refusal must not hide the refusal itself; the log keeps the failure.
      deps.log.error('audit.record_failed', { outcome, error: e instanceof Error ? e.message : String(e) });
    }
  };

  function todayTotal(
    ctx: RefundContext,
    currency: Currency,
    tx?: { dayTotal: RefundStore['dayTotal'] },
  ): Promise<number> {
    const { from, to } = localDayBounds(deps.clock.now());
    return (tx ?? deps.store).dayTotal(ctx.merchantNo, ctx.storeNo, currency, from, to);
  }

  function refuseIfUntrusted(): void {
    const why = deps.untrusted?.();
    if (why)
      throw new AppError('unavailable', `Refunds are paused: ${why} Nothing was sent.`, {
        details: { moneyMoved: 'no', storage: 'untrusted' },
      });
  }

  async function preview(profileId: string, transactionNo: string): Promise<Preview> {
    // Resolved once: every figure and every name in the answer is this one profile's.
    const ctx = deps.context(profileId);
    const { transaction } = await deps.gatewayFor(ctx).queryTransaction({ transactionNo });
    const forPayment = () => deps.store.forPayment(ctx.merchantNo, ctx.storeNo, transaction.transactionNo);
    let intents: Intent[] = [];
    let blockedReason = refundBlocker(transaction);
    try {
      // A refund closed as not sent that this fresh query lists is recorded now, so the dialog shows it.
      const before = await forPayment();
      const found = await resolver.noticeFoundAfterClose(before, transaction.refunds);
      intents = found.length > 0 ? await forPayment() : before;
    } catch (e) {
      // A refund of this payment that cannot be read: what remains cannot be worked out without it.
      if (!(e instanceof UnreadableIntentError)) throw e;
      blockedReason ??= e.message;
    }
    return {
      transaction,
      remainingMinor: blockedReason ? 0 : remainingFor(transaction, intents),
      ...(blockedReason ? { blockedReason } : {}),
      pendingIntents: intents.filter((i) => OPEN_STATES.has(i.state) || i.state === 'accepted'),
      todayTotalMinor: await todayTotal(ctx, transaction.currency),
      guardrails: ctx.guardrails,
      environment: ctx.environment,
      moneyMode: moneyModeOf(ctx.environment, ctx.baseUrl, ctx.loopbackMoneyMode),
      baseUrl: ctx.baseUrl,
      merchantNo: ctx.merchantNo,
      profileId: ctx.profileId,
      profileName: ctx.profileName,
      operator: ctx.operator,
      recentRefunds: recentRefunds(intents, deps.clock.now()),
    };
  }

  async function submit(input: SubmitInput): Promise<Intent> {
    const ctx = deps.context(input.profileId);
    // In this process, a second click on the same payment fails fast, before any network.
    const key = `${ctx.merchantNo}:${ctx.storeNo}:${input.transactionNo}`;
    return lock.tryRun(
      key,
      () => decideAndSend(ctx, input),
      () => {
        throw new AppError(
          'conflict',
          'A refund for this payment is already being submitted. Nothing else was sent.',
          {
            details: { moneyMoved: 'no' },
          },
        );
      },
    );
  }

  async function decideAndSend(ctx: RefundContext, input: SubmitInput): Promise<Intent> {
    const base = {
      operator: ctx.operator,
      profileId: ctx.profileId,
      profileName: ctx.profileName,
      environment: ctx.environment,
      transactionNo: input.transactionNo,
      amountMinor: input.amountMinor,
      currency: input.currency,
      reasonCode: input.reasonCode,
      reasonNote: input.reasonNote,
    };
    const refuse = async (
      code: 'conflict' | 'invalid_input' | 'unavailable',
      message: string,
      details?: Record<string, unknown>,
    ): Promise<never> => {
      await audit({ ...base, intentId: '', detail: message }, 'refused');
      throw new AppError(code, `${message} Nothing was sent.`, { details: { moneyMoved: 'no', ...details } });
    };
    const openIntent = (intents: readonly Intent[]) => intents.find((i) => OPEN_STATES.has(i.state));
    const openRefusal = (open: Intent) => refusalForOpen(open);
    const refuseIfOpen = async (intents: readonly Intent[]) => {
      const open = openIntent(intents);
      if (open) {
        const r = openRefusal(open);
        await refuse(r.code, r.message, r.details);
      }
    };

    refuseIfUntrusted();
    if (
      input.account &&
      (input.account.baseUrl !== ctx.baseUrl || input.account.merchantNo !== ctx.merchantNo)
    )
      await refuse(
        'conflict',
        `The profile “${ctx.profileName}” now points at ${ctx.baseUrl || 'another address'} as merchant ${ctx.merchantNo}, not the account you confirmed (${input.account.baseUrl || 'unknown address'}, merchant ${input.account.merchantNo}). Close this refund and start again from the payment.`,
        { ownerProfileId: ctx.profileId },
      );
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
      await refuse('invalid_input', 'The refund amount must be greater than zero.');
    /** This payment's intents; one that cannot be read refuses the refund with the reason. */
    const paymentIntents = async (transactionNo: string): Promise<Intent[]> => {
      try {
        return await deps.store.forPayment(ctx.merchantNo, ctx.storeNo, transactionNo);
      } catch (e) {
        if (e instanceof UnreadableIntentError)
          return refuse('conflict', e.message, { intentId: e.intentId });
        throw e;
      }
    };
    // Cheap early answer before any network; the transaction below decides for real.
    await refuseIfOpen(await paymentIntents(input.transactionNo));

    let tx: Transaction;
    try {
      tx = (await deps.gatewayFor(ctx).queryTransaction({ transactionNo: input.transactionNo })).transaction;
    } catch (e) {
      await audit(
        {
          ...base,
          intentId: '',
          detail: `The fresh check before sending failed: ${isAppError(e) ? e.message : 'unexpected error'}`,
        },
        'refused',
      );
      throw e;
    }
    // A refund of this payment that a person closed as not sent, listed by this fresh query: it was sent
    // after all. It becomes that refund now, and this submit — most likely made to replace it — is
    // refused with that news rather than paying the customer twice. A second submit, made knowing it,
    // is decided as usual (the found refund then counts against what remains).
    const foundNow = await resolver.noticeFoundAfterClose(await paymentIntents(tx.transactionNo), tx.refunds);
    const first = foundNow[0];
    if (first) {
      const was = `Refund ${first.id} of ${formatMinor(first.amountMinor, first.currency)} ${first.currency}, closed as not sent${first.closedNotSentAt ? ` at ${first.closedNotSentAt}` : ''}, is listed by the service after all${first.refundTransactionNo ? ` (as refund ${first.refundTransactionNo})` : ''}`;
      await refuse(
        'conflict',
        first.state === 'outcome_unknown'
          ? `${was}, but not as it was sent: whether, and how much, was refunded is not known. Check this payment with the payment service first (Refunds → Check again).`
          : `${was}: that money was refunded. Look at this payment's refunds; if more is still owed, start the refund again.`,
        { intentId: first.id, foundAfterClose: true, state: first.state },
      );
    }
    // What the record is comes first: a refund record's own status ("pending") is not why it is refused.
    const blocker = refundBlocker(tx);
    if (blocker) await refuse('conflict', blocker, { blocked: true });
    if (tx.status !== 'success')
      await refuse(
        'conflict',
        `This payment's status is “${tx.status}”; only successful payments can be refunded.`,
        {
          status: tx.status,
        },
      );
    if (tx.currency !== input.currency)
      await refuse(
        'invalid_input',
        `The refund currency ${input.currency} does not match the payment's ${tx.currency}.`,
      );

    let decided: { sending: SendingIntent } | { requested: Intent };
    try {
      const account = {
        environment: ctx.environment,
        baseUrl: ctx.baseUrl,
        merchantNo: ctx.merchantNo,
        storeNo: ctx.storeNo,
      };
      const scope = { account, transactionNo: tx.transactionNo, currency: tx.currency };
      decided = await deps.store.decide(scope, async (db) => {
        const intents = await db.forPayment(ctx.merchantNo, ctx.storeNo, tx.transactionNo);
        const rowKey = input.batch?.rowKey;
        const done = rowKey
          ? intents.find((i) => i.batch?.rowKey === rowKey && COUNTED_STATES.has(i.state))
          : undefined;
        if (done)
          throw new Refusal(
            'conflict',
            `This batch row was already refunded as refund ${done.id}${done.batch ? ` (batch ${done.batch.id}, line ${done.batch.line})` : ''}.`,
            { intentId: done.id, alreadyDone: true },
          );
        const open = openIntent(intents);
        if (open) throw openRefusal(open);
        const remaining = remainingFor(tx, intents);
        if (input.amountMinor > remaining)
          throw new Refusal(
            'conflict',
            `Only ${formatMinor(Math.max(0, remaining), tx.currency)} ${tx.currency} remains refundable on this payment.`,
            { remainingMinor: remaining },
          );
        const need = missingConfirmations({
          amountMinor: input.amountMinor,
          currency: tx.currency,
          moneyMode: moneyModeOf(ctx.environment, ctx.baseUrl, ctx.loopbackMoneyMode),
          todayTotalMinor: await todayTotal(ctx, tx.currency, db),
          guardrails: ctx.guardrails,
          confirmation: input.confirmation,
        });
        if (need.missing.length > 0)
          throw new Refusal(
            'invalid_input',
            `This refund needs an extra confirmation${need.reasons.length ? `: ${need.reasons.join('; ')}` : ''}.`,
            { requires: need.missing, reasons: need.reasons },
          );
        const at = iso();
        const draft = {
          ...base,
          id: deps.newId(),
          baseUrl: ctx.baseUrl,
          merchantNo: ctx.merchantNo,
          storeNo: ctx.storeNo,
          settleCurrency: tx.settleCurrency ?? tx.currency,
          createdAt: at,
          ...(tx.reference ? { reference: tx.reference } : {}),
          ...(input.batch
            ? { batch: { id: input.batch.id, line: input.batch.line, rowKey: input.batch.rowKey } }
            : {}),
        };
        // Four-eyes (team database): above the account's policy the refund is recorded as a request and
        // nothing is sent. The policy is the database's, read in this decision; were it raised meanwhile,
        // the database still refuses a `sending` refund above it (RD010), so nothing leaves either way.
        // A batch row is never requested on its own: its batch was approved as a whole (the database
        // checks that it was, RD010 otherwise), or the row is refused — the policy was lowered since the
        // batch started below it.
        const policy = await db.approvals?.policy();
        if (db.approvals && policy && input.amountMinor > policy.aboveMinor && !input.batch?.approved) {
          if (input.batch)
            throw new Refusal(
              'conflict',
              `This batch row (${formatMinor(input.amountMinor, tx.currency)} ${tx.currency}) is above the account's approval limit (${formatMinor(policy.aboveMinor, tx.currency)} ${tx.currency}), which is lower than when the batch started: start the file again, so the batch is approved as a whole.`,
              { needsApproval: true },
            );
          return { requested: await db.approvals.request(draft, requestReason(input), at) };
        }
        return { sending: await db.insertSending(draft, lease, at) };
      });
    } catch (e) {
      // Refusals are audited here, after the transaction rolled back (an audit row written inside it
      // would be rolled back with it).
      if (e instanceof Refusal) return refuse(e.code, e.message, e.details);
      if (e instanceof UnreadableIntentError) return refuse('conflict', e.message, { intentId: e.intentId });
      if (e instanceof InvariantViolation) {
        // The database's own rule (one open refund per payment) caught what the check above missed.
        const open = (await paymentIntents(tx.transactionNo)).find((i) => OPEN_STATES.has(i.state));
        const r = open
          ? openRefusal(open)
          : new Refusal('conflict', 'Another refund for this payment is open.');
        return refuse(r.code, r.message, r.details);
      }
      if (isAppError(e) && e.details?.storage) {
        // The decision could not be written (disk full, read-only folder, damaged file): nothing left.
        return refuse(
          'unavailable',
          `Refund Desk could not record the refund before sending it: ${e.message}`,
          {
            storage: e.details.storage,
          },
        );
      }
      if (isAppError(e) && e.details?.moneyMoved === 'no') {
        // The team database's own refusal (its words): audited as refused, passed on as it is.
        await audit({ ...base, intentId: '', detail: e.message }, 'refused');
        throw e;
      }
      throw e;
    }
    if ('requested' in decided) {
      deps.log.info('refund.approval_requested', { intentId: decided.requested.id });
      deps.onChange?.(decided.requested);
      return decided.requested;
    }
    deps.onChange?.(decided.sending);
    return send(decided.sending, ctx);
  }

  /** The only place a refund request leaves the app: its intent is already committed as `sending`. */
  async function send(intent: SendingIntent, ctx: RefundContext): Promise<Intent> {
    let r: Awaited<ReturnType<RefundGateway['refund']>>;
    try {
      // The lease is renewed while the request is out: a sender that dies lets it expire within seconds.
      r = await whileLeased(deps.store.engine, lease, intent.id, deps.log, () =>
        deps.gatewayFor(intent).refund({
          transactionNo: intent.transactionNo,
          refundAmountMinor: intent.amountMinor,
          currency: intent.currency,
          settleCurrency: intent.settleCurrency,
          refundReference: intent.id,
          ...(ctx.ipnUrl ? { ipnUrl: ctx.ipnUrl } : {}),
        }),
      );
    } catch (e) {
      return recordFailure(intent, e);
    }
    // A success answer is only believed when it is about this refund: same payment, reference, amount
    // and currency as sent. Anything else is evidence of a problem, never a success.
    const mismatch = answerMismatch(intent, r);
    if (mismatch) {
      deps.log.warn('refund.answer_mismatch', { intentId: intent.id, fields: mismatch.fields.join(',') });
      return resolver.recordUnknown(
        intent,
        `The service's answer does not match the refund that was sent (${mismatch.text}). Whether, and how much, was refunded is not known: check this payment before doing anything else.`,
      );
    }
    return resolver.recordAnswer(intent, {
      refundTransactionNo: r.refundTransactionNo,
      status: r.status,
    });
  }

  function recordFailure(intent: Intent, e: unknown): Promise<Intent> {
    const f = classifyFailure(e);
    if (f.outcome === 'rejected')
      return resolver.recordRejected(intent, {
        ...(f.retCode ? { retCode: f.retCode } : {}),
        ...(f.retMsg ? { retMsg: f.retMsg } : {}),
        detail: f.detail,
      });
    // Timeout, dropped connection, 5xx, unreadable body: the refund may or may not exist. Never resend.
    const detail = f.detail;
    deps.log.warn('refund.outcome_unknown', { intentId: intent.id, transactionNo: intent.transactionNo });
    return resolver.recordUnknown(intent, detail);
  }

  /** Four-eyes needs a team database: a single desk has no second person to approve. */
  function team() {
    const a = deps.store.approvals;
    if (!a)
      throw new AppError(
        'invalid_input',
        'Approvals need a team database: this desk keeps its refunds alone, so no refund waits for a second person here.',
        { details: { moneyMoved: 'no' } },
      );
    return a;
  }

  /** A request the named profile may act on (its account's), or not_found in words. */
  async function ownRequest(profileId: string, id: string): Promise<Intent> {
    const request = await ownIntent(profileId, id);
    if (!request || !request.approval)
      throw new AppError(
        'not_found',
        `There is no refund request ${id} for this account. Refresh the list of requests.`,
        { details: { moneyMoved: 'no', intentId: id } },
      );
    return request;
  }

  /**
   * Approve and send in one action. Like a refund: a fresh query of the payment, then ONE decision that
   * re-reads the payment's refunds (the request aside), refuses if another is open or the request now
   * exceeds what remains (the payment changed since it was asked), asks the same confirmations, and
   * approves AND claims the request for sending with this desk's lease — the database refuses the
   * requester, a checker above their limit and an expired request in its own words. Only after that
   * commits does the request leave, by the same path as any refund (never resent; unknown → by query).
   */
  async function approveAndSend(input: ApproveInput): Promise<Intent> {
    refuseIfUntrusted();
    team();
    const ctx = deps.context(input.profileId);
    const request = await ownRequest(input.profileId, input.id);
    const key = `${request.merchantNo}:${request.storeNo}:${request.transactionNo}`;
    return lock.tryRun(
      key,
      () => approveNow(ctx, request, input),
      () => {
        throw new AppError(
          'conflict',
          'A refund for this payment is already being submitted. Nothing else was sent.',
          { details: { moneyMoved: 'no' } },
        );
      },
    );
  }

  async function approveNow(ctx: RefundContext, request: Intent, input: ApproveInput): Promise<Intent> {
    const base = {
      operator: ctx.operator,
      profileId: ctx.profileId,
      profileName: ctx.profileName,
      environment: request.environment,
      transactionNo: request.transactionNo,
      amountMinor: request.amountMinor,
      currency: request.currency,
      reasonCode: request.reasonCode,
      reasonNote: request.reasonNote,
    };
    const refuse = async (
      code: 'conflict' | 'invalid_input' | 'unavailable',
      message: string,
      details?: Record<string, unknown>,
    ): Promise<never> => {
      await audit({ ...base, intentId: request.id, detail: message }, 'refused');
      throw new AppError(code, `${message} Nothing was sent.`, {
        details: { moneyMoved: 'no', intentId: request.id, ...details },
      });
    };
    if (
      input.account &&
      (input.account.baseUrl !== ctx.baseUrl || input.account.merchantNo !== ctx.merchantNo)
    )
      await refuse(
        'conflict',
        `The profile “${ctx.profileName}” now points at ${ctx.baseUrl || 'another address'} as merchant ${ctx.merchantNo}, not the account you confirmed. Close this and start again from the request.`,
        { ownerProfileId: ctx.profileId },
      );
    if (request.state !== 'awaiting_approval' && request.state !== 'approved')
      await refuse(
        'conflict',
        `Request ${request.id} is ${request.state.replace('_', ' ')}: it cannot be approved.`,
        {
          state: request.state,
        },
      );

    let tx: Transaction;
    try {
      tx = (await deps.gatewayFor(request).queryTransaction({ transactionNo: request.transactionNo }))
        .transaction;
    } catch (e) {
      await audit(
        {
          ...base,
          intentId: request.id,
          detail: `The fresh check before approving failed: ${isAppError(e) ? e.message : 'unexpected error'}`,
        },
        'refused',
      );
      throw e;
    }
    const blocker = refundBlocker(tx);
    if (blocker) await refuse('conflict', blocker, { blocked: true });
    if (tx.status !== 'success')
      await refuse(
        'conflict',
        `This payment's status is now “${tx.status}”; only successful payments can be refunded.`,
        { status: tx.status },
      );
    if (tx.currency !== request.currency)
      await refuse(
        'conflict',
        `The request's currency ${request.currency} does not match the payment's ${tx.currency}.`,
      );

    let claimed: Intent;
    try {
      const account = {
        environment: request.environment,
        baseUrl: request.baseUrl,
        merchantNo: request.merchantNo,
        storeNo: request.storeNo,
      };
      const scope = { account, transactionNo: tx.transactionNo, currency: tx.currency };
      claimed = await deps.store.decide(scope, async (db) => {
        const intents = await db.forPayment(request.merchantNo, request.storeNo, tx.transactionNo);
        const others = intents.filter((i) => i.id !== request.id);
        const open = others.find((i) => OPEN_STATES.has(i.state));
        if (open) throw refusalForOpen(open);
        // What remains without the request itself (it counts against what remains while it waits).
        const remaining = remainingFor(tx, others);
        if (request.amountMinor > remaining)
          throw new Refusal(
            'conflict',
            `The payment changed since this request was made: it asks ${formatMinor(request.amountMinor, request.currency)} ${request.currency}, but only ${formatMinor(Math.max(0, remaining), tx.currency)} ${tx.currency} remains refundable. Decline it with this reason; the requester makes a new request if more is owed.`,
            { remainingMinor: remaining },
          );
        const { from, to } = localDayBounds(deps.clock.now());
        // Today's total without the request itself, which counts while it waits.
        const mine = request.createdAt >= from && request.createdAt < to ? request.amountMinor : 0;
        const need = missingConfirmations({
          amountMinor: request.amountMinor,
          currency: request.currency,
          moneyMode: moneyModeOf(ctx.environment, ctx.baseUrl, ctx.loopbackMoneyMode),
          todayTotalMinor: Math.max(0, (await todayTotal(ctx, tx.currency, db)) - mine),
          guardrails: ctx.guardrails,
          confirmation: input.confirmation,
        });
        if (need.missing.length > 0)
          throw new Refusal(
            'invalid_input',
            `This refund needs an extra confirmation${need.reasons.length ? `: ${need.reasons.join('; ')}` : ''}.`,
            { requires: need.missing, reasons: need.reasons },
          );
        if (!db.approvals) throw new Refusal('unavailable', 'This store has no approvals.');
        return db.approvals.approveAndClaim(request.id, lease, iso());
      });
    } catch (e) {
      if (e instanceof Refusal) return refuse(e.code, e.message, e.details);
      if (e instanceof UnreadableIntentError) return refuse('conflict', e.message, { intentId: e.intentId });
      if (isAppError(e) && e.details?.moneyMoved === 'no') {
        // The database's refusal (own request, above the checker's limit, expired…): its own words.
        await audit({ ...base, intentId: request.id, detail: e.message }, 'refused');
        throw e;
      }
      throw e;
    }
    deps.log.info('refund.approved_and_claimed', { intentId: claimed.id });
    deps.onChange?.(claimed);
    // Sent as every refund is: the intent is committed as `sending`, this desk the sender.
    return send(
      { ...claimed, settleCurrency: claimed.settleCurrency ?? tx.settleCurrency ?? tx.currency },
      ctx,
    );
  }

  /** Declines (a checker) or cancels (its requester) a request, with a comment; nothing is sent. */
  async function closeRequest(
    how: 'reject' | 'cancel',
    profileId: string,
    id: string,
    comment: string,
  ): Promise<Intent> {
    const approvals = team();
    const request = await ownRequest(profileId, id);
    if (comment.trim().length === 0)
      throw new AppError(
        'invalid_input',
        `Say why the request is ${how === 'reject' ? 'declined' : 'cancelled'} (a comment is required).`,
        {
          details: { moneyMoved: 'no' },
        },
      );
    const closed = await approvals[how](request.id, comment.trim());
    deps.onChange?.(closed);
    return closed;
  }

  /** An unreadable database lists nothing: that is "cannot be read", never "0 refunds". */
  function readable(what: string): void {
    const why = deps.unreadable?.();
    if (why)
      throw new AppError(
        'unavailable',
        `Refund Desk cannot read its database, so its ${what} cannot be shown. ${why}`,
        { details: { storage: 'unreadable' } },
      );
  }

  return {
    /** Fresh numbers for the dialog: status, remaining (service + this account's intents), limits. */
    preview,
    submit,
    /** Four-eyes (team database): approve another person's request and send it, in one action. */
    approveAndSend,
    /** A checker declines another person's request, with a comment: nothing is sent. */
    reject: (profileId: string, id: string, comment: string) =>
      closeRequest('reject', profileId, id, comment),
    /** The requester withdraws their request, with a comment: nothing is sent. */
    cancel: (profileId: string, id: string, comment: string) =>
      closeRequest('cancel', profileId, id, comment),
    /**
     * Requests awaiting approval (or approved and about to be sent) for the profile's account, oldest
     * first; none on a single desk, which has no four-eyes.
     */
    openRequests: async (profileId?: string): Promise<Intent[]> => {
      const approvals = deps.store.approvals;
      if (!approvals) return [];
      const open = await approvals.open();
      return profileId === undefined ? open : open.filter((i) => belongs(i, profileId));
    },
    /**
     * Who may approve one of the profile's requests: other people with the checker role whose limit
     * covers it (the requester's screen says whom to ask; approving still decides).
     */
    approvers: async (profileId: string, id: string): Promise<string[]> => {
      const approvals = team();
      const request = await ownRequest(profileId, id);
      return approvals.approvers({
        currency: request.currency,
        amountMinor: request.amountMinor,
        requestedBy: request.approval!.requestedBy,
      });
    },
    /** Who this desk is in the team database (login, groups, limits), or that it is a single desk. */
    whoAmI: async (): Promise<WhoAmI> => {
      const approvals = deps.store.approvals;
      return approvals ? { team: true, ...(await approvals.whoAmI()) } : { team: false };
    },
    /**
     * Re-queries the service for an intent whose outcome is unknown (or follows an accepted one), for
     * the profile the screen shows: another profile's refund is refused.
     */
    checkAgain: async (profileId: string, id: string) => {
      await ownIntent(profileId, id);
      return resolver.resolve(id);
    },
    /**
     * Closes an unknown refund the service never listed, as not sent — typed confirmation, enough checks
     * over enough time (the intent's profile's policy), and one more query first.
     */
    async closeNotSent(profileId: string, id: string, confirmation: string): Promise<Intent> {
      if (confirmation.trim().toUpperCase() !== CLOSE_CONFIRMATION)
        return Promise.reject(
          new AppError(
            'invalid_input',
            `Type ${CLOSE_CONFIRMATION} to confirm that this refund was never sent.`,
            {
              details: { requires: ['typed_confirmation'] },
            },
          ),
        );
      const intent = await ownIntent(profileId, id);
      // The profile's policy raised to the floor (the resolver raises it again: settings are not trusted).
      const policy = intent ? views.policyFor(intent) : closePolicyAtFloor(DEFAULT_UNKNOWN_CLOSE);
      return resolver.closeNotSent(id, { operator: deps.context(profileId).operator, policy });
    },
    /** One profile's intents (sent with it or to its account), or every profile's: one scoped query. */
    list: async (profileId?: string) => {
      readable('refunds');
      return deps.store.list(
        profileId === undefined ? undefined : deps.ownerOf ? deps.ownerOf(profileId) : { profileId },
      );
    },
    /** An intent as a person sees it: with when it may be closed, or who closed it (views.ts). */
    view: views.view,
    views: views.views,
    unfinished: () => deps.store.unfinished(),
    get: (id: string) => deps.store.get(id),
    audit: async (profileId?: string) => {
      readable('audit log');
      return deps.store.audit.list(profileId);
    },
    /** On start: every intent not final resumes where it was, by query — never by assumption. */
    resumeAll: () => resolver.resumeAll(),
    /** Resolves by query the intents whose sending process stopped before recording an answer. */
    sweepOrphans: () => resolver.sweepOrphans(),
    /** Follows accepted, not-yet-final refunds one step (poller and IPN hints call this). */
    track: (transactionNo?: string) => resolver.trackAccepted(transactionNo),
    /**
     * Asks the service about every refund closed as not sent in the last CLOSED_WATCH_MS whose interval
     * has passed; one it lists becomes the refund it was (the runtime's watcher calls this).
     */
    watchClosed: () => resolver.watchClosed(),
  };
}
export type RefundService = ReturnType<typeof createRefundService>;
