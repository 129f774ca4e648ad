/**
 * Executing a refund batch: every row its own decision through the one refund service (fresh query,
 * open refunds, what remains, limits — decided in the database transaction, committed before the
 * request leaves), each row exactly once.
 *
 * - Starting reads the file and runs the dry run again in main (nothing the screen worked out is
 *   trusted); the batch and every row, with its row key, are written before anything is sent. The same
 *   file of the same account with an unfinished batch resumes that batch instead.
 * - Rows of one payment run one after another (never two requests in flight for a payment); payments
 *   run side by side, as many as the profile's adaptive limiter allows (shared with batch queries).
 * - A row is marked `sending` before its refund is decided, and its intent carries the row key, so a
 *   crash anywhere leaves evidence: on resume a `sending` row with a committed intent is that refund
 *   (settled by query through the resolver, waiting out the dead sender's lease — never resent); one
 *   without is sent now (its decision never committed, so nothing left).
 * - The refund service refuses a row whose key an intent of the payment already carries (inside the
 *   transaction), so two batches — or two processes — with the same row cannot both send it.
 * - One process runs a batch at a time (a lease on the batch); pause stops taking rows, cancel skips
 *   the rest; progress events carry an ETA.
 * - Team mode (the store has `approvals`; the batch is the team database's, so any desk of the account
 *   sees, resumes or approves it — with its own profile for that account): the database decides when the
 *   batch is created whether its total per currency is above the account's approval policy; then it is
 *   `awaiting_approval` and nothing is sent until a checker other than its starter approves it as a
 *   whole (`approve`), and the approver's desk runs it. Rows whose single refund would need approval
 *   (`needs_approval` in the dry run) are part of the batch: their amount counts in its total, so a batch
 *   holding one is always above the policy and approved as a whole — no row is ever requested one by one.
 */
import { createHash } from 'node:crypto';
import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import type { BatchExecutedRow, BatchReport, BatchStatus } from '../../../../shared/batch/execution';
import { MOVING_CLASSES, movingTotals, type BatchRowResult } from '../../../../shared/batch/result';
import { totalsTyped } from '../../../../shared/batch/typed-totals';
import { sameAccount } from '../../../../shared/domain/account';
import type { AdaptiveLimiter } from '../gateway/adaptive-limit';
import { createAdaptiveLimiter, outcomeOf } from '../gateway/adaptive-limit';
import type { Clock, Logger } from '../ports';
import type { AuditEntry } from '../refunds/audit';
import type { Intent } from '../refunds/intent';
import type { RefundService } from '../refunds/service';
import type { BatchDryRunOptions, BatchDryRunService, BatchFileInput, BatchProfile } from './dry-run';
import type { BatchRecord, BatchRowRecord, BatchStore, BatchTally } from './store-port';

export interface BatchExecProfile extends BatchProfile {
  operator: string;
}

