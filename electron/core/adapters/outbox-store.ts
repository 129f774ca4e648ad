import { randomUUID } from 'node:crypto';
import type {
  AuditRecord,
  IntentCheck,
  IntentRecord,
  IntentStore,
  RecordPatch,
  Transition,
} from '../services/engine/port';
import type { Logger } from '../services/ports';
import type { OutboxEntry, OutboxQueue } from './sqlite/outbox-table';

/**
 * The team database's store port with a durable local outbox (issue 26 item 6): what this desk learns
 * while the database cannot be reached — the outcome of a request already committed there as `sending`,
 * a check, an audit entry — is kept in the desk's SQLite file and written there once it is back, oldest
 * first, each entry once. The services do not know: their write "succeeds" (it is durable here) and they
 * read back the intent as it will be.
 *
 * - Nothing is decided offline: `decide` and any transition TO `sending` (approve and send) are never
 *   queued; they fail as before and the services refuse with the read-only reason.
 * - Only writes about an intent this process knows (it inserted or read it) are queued: the audit entry a
 *   transition carries is computed from the intent as the transition leaves it, and is kept with it.
 * - Exactly once: every entry carries a key (`onceKey`) stamped into the row it writes (the transition's
 *   event, the check's event, the audit entry); the team database refuses a second row with that key
 *   (schema v4), so a replay after a desk died between the write and the local delete writes nothing.
 *   Guarded transitions do the rest: an entry whose guard no longer holds (another desk resolved the
 *   intent by query meanwhile) is dropped with a log line — and, when what it said disagrees with what
 *   was recorded, an audit entry saying so (`conflicting_answer`).
 * - Order: while an intent has entries waiting, its later writes wait behind them.
 */
export interface OutboxStore {
  store: IntentStore;
  /** Writes what waits, oldest first, until it is empty or the database cannot be reached again. */
  replay(): Promise<ReplayReport>;
  waiting(): number;
  /** The last error that stopped a replay (not "unreachable"), for health. */
  stuck(): string | undefined;
  /** Resolves when no replay is under way (closing waits for it). */
  idle(): Promise<void>;
}

export interface ReplayReport {
  written: number;
  dropped: number;
  left: number;
}

export interface OutboxOptions {
  queue: OutboxQueue;
  /** A failure of the connection itself (the server cannot be reached), not a refusal. */
  unreachable: (e: unknown) => boolean;
  /** Called when a write was queued because the database could not be reached (`e`): read-only starts. */
  onQueued?: (e: unknown) => void;
  log: Logger;
  now: () => number;
  /** Who replays (one process per data folder at a time). */
  holder: string;
  /** Which desk this is, in the audit entry of a disagreement. */
  deskId: string;
}

interface TransitionBody {
  id: string;
  from: string[];
  to: string;
  patch: RecordPatch;
  event: Transition['event'];
  audit: AuditRecord[];
}
interface CheckBody {
  id: string;
  check: IntentCheck & { onceKey: string };
}
interface AuditBody {
  entry: AuditRecord;
}

/** The team database's refusal of a second row with the same key: the entry was written before. */
export function isWrittenBefore(e: unknown): boolean {
  const pe = e as { code?: unknown; constraint?: unknown } | undefined;
  return pe?.code === '23505' && (pe.constraint === 'audit_once' || pe.constraint === 'intent_events_once');
}

/** RFC 7396 merge patch (the stores' `data` rule): null removes a member. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The intent as a transition leaves it (what the database will return once it is written). */
export function afterTransition(
  r: IntentRecord,
  t: Pick<Transition, 'to' | 'patch' | 'event'>,
): IntentRecord {
  const next: IntentRecord = { ...r, state: t.to, updatedAt: t.event.at };
  if (t.to !== 'sending') delete next.leaseUntil;
  for (const f of ['transactionNo', 'retCode', 'retMsg', 'detail'] as const) {
    if (!(f in t.patch)) continue;
    const v = t.patch[f];
    if (v === null || v === undefined) delete next[f];
    else next[f] = v;
  }
  if (t.patch.data && Object.keys(t.patch.data).length > 0)
    next.data = mergePatch(r.data, t.patch.data) as Record<string, unknown>;
  return next;
}