export interface BatchExecDeps {
  store: BatchStore;
  dryRun: BatchDryRunService;
  refunds: Pick<RefundService, 'submit' | 'checkAgain' | 'get'>;
  profile: (profileId: string) => BatchExecProfile;
  limiterFor?: (profileId: string) => AdaptiveLimiter;
  /** The refund audit log: the batch's own entries (each row's refund has its own). */
  audit: (entry: AuditEntry) => Promise<void>;
  clock: Clock;
  log: Logger;
  newId: () => string;
  /** Who runs batches from this process (`host:pid`). */
  runner: string;
  onProgress?: (status: BatchStatus) => void;
  /**
   * How long to wait for a refund whose sender stopped (a crash) before leaving it unknown: its lease
   * must run out before the resolver may take it over. Default: the engine's lease and a little more.
   */
  settleWaitMs?: number;
  /** The batch's own lease (one runner at a time), renewed every third of it. */
  batchLeaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface BatchStartInput {
  profileId: string;
  file: BatchFileInput;
  options?: Omit<BatchDryRunOptions, 'onProgress' | 'signal' | 'reuseWithinMs'>;
  /** Live money: the batch's totals typed again, one per currency (`12.50 USD`). */
  typedTotals?: readonly string[];
}

const WAITING = 'awaiting_approval';
/** A batch in one of these states is over: nothing more is sent. */
const ENDED = new Set(['finished', 'cancelled', 'rejected', 'expired']);
/** The longest page of `list`. */
const LIST_MAX = 100;

/** pause: stop taking rows, batch paused; cancel: skip the rest; halt: stop, left running (host closing). */
type Stop = 'pause' | 'cancel' | 'halt';

const ROW_STATE_OPEN = new Set(['sending', 'outcome_unknown']);
const REFUNDED = new Set(['accepted', 'succeeded']);
const NOT_REFUNDED = new Set(['rejected', 'failed', 'refused']);
const MESSAGE_MAX = 700;
const PROGRESS_MS = 250;

const money = (minor: number, currency: Currency) => `${formatMinor(minor, currency)} ${currency}`;

// The live-money confirmation's rule, shared with the screen (kept exported here for callers).
export { totalsTyped };

export function createBatchExecutor(deps: BatchExecDeps) {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const settleWaitMs = deps.settleWaitMs ?? 20_000;
  const leaseMs = deps.batchLeaseMs ?? 10_000;
  /** Batches this process is running: their controls and the promise of their run. */
  const active = new Map<
    string,
    { stop?: Stop; done: Promise<void>; started: number; finishedHere: number }
  >();

  /** Whether this desk's profile may act on the batch: its own, or (team mode) any of the same account. */
  const mayAct = (b: BatchRecord, profileId: string) => {
    if (b.profileId === profileId) return true;
    try {
      const p = deps.profile(profileId);
      return sameAccount(b, {
        environment: p.environment as BatchRecord['environment'],
        baseUrl: p.baseUrl,
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
      });
    } catch {
      return false;
    }
  };

  async function own(profileId: string, batchId: string): Promise<BatchRecord> {
    const b = await deps.store.get(batchId);
    if (!b) throw new AppError('not_found', `There is no refund batch ${batchId} in this desk's database.`);
    if (!mayAct(b, profileId))
      throw new AppError(
        'conflict',
        `Refund batch ${batchId} belongs to the profile “${b.profileName}”, not to the profile this screen shows. Switch to that profile to act on it.`,
        { details: { ownerProfileId: b.profileId } },
      );
    return b;
  }

  function statusOf(b: BatchRecord, tally: readonly BatchTally[], extra: { resumed?: boolean } = {}) {
    const run = active.get(b.id);
    const s: BatchStatus = {
      batchId: b.id,
      profileId: b.profileId,
      profileName: b.profileName,
      state: b.state,
      active: run !== undefined,
      fileName: b.fileName,
      createdAt: b.createdAt,
      operator: b.operator,
      moneyMode: b.facts.moneyMode,
      dataRows: 0,
      toSend: 0,
      pending: 0,
      refunded: 0,
      refused: 0,
      unknown: 0,
      cancelled: 0,
      alreadyDone: 0,
      notUsable: 0,
      totals: b.facts.totals as BatchStatus['totals'],
      ...(b.approval ? { approval: b.approval } : {}),
      ...extra,
    };
    for (const t of tally) {
      const n = t.rows;
      s.dataRows += n;
      // needs_approval rows are the batch's work too (sent once the batch is approved as a whole).
      const moving = MOVING_CLASSES.has(t.dryClass as BatchRowResult['class']);
      if (t.dryClass === 'already_refunded') s.alreadyDone += n;
      else if (!moving) s.notUsable += n;
      if (!moving) continue;
      s.toSend += n;
      if (t.state === 'pending' || t.state === 'sending') s.pending += n;
      else if (t.state === 'refused') s.refused += n;
      else if (t.state === 'skipped') s.cancelled += n;
      else if (t.outcome && REFUNDED.has(t.outcome)) s.refunded += n;
      else if (t.outcome && NOT_REFUNDED.has(t.outcome)) s.refused += n;
      else s.unknown += n;
    }
    if (run && run.finishedHere > 0 && s.pending > 0) {
      const perRow = (deps.clock.now() - run.started) / run.finishedHere;
      s.etaMs = Math.max(0, Math.round(perRow * s.pending));
    }
    return s;
  }

  async function status(profileId: string, batchId: string): Promise<BatchStatus> {
    const b = await own(profileId, batchId);
    return statusOf(b, await deps.store.tally(b.id));
  }

  /** Progress events: after a row at most every PROGRESS_MS per batch, and always when a run ends. */
  const lastProgress = new Map<string, number>();
  const progress = async (batchId: string, force = false) => {
    if (!deps.onProgress) return;
    const now = deps.clock.now();
    if (!force && now - (lastProgress.get(batchId) ?? 0) < PROGRESS_MS) return;
    lastProgress.set(batchId, now);
    const b = await deps.store.get(batchId);
    if (b) deps.onProgress(statusOf(b, await deps.store.tally(batchId)));
  };

  async function audit(b: BatchRecord, outcome: 'batch_started' | 'batch_finished', detail: string) {
    const only = b.facts.totals.length === 1 ? b.facts.totals[0] : undefined;
    try {
      await deps.audit({
        at: iso(),
        outcome,
        operator: b.operator,
        profileId: b.profileId,
        profileName: b.profileName,
        environment: b.environment,
        intentId: b.id,
        transactionNo: '',
        amountMinor: only?.amountMinor ?? 0,
        currency: (only?.currency ?? b.facts.totals[0]?.currency ?? 'USD') as Currency,
        reasonCode: 'batch',
        reasonNote: b.fileName,
        detail: detail.slice(0, 2_000),
      });
    } catch (e) {
      deps.log.error('batch.audit_failed', { batchId: b.id, error: e instanceof Error ? e.message : '' });
    }
  }

  async function auditSkippedRow(b: BatchRecord, r: BatchRowResult) {
    const currency = r.currency ?? r.paymentCurrency;
    try {
      await deps.audit({
        at: iso(),
        outcome: 'batch_row_not_sent',
        operator: b.operator,
        profileId: b.profileId,
        profileName: b.profileName,
        environment: b.environment,
        intentId: b.id,
        transactionNo: r.transactionNo ?? '',
        amountMinor: r.requestedMinor ?? 0,
        currency: (currency ?? b.facts.totals[0]?.currency ?? 'USD') as Currency,
        reasonCode: 'batch',
        reasonNote: `${b.fileName}, line ${r.line}${r.rowRef ? ` (${r.rowRef})` : ''}`,
        detail: `Line ${r.line} not sent (${r.class.replace(/_/g, ' ')}): ${r.message ?? ''}`.slice(0, 2_000),
      });
    } catch (e) {
      deps.log.error('batch.audit_failed', { batchId: b.id, error: e instanceof Error ? e.message : '' });
    }
  }

  const totalsText = (b: BatchRecord) =>
    b.facts.totals.length === 0
      ? 'nothing to refund'
      : b.facts.totals
          .map((t) => `${money(t.amountMinor, t.currency as Currency)} in ${t.rows} row(s)`)
          .join('; ');

  async function start(input: BatchStartInput): Promise<BatchStatus> {
    const profile = deps.profile(input.profileId);
    const fileDigest = createHash('sha256').update(input.file.bytes).digest('hex');
    // The same file of the same account, not finished: that batch resumes (never a second one beside it);
    // one awaiting approval is answered as it is (nothing is sent until a checker approves it).
    const same = (await deps.store.unfinished(profile)).find(
      (b) => b.fileDigest === fileDigest && mayAct(b, profile.profileId),
    );
    if (same) {
      if (same.state === 'paused') await deps.store.setState(same.id, 'running', iso());
      if (same.state !== WAITING) launch(same.id, profile.profileId);
      return statusOf((await deps.store.get(same.id))!, await deps.store.tally(same.id), { resumed: true });
    }
    const dry = await deps.dryRun.dryRun(input.profileId, input.file, input.options ?? {});
    const totals = movingTotals(dry);
    if (dry.moneyMode === 'live' && totals.length > 0 && !totalsTyped(totals, input.typedTotals))
      throw new AppError(
        'invalid_input',
        `This profile moves real money: type the batch's total${totals.length > 1 ? 's' : ''} to confirm (${totals.map((t) => money(t.amountMinor, t.currency)).join(', ')}). If it differs from what you confirmed, the payments changed since: run the dry run again. Nothing was sent.`,
        { details: { moneyMoved: 'no', requires: ['typed_total'] } },
      );
    const at = iso();
    const batch: BatchRecord = {
      id: deps.newId(),
      profileId: profile.profileId,
      profileName: profile.profileName,
      environment: profile.environment as BatchRecord['environment'],
      baseUrl: profile.baseUrl,
      merchantNo: profile.merchantNo,
      storeNo: profile.storeNo,
      fileName: dry.file.name,
      fileDigest,
      operator: profile.operator,
      state: 'running',
      createdAt: at,
      updatedAt: at,
      facts: {
        moneyMode: dry.moneyMode,
        checkedAt: dry.checkedAt,
        mapping: dry.mapping as Record<string, unknown>,
        dataRows: dry.dataRows,
        counts: dry.counts,
        totals,
      },
    };
    const rows: BatchRowRecord[] = dry.rows.map((r) => ({
      batchId: batch.id,
      line: r.line,
      state: MOVING_CLASSES.has(r.class) ? 'pending' : 'skipped',
      dry: r,
    }));
    const stored = await deps.store.create(batch, rows);
    const toSend = dry.counts.will_refund + dry.counts.needs_approval;
    await audit(
      stored,
      'batch_started',
      `Refund batch ${batch.id} from ${batch.fileName} (SHA-256 ${fileDigest.slice(0, 16)}…): ${dry.dataRows} data rows, ${toSend} to refund (${totalsText(batch)}), ${dry.counts.already_refunded} already refunded by an earlier batch, ${dry.dataRows - toSend - dry.counts.already_refunded} refused or unusable.${stored.state === WAITING ? ' Above the approval limit: waiting for a checker to approve it as a whole; nothing was sent.' : ''}`,
    );
    // Every row has its audit entry: a row that is sent has its refund's own; one the batch will not send
    // (refused by the dry run, unusable, already refunded) gets one saying why, under the batch's id.
    for (const r of dry.rows) if (!MOVING_CLASSES.has(r.class)) await auditSkippedRow(stored, r);
    if (stored.state !== WAITING) launch(batch.id, profile.profileId);
    return statusOf(stored, await deps.store.tally(batch.id));
  }

  /**
   * Four-eyes for a batch as a whole (team mode): the database approves it — or refuses its starter, a
   * checker whose limit does not cover its total in every currency, an expired or no longer waiting
   * batch, in its own words — and this desk (the approver's) runs it. On live money the approver types
   * the totals again, as the starter did. A batch this person approved whose run stopped is resumed.
   */
  async function approve(profileId: string, batchId: string, typedTotals?: readonly string[]) {
    const approvals = deps.store.approvals;
    if (!approvals)
      throw new AppError(
        'invalid_input',
        'Approvals need a team database: this desk keeps its batches alone, so no batch waits for a second person here.',
        { details: { moneyMoved: 'no' } },
      );
    const b = await own(profileId, batchId);
    if (b.state === 'running' && b.approval?.approvedBy) {
      launch(b.id, profileId);
      return { ...(await status(profileId, batchId)), resumed: true };
    }
    if (b.state === 'expired') throw expiredError(b);
    if (b.state !== WAITING)
      throw new AppError(
        'conflict',
        `Refund batch ${batchId} is ${b.state}, not awaiting approval. Nothing was sent.`,
        {
          details: { moneyMoved: 'no', state: b.state },
        },
      );
    const totals = b.facts.totals as { currency: Currency; amountMinor: number }[];
    if (b.facts.moneyMode === 'live' && totals.length > 0 && !totalsTyped(totals, typedTotals))
      throw new AppError(
        'invalid_input',
        `This batch moves real money: type its total${totals.length > 1 ? 's' : ''} to approve it (${totals.map((t) => money(t.amountMinor, t.currency)).join(', ')}). Nothing was sent.`,
        { details: { moneyMoved: 'no', requires: ['typed_total'] } },
      );
    const approved = await approvals.approve(batchId);
    if (approved.state === 'expired') throw expiredError(approved);
    deps.log.info('batch.approved', { batchId, by: approved.approval?.approvedBy ?? '' });
    launch(approved.id, profileId);
    return statusOf(approved, await deps.store.tally(batchId));
  }

  /** Said when a batch was not approved in time (the database marked it expired on its clock). */
  function expiredError(b: BatchRecord): AppError {
    const when = b.approval?.expiresAt ? ` at ${b.approval.expiresAt} (server time)` : '';
    return new AppError(
      'conflict',
      `Refund batch ${b.id} expired${when} before a checker approved it: nothing was sent. Its starter opens the file again to start a new batch.`,
      { details: { moneyMoved: 'no', state: 'expired' } },
    );
  }

  /**
   * Four-eyes, the other answer (team mode): a checker other than the starter rejects the batch with a
   * comment; the database refuses the starter, a person who is not a checker and a blank comment, and
   * marks the batch's rows refused (`declined`). Nothing is sent.
   */
  async function reject(profileId: string, batchId: string, comment: string): Promise<BatchStatus> {
    const approvals = deps.store.approvals;
    if (!approvals)
      throw new AppError(
        'invalid_input',
        'Approvals need a team database: this desk keeps its batches alone, so no batch waits for a second person here.',
        { details: { moneyMoved: 'no' } },
      );
    const said = comment.trim();
    if (!said)
      throw new AppError('invalid_input', 'Say why the batch is rejected (a comment is required).', {
        details: { moneyMoved: 'no' },
      });
    const b = await own(profileId, batchId);
    if (b.state === 'expired') throw expiredError(b);
    const rejected = await approvals.reject(batchId, said);
    if (rejected.state === 'expired') throw expiredError(rejected);
    deps.log.info('batch.rejected', { batchId, by: rejected.approval?.closedBy ?? '' });
    return statusOf(rejected, await deps.store.tally(batchId));
  }

  /**
   * The account's batches, newest first, a page at a time (`before`: the last batch id of the previous
   * page), with each one's counts and totals; `awaitingApproval` only those waiting for a checker.
   */
  async function list(
    profileId: string,
    q: { limit?: number; before?: string; awaitingApproval?: boolean } = {},
  ): Promise<{ batches: BatchStatus[]; next?: string }> {
    const profile = deps.profile(profileId);
    const limit = Math.min(LIST_MAX, Math.max(1, q.limit ?? 20));
    const after = q.before ? await deps.store.get(q.before) : undefined;
    const page = await deps.store.list(profile, {
      limit: limit + 1,
      ...(after ? { before: { createdAt: after.createdAt, id: after.id } } : {}),
      ...(q.awaitingApproval ? { state: WAITING } : {}),
    });
    const more = page.length > limit;
    const shown = page.slice(0, limit);
    const batches: BatchStatus[] = [];
    // Another account's batch on the same merchant and store (another environment or address) is not shown.
    for (const b of shown) if (mayAct(b, profileId)) batches.push(statusOf(b, await deps.store.tally(b.id)));
    return { batches, ...(more && shown.length > 0 ? { next: shown.at(-1)!.id } : {}) };
  }

  /**
   * Runs the batch in the background (once per process) with this desk's profile for its account;
   * errors are logged and leave it resumable.
   */
  function launch(batchId: string, profileId: string): void {
    if (active.has(batchId)) return;
    const entry = { started: deps.clock.now(), finishedHere: 0 } as {
      stop?: Stop;
      done: Promise<void>;
      started: number;
      finishedHere: number;
    };
    active.set(batchId, entry);
    entry.done = run(batchId, entry, profileId)
      .catch((e: unknown) =>
        deps.log.error('batch.run_failed', { batchId, error: e instanceof Error ? e.message : String(e) }),
      )
      .finally(() => {
        active.delete(batchId);
        lastProgress.delete(batchId);
        void progress(batchId, true).catch(() => undefined);
      });
  }

  async function run(batchId: string, ctl: { stop?: Stop; finishedHere: number }, profileId: string) {
    // One runner per batch: a dead runner's lease runs out within batchLeaseMs, then this one takes it.
    const until = deps.clock.now() + leaseMs * 2 + 1_000;
    while (!(await deps.store.claim(batchId, deps.runner, deps.clock.now(), deps.clock.now() + leaseMs))) {
      if (deps.clock.now() > until || ctl.stop) {
        deps.log.warn('batch.claim_failed', { batchId });
        return;
      }
      await sleep(250);
    }
    const renew = setInterval(
      () =>
        void deps.store
          .claim(batchId, deps.runner, deps.clock.now(), deps.clock.now() + leaseMs)
          .catch(() => undefined),
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renew.unref?.();
    try {
      const stored = await deps.store.get(batchId);
      if (!stored || stored.state !== 'running') return;
      // Every refund of this run goes through this desk's own profile for the batch's account.
      const batch = { ...stored, profileId };
      await recover(batch);
      // What a crash left open is settled before any other row of its payment is tried.
      await settleOpen(batch);
      await execute(batch, ctl);
      await settleOpen(batch);
      const after = await deps.store.get(batchId);
      if (!after || ctl.stop === 'halt') return;
      if (ctl.stop === 'pause') {
        await deps.store.setState(batchId, 'paused', iso());
        return;
      }
      if (ctl.stop === 'cancel')
        for (const r of await deps.store.rows(batchId))
          if (r.state === 'pending')
            await deps.store.moveRow(batchId, r.line, ['pending'], 'skipped', {
              outcome: 'cancelled',
              detail: 'The batch was cancelled before this row was sent.',
            });
      const final = statusOf(after, await deps.store.tally(batchId));
      if (final.pending > 0 && ctl.stop !== 'cancel') return; // left for the next run (a row still being decided)
      const end = ctl.stop === 'cancel' ? 'cancelled' : 'finished';
      await deps.store.setState(batchId, end, iso());
      await audit(
        { ...after, profileId },
        'batch_finished',
        `Refund batch ${batchId} ${end}: ${final.refunded} refunded, ${final.refused} refused or rejected, ${final.unknown} of unknown outcome, ${final.cancelled} cancelled, ${final.alreadyDone} already refunded earlier, ${final.notUsable} not usable.`,
      );
    } finally {
      clearInterval(renew);
      await deps.store.release(batchId, deps.runner).catch(() => undefined);
    }
  }

  /**
   * What a crash left: a row `sending` whose intent committed is that refund (sent, settled below);
   * one whose intent never committed was never sent and goes back to pending.
   */
  async function recover(batch: BatchRecord): Promise<void> {
    for (const r of await deps.store.rows(batch.id)) {
      if (r.state !== 'sending') continue;
      const intentId = r.dry.key ? await deps.store.intentOfRow(batch, batch.id, r.dry.key) : undefined;
      if (intentId) {
        const i = await deps.refunds.get(intentId);
        await deps.store.moveRow(batch.id, r.line, ['sending'], 'sent', {
          intentId,
          outcome: i?.state ?? 'outcome_unknown',
          ...(i ? executedBy(i) : {}),
        });
      } else await deps.store.moveRow(batch.id, r.line, ['sending'], 'pending', {});
    }
  }

  const executedBy = (i: Intent) => ({ at: i.createdAt, operator: i.operator });

  /** Every refund of the batch whose outcome is open is settled by query (never resent). */
  async function settleOpen(batch: BatchRecord): Promise<void> {
    const open = (await deps.store.rows(batch.id)).filter(
      (r) => r.state === 'sent' && r.intentId && (!r.outcome || ROW_STATE_OPEN.has(r.outcome)),
    );
    await Promise.all(
      open.map(async (r) => {
        const i = await settle(batch.profileId, r.intentId!);
        if (i)
          await deps.store.moveRow(batch.id, r.line, ['sent'], 'sent', {
            intentId: i.id,
            outcome: i.state,
            ...executedBy(i),
            ...(i.detail ? { detail: i.detail.slice(0, MESSAGE_MAX) } : {}),
          });
      }),
    );
  }

  /** Asks by query until the refund is no longer `sending` (its dead sender's lease must run out first). */
  async function settle(profileId: string, intentId: string): Promise<Intent | undefined> {
    const until = deps.clock.now() + settleWaitMs;
    for (;;) {
      let i: Intent | undefined;
      try {
        i = await deps.refunds.checkAgain(profileId, intentId);
      } catch (e) {
        deps.log.warn('batch.settle_failed', { intentId, error: e instanceof Error ? e.message : '' });
        return deps.refunds.get(intentId);
      }
      if (i.state !== 'sending' || deps.clock.now() > until) return i;
      await sleep(500);
    }
  }

  async function execute(batch: BatchRecord, ctl: { stop?: Stop; finishedHere: number }) {
    const pending = (await deps.store.rows(batch.id)).filter((r) => r.state === 'pending');
    // Rows of one payment, in file order, one after another.
    const byPayment = new Map<string, BatchRowRecord[]>();
    for (const r of pending) {
      const k = r.dry.transactionNo ?? `line:${r.line}`;
      const list = byPayment.get(k);
      if (list) list.push(r);
      else byPayment.set(k, [r]);
    }
    const groups = [...byPayment.values()];
    const limiter =
      deps.limiterFor?.(batch.profileId) ?? createAdaptiveLimiter({ clock: deps.clock, max: 8 });
    let next = 0;
    const worker = async () => {
      while (next < groups.length && !ctl.stop) {
        const group = groups[next]!;
        next += 1;
        for (const row of group) {
          if (ctl.stop) return;
          const slot = await limiter.acquire();
          if (!slot) return;
          let failure: unknown;
          try {
            await executeRow(batch, row);
          } catch (e) {
            failure = e;
            deps.log.error('batch.row_failed', {
              batchId: batch.id,
              line: row.line,
              error: e instanceof Error ? e.message : String(e),
            });
          } finally {
            slot.release(outcomeOf(failure));
          }
          ctl.finishedHere += 1;
          void progress(batch.id).catch(() => undefined);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(limiter.max, groups.length) }, worker));
  }

  async function executeRow(batch: BatchRecord, row: BatchRowRecord): Promise<void> {
    const d: BatchRowResult = row.dry;
    if (!(await deps.store.moveRow(batch.id, row.line, ['pending'], 'sending', {}))) return;
    const at = iso();
    try {
      const intent = await deps.refunds.submit({
        profileId: batch.profileId,
        transactionNo: d.transactionNo!,
        amountMinor: d.amountMinor!,
        currency: d.currency!,
        reasonCode: 'other',
        reasonNote: d.reason ?? '',
        // The batch's one confirmation was given when it started (typed totals on live money); each row
        // is the amount that confirmation showed. Limits are not passed: a row above them is refused.
        confirmation: { typedAmount: formatMinor(d.amountMinor!, d.currency!) },
        account: { baseUrl: batch.baseUrl, merchantNo: batch.merchantNo },
        // An approved batch's rows are not requested one by one: the database checks the approval (v5).
        batch: {
          id: batch.id,
          line: row.line,
          rowKey: d.key!,
          ...(batch.approval?.approvedBy ? { approved: true } : {}),
        },
      });
      await deps.store.moveRow(batch.id, row.line, ['sending'], 'sent', {
        intentId: intent.id,
        outcome: intent.state,
        ...executedBy(intent),
        ...(intent.detail ? { detail: intent.detail.slice(0, MESSAGE_MAX) } : {}),
      });
    } catch (e) {
      const details = isAppError(e) ? e.details : undefined;
      const message = (isAppError(e) ? e.message : 'unexpected error').slice(0, MESSAGE_MAX);
      if (details?.['moneyMoved'] === 'no' && details['alreadyDone'] === true) {
        // Another batch (or process) sent this very row: it is that refund, not a refusal.
        const i = await deps.refunds.get(String(details['intentId']));
        await deps.store.moveRow(batch.id, row.line, ['sending'], 'sent', {
          intentId: String(details['intentId']),
          outcome: i?.state ?? 'outcome_unknown',
          ...(i ? executedBy(i) : {}),
          detail: message,
        });
        return;
      }
      // Whatever the error, the database says whether this row's refund committed: if it did, it is that
      // refund (settled by query); if not, nothing was sent and the row is refused with the reason.
      const intentId = d.key ? await deps.store.intentOfRow(batch, batch.id, d.key) : undefined;
      if (intentId) {
        const i = await deps.refunds.get(intentId);
        await deps.store.moveRow(batch.id, row.line, ['sending'], 'sent', {
          intentId,
          outcome: i?.state ?? 'outcome_unknown',
          ...(i ? executedBy(i) : {}),
          detail: message,
        });
        return;
      }
      await deps.store.moveRow(batch.id, row.line, ['sending'], 'refused', {
        outcome: 'refused',
        detail: message,
        at,
        operator: batch.operator,
      });
    }
  }

  async function report(profileId: string, batchId: string): Promise<BatchReport> {
    const b = await own(profileId, batchId);
    const rows = await deps.store.rows(b.id);
    const out: BatchExecutedRow[] = [];
    for (const r of rows) {
      // The refund's state now (it may have settled since the row was written).
      const i = r.intentId ? await deps.refunds.get(r.intentId) : undefined;
      const outcome = i?.state ?? r.outcome;
      // Why, for a row that did not end refunded: its refusal, the refund's own words, or the dry run's.
      const message =
        r.state === 'refused' || r.outcome === 'cancelled'
          ? r.detail
          : r.state === 'sent' && outcome && !REFUNDED.has(outcome)
            ? (i?.detail ?? i?.retMsg ?? r.detail ?? r.dry.message)
            : r.dry.message;
      out.push({
        ...r.dry,
        ...(message ? { message: message.slice(0, MESSAGE_MAX) } : {}),
        ...(outcome ? { outcome } : {}),
        ...(i?.refundTransactionNo ? { refundTransactionNo: i.refundTransactionNo } : {}),
        ...(r.intentId ? { intentId: r.intentId } : {}),
        ...(r.at ? { at: r.at } : {}),
        ...(r.operator ? { operator: r.operator } : {}),
      });
    }
    return { status: statusOf(b, await deps.store.tally(b.id)), rows: out };
  }

  async function control(profileId: string, batchId: string, what: 'pause' | 'cancel') {
    const b = await own(profileId, batchId);
    if (b.state === 'expired') throw expiredError(b);
    if (ENDED.has(b.state)) throw new AppError('conflict', `Refund batch ${batchId} is already ${b.state}.`);
    if (b.state === WAITING && what === 'pause')
      throw new AppError(
        'conflict',
        `Refund batch ${batchId} is awaiting approval: nothing is being sent. Cancel it to withdraw it.`,
      );
    const run = active.get(batchId);
    if (run) {
      run.stop = what;
      await run.done;
    } else if (what === 'pause') await deps.store.setState(batchId, 'paused', iso());
    else {
      // Waiting for approval: the database says first whether this person may withdraw it (its starter
      // only), so a refusal leaves every row as it was.
      if (b.state === WAITING) await deps.store.setState(batchId, 'cancelled', iso());
      // Not running here (paused, or its process stopped): nothing in flight from this process. Rows
      // another process took (`sending`) are left to recovery; pending ones are skipped now.
      for (const r of await deps.store.rows(batchId))
        if (r.state === 'pending')
          await deps.store.moveRow(batchId, r.line, ['pending'], 'skipped', {
            outcome: 'cancelled',
            detail: 'The batch was cancelled before this row was sent.',
          });
      await deps.store.setState(batchId, 'cancelled', iso());
      await audit(b, 'batch_finished', `Refund batch ${batchId} cancelled before it ran again.`);
    }
    return status(profileId, batchId);
  }

  return {
    start,
    /** Resumes a paused (or stopped) batch where it was. */
    async resume(profileId: string, batchId: string): Promise<BatchStatus> {
      const b = await own(profileId, batchId);
      if (b.state === 'expired') throw expiredError(b);
      if (ENDED.has(b.state))
        throw new AppError('conflict', `Refund batch ${batchId} is already ${b.state}.`);
      if (b.state === WAITING)
        throw new AppError(
          'conflict',
          `Refund batch ${batchId} is awaiting approval${b.approval?.expiresAt ? ` (until ${b.approval.expiresAt})` : ''}: a checker other than ${b.approval?.startedBy ?? 'its starter'} approves it, and their desk runs it. Nothing was sent.`,
          { details: { moneyMoved: 'no', awaitingApproval: true } },
        );
      if (b.state === 'paused') await deps.store.setState(batchId, 'running', iso());
      launch(batchId, profileId);
      return { ...(await status(profileId, batchId)), resumed: true };
    },
    pause: (profileId: string, batchId: string) => control(profileId, batchId, 'pause'),
    cancel: (profileId: string, batchId: string) => control(profileId, batchId, 'cancel'),
    approve,
    reject,
    list,
    status,
    report,
    /**
     * On start (the app): every running batch of these profiles' accounts resumes where it was (in team
     * mode also one another desk left: its lease must have run out first).
     */
    async resumeRunning(profiles: ReadonlyArray<{ id: string }>) {
      for (const p of profiles) {
        const profile = deps.profile(p.id);
        for (const b of await deps.store.unfinished(profile))
          if (b.state === 'running' && mayAct(b, p.id)) launch(b.id, p.id);
      }
    },
    /** Resolves when this process has no run of the batch in progress (tests, hosts closing). */
    idle: async (batchId: string) => {
      await active.get(batchId)?.done;
    },
    async close(): Promise<void> {
      // Left running in the database: the next start resumes it where it was.
      for (const run of active.values()) run.stop ??= 'halt';
      await Promise.all([...active.values()].map((r) => r.done));
    },
  };
}

export type BatchExecutor = ReturnType<typeof createBatchExecutor>;