/** What the answer named (refund number, payment number): facts two desks cannot both be right about. */
function namedFacts(patch: RecordPatch): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (typeof patch.transactionNo === 'string') out.push(['transactionNo', patch.transactionNo]);
  for (const [k, v] of Object.entries(patch.data ?? {}))
    if (typeof v === 'string' && /TransactionNo$/.test(k)) out.push([k, v]);
  return out;
}

/**
 * Whether a dropped entry's outcome disagrees with the one recorded: another state, unless the entry
 * said only "unknown" or named the same refund the database has (accepted vs. succeeded are one refund).
 */
export function disagrees(
  b: Pick<TransitionBody, 'to' | 'patch'>,
  current: IntentRecord | undefined,
): boolean {
  if (!current) return true;
  const facts = namedFacts(b.patch);
  const value = (k: string) => (k === 'transactionNo' ? current.transactionNo : current.data[k]);
  if (facts.some(([k, v]) => value(k) !== v)) return true;
  if (current.state === b.to || b.to === 'outcome_unknown') return false;
  return facts.length === 0;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const auditList = (a: AuditRecord | readonly AuditRecord[] | undefined): AuditRecord[] =>
  a === undefined ? [] : ([] as AuditRecord[]).concat(a);

/**
 * How long one process's claim to replay lasts (renewed at every entry): a desk killed while replaying
 * holds up the others of its data folder for at most this long.
 */
const CLAIM_MS = 15_000;

/** How many intents' last known record this process keeps (those it inserted or changed). */
const KNOWN_MAX = 2_000;

export function withOutbox(inner: IntentStore, o: OutboxOptions): OutboxStore {
  const { queue, log } = o;
  const iso = () => new Date(o.now()).toISOString();
  /** The last record of the intents this process inserted or changed: the base of a queued write. */
  const known = new Map<string, IntentRecord>();
  const remember = (r: IntentRecord | undefined) => {
    if (!r) return r;
    known.delete(r.id);
    known.set(r.id, r);
    if (known.size > KNOWN_MAX) known.delete(known.keys().next().value!);
    return r;
  };
  let lastStuck: string | undefined;
  let running: Promise<ReplayReport> | undefined;
  /**
   * Set when a write could not reach the database; cleared when a replay is asked for from outside (the
   * supervisor listens again, the desk opens). While set, later writes of a waiting intent queue at once
   * instead of each trying the database first (an unreachable host can take the connect timeout).
   */
  let down = false;

  const queued = (e: unknown, what: Record<string, unknown>) => {
    if (o.unreachable(e)) {
      down = true;
      o.onQueued?.(e);
    }
    log.warn('team.outbox_queued', { ...what, waiting: queue.count(), error: errorText(e) });
  };

  function queueTransition(t: Transition, onceKey: string, cause: unknown): IntentRecord | undefined {
    const base = known.get(t.id);
    // Without the intent as it is, its audit entry cannot be written as it would have been: not queued.
    if (!base) throw cause;
    // The guard as this desk last saw it: a transition that would not apply is not kept either.
    if (!t.from.includes(base.state)) return undefined;
    const next = afterTransition(base, t);
    const body: TransitionBody = {
      id: t.id,
      from: [...t.from],
      to: t.to,
      patch: t.patch,
      event: { ...t.event, data: { ...t.event.data, onceKey } },
      audit: auditList(t.audit?.(next)),
    };
    queue.append({ onceKey, op: 'transition', intentId: t.id, queuedAt: iso(), body });
    queued(cause, { intentId: t.id, to: t.to });
    return remember(next);
  }

  function queueCheck(
    id: string,
    check: IntentCheck & { onceKey: string },
    cause: unknown,
  ): IntentRecord | undefined {
    const { onceKey } = check;
    const body: CheckBody = { id, check };
    queue.append({ onceKey, op: 'check', intentId: id, queuedAt: iso(), body });
    queued(cause, { intentId: id, check: true });
    const base = known.get(id);
    return (
      base &&
      remember({
        ...base,
        lastCheck: { at: check.at, found: check.found, note: check.note },
        checks: base.checks + 1,
        updatedAt: check.at,
      })
    );
  }

  function queueAudit(entry: AuditRecord, onceKey: string, cause: unknown): void {
    const body: AuditBody = { entry };
    queue.append({ onceKey, op: 'audit', intentId: entry.subjectId, queuedAt: iso(), body });
    queued(cause, { intentId: entry.subjectId, audit: entry.outcome });
  }

  /** Writes about an intent with entries waiting go after them: replay first, then decide. */
  async function behindWaiting(id: string): Promise<boolean> {
    if (!queue.has(id)) return false;
    if (down) return true;
    await replayNow().catch(() => undefined);
    return queue.has(id);
  }

  /**
   * The key goes with the first attempt too: a write whose COMMIT was cut (the server died while it
   * answered) may have been written after all, and its replay must then write nothing.
   */
  const newKey = () => `outbox:${randomUUID()}`;
  const waitingBefore = new Error('earlier writes of this intent are waiting to be written');

  async function transition(t: Transition): Promise<IntentRecord | undefined> {
    // A transition to `sending` is a decision to send (approve and send): never taken offline.
    if (t.to === 'sending') return remember(await inner.transition(t));
    const onceKey = newKey();
    const keyed = { ...t, event: { ...t.event, data: { ...t.event.data, onceKey } } };
    if (await behindWaiting(t.id)) return queueTransition(keyed, onceKey, waitingBefore);
    try {
      return remember(await inner.transition(keyed));
    } catch (e) {
      if (!o.unreachable(e)) throw e;
      return queueTransition(keyed, onceKey, e);
    }
  }

  async function noteCheck(id: string, check: IntentCheck): Promise<IntentRecord | undefined> {
    const keyed = { ...check, onceKey: newKey() };
    if (await behindWaiting(id)) return queueCheck(id, keyed, waitingBefore);
    try {
      const r = await inner.noteCheck(id, keyed);
      return known.has(id) ? remember(r) : r;
    } catch (e) {
      if (!o.unreachable(e)) throw e;
      return queueCheck(id, keyed, e);
    }
  }

  async function recordAudit(entry: AuditRecord): Promise<void> {
    const onceKey = newKey();
    const keyed = { ...entry, data: { ...entry.data, onceKey } };
    try {
      await inner.audit.record(keyed);
    } catch (e) {
      if (!o.unreachable(e)) throw e;
      queueAudit(keyed, onceKey, e);
    }
  }

  // ---- replay ---------------------------------------------------------------------------------------

  /** The audit entry saying that this desk's answer was not written because another was recorded. */
  function disagreement(e: OutboxEntry, b: TransitionBody, current: IntentRecord | undefined): AuditRecord {
    const ours = b.audit[0];
    const base = current ?? known.get(b.id);
    const named = namedFacts(b.patch)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const recorded = current ? namedFacts({ data: current.data }).map(([k, v]) => `${k} ${v}`) : [];
    const theirs = current
      ? `${current.state}${recorded.length ? ` (${recorded.join(', ')})` : ''}`
      : 'missing';
    return {
      kind: ours?.kind ?? base?.kind ?? 'refund',
      at: iso(),
      outcome: 'conflicting_answer',
      operator: ours?.operator ?? base?.operator ?? o.deskId,
      profileId: ours?.profileId ?? base?.profileId ?? '',
      profileName: ours?.profileName ?? base?.profileName ?? '',
      environment: ours?.environment ?? base?.environment ?? 'custom',
      subjectId: b.id,
      ...((ours?.transactionNo ?? base?.transactionNo)
        ? { transactionNo: ours?.transactionNo ?? base?.transactionNo }
        : {}),
      ...((ours?.amountMinor ?? base?.amountMinor) !== undefined
        ? { amountMinor: ours?.amountMinor ?? base?.amountMinor }
        : {}),
      ...((ours?.currency ?? base?.currency) ? { currency: ours?.currency ?? base?.currency } : {}),
      detail: `Desk ${o.deskId} recorded the service's answer “${b.to}${named ? ` (${named})` : ''}” at ${b.event.at} while the team database could not be reached; when it could be written, the intent was already ${theirs} (another desk resolved it). The answer was not applied: check this payment with the payment service before doing anything else.`,
      data: {
        ...(ours?.data ?? {}),
        onceKey: `${e.onceKey}:conflict`,
        queuedState: b.to,
        recordedState: current?.state ?? null,
      },
    };
  }

  async function writeOne(e: OutboxEntry): Promise<'written' | 'dropped'> {
    if (e.op === 'audit') {
      await inner.audit.record((e.body as AuditBody).entry);
      return 'written';
    }
    if (e.op === 'check') {
      const b = e.body as CheckBody;
      const r = await inner.noteCheck(b.id, b.check);
      if (known.has(b.id)) remember(r);
      return 'written';
    }
    const b = e.body as TransitionBody;
    const next = await inner.transition({
      id: b.id,
      from: b.from,
      to: b.to,
      patch: b.patch,
      event: b.event,
      audit: () => b.audit,
    });
    if (next) {
      remember(next);
      log.info('team.outbox_written', { intentId: b.id, to: b.to, queuedAt: e.queuedAt });
      return 'written';
    }
    const current = await inner.get(b.id);
    if (current) remember(current);
    const conflict = disagrees(b, current);
    log.warn('team.outbox_dropped', {
      intentId: b.id,
      to: b.to,
      recorded: current?.state ?? 'missing',
      disagrees: conflict,
      queuedAt: e.queuedAt,
    });
    if (conflict) {
      try {
        await inner.audit.record(disagreement(e, b, current));
      } catch (err) {
        if (!isWrittenBefore(err)) throw err;
      }
    }
    return 'dropped';
  }

  function replay(): Promise<ReplayReport> {
    down = false;
    return replayNow();
  }

  function replayNow(): Promise<ReplayReport> {
    running ??= (async () => {
      const report: ReplayReport = { written: 0, dropped: 0, left: 0 };
      if (queue.count() === 0 || !queue.claim(o.holder, CLAIM_MS)) {
        report.left = queue.count();
        return report;
      }
      try {
        for (let e = queue.first(); e; e = queue.first()) {
          queue.claim(o.holder, CLAIM_MS);
          try {
            const how = await writeOne(e);
            report[how] += 1;
          } catch (err) {
            if (isWrittenBefore(err)) {
              // Written by an earlier replay that died before the local delete: written once, done.
              log.info('team.outbox_written_before', { intentId: e.intentId, op: e.op });
              report.written += 1;
            } else {
              if (o.unreachable(err)) down = true;
              else {
                // Never dropped silently: kept, in order, and shown by health until someone looks.
                lastStuck = `${e.op} of ${e.intentId || 'an audit entry'}: ${errorText(err)}`;
                log.error('team.outbox_failed', { intentId: e.intentId, op: e.op, error: errorText(err) });
              }
              queue.failed(e.seq, errorText(err));
              break;
            }
          }
          queue.remove(e.seq);
          lastStuck = undefined;
        }
      } finally {
        queue.release(o.holder);
        running = undefined;
      }
      report.left = queue.count();
      if (report.written + report.dropped > 0) log.info('team.outbox_replayed', { ...report });
      return report;
    })();
    return running;
  }

  const store: IntentStore = {
    ...inner,
    decide: (scope, fn) =>
      inner.decide(scope, (tx) =>
        fn({
          ...tx,
          insert: async (record, lease, event) => remember(await tx.insert(record, lease, event))!,
          transition: async (t) => {
            const r = await tx.transition(t);
            return known.has(t.id) ? remember(r) : r;
          },
        }),
      ),
    transition,
    noteCheck,
    get: async (id) => {
      // While its outcome waits here, the intent is read as it will be written.
      const mine = known.get(id);
      if (mine && queue.has(id)) return mine;
      const r = await inner.get(id);
      return mine ? remember(r) : r;
    },
    audit: { record: recordAudit, list: (q) => inner.audit.list(q) },
  };
  return {
    store,
    replay,
    waiting: () => queue.count(),
    stuck: () => lastStuck,
    idle: async () => {
      await running?.catch(() => undefined);
    },
  };
}
