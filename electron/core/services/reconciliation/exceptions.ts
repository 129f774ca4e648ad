/**
 * Working a run's exceptions, and signing the run (main; every rule re-checked here whatever the
 * renderer sent). An exception changes only beside the run's record (run-store: recon_exceptions), so
 * the run's figures stay what they were; each change is one audited record (who, when, before/after).
 *
 * - States: open → explained / resolved / written off (and back to open); leaving `open` needs a note
 *   saying why. A manual match pairs a ledger row with a service payment or refund (another exception
 *   of the run, or a payment a fresh tran-query finds), same currency only, with a reason; both sides
 *   are resolved in one transaction.
 * - Sign-off: a controller signs an ended run with a comment; the exceptions still outstanding must be
 *   listed as open in the sign-off, exactly. The content hash (SHA-256 over shared/recon/seal.ts) is
 *   stored with it; a signed run cannot change (the database's triggers refuse it too).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../../../shared/domain/errors';
import { dayInZone } from '../../../../shared/domain/zones';
import {
  ageStart,
  EXCEPTION_STATE_LABELS,
  isOutstanding,
  matchesFilter,
  serviceOnlyOutcome,
  viewOf,
  type ExceptionFilter,
  type ExceptionRecord,
  type ExceptionState,
  type ExceptionView,
  type ManualMatch,
} from '../../../../shared/recon/exceptions';
import { itemCurrency, type ReconItem } from '../../../../shared/recon/match';
import { zoneOf } from '../../../../shared/recon/period';
import { recordLines, sealLines, teamSealLines, type SignOff } from '../../../../shared/recon/seal';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';
import type { CarrySource } from './carry';
import type { CloseStore, ExceptionWriteResult } from './close-store';
import type { RunStore, StoredRun } from './run-store';

export interface ExceptionDeps {
  runs: RunStore;
  /** Where exceptions and sign-offs live: this desk's database, or the team's (`closing.team`). */
  closing: CloseStore;
  clock: Clock;
  gatewayFor: (profileId: string) => Pick<GatewayClient, 'queryTransaction'>;
}

export interface ExceptionChange {
  version: number;
  state?: ExceptionState;
  /** '' clears the owner. */
  owner?: string;
  note?: string;
}

export interface MatchRequest {
  version: number;
  kind: 'payment' | 'refund';
  /** The payment's transactionNo, or the refund's refundTransactionNo. */
  id: string;
  reason: string;
}

const signedMessage = (s: SignOff) =>
  `This run was signed by ${s.by} on ${s.at.slice(0, 10)}: a signed run cannot change. Work the exception in the next period’s run (carry forward).`;

export function createExceptionService(deps: ExceptionDeps) {
  const { runs, closing, clock } = deps;
  const iso = () => new Date(clock.now()).toISOString();

  /** A run's record as this desk can read it: its own, else the team's published copy. */
  type CloseRun = Pick<StoredRun, 'facts'> & {
    result: NonNullable<StoredRun['result']>;
    /** This desk holds the whole record (every item); otherwise only the published exceptions. */
    local: boolean;
  };

  function ended(r: StoredRun | undefined, runId: string): CloseRun {
    if (!r) throw new AppError('not_found', 'That reconciliation run no longer exists.');
    if (!r.result)
      throw new AppError(
        'conflict',
        `Run ${runId} has not ended yet: its exceptions exist once its report is written.`,
      );
    return { facts: r.facts, result: r.result, local: true };
  }

  /** Runs this process has seen published (publishing is idempotent; this only saves the round trip). */
  const published = new Set<string>();

  /** The SHA-256 of a run's own record as sealed (recordLines), read from this desk's database. */
  function recordHashOf(run: CloseRun, runId: string): string {
    const h = createHash('sha256');
    let first = true;
    for (const line of recordLines({
      facts: run.facts,
      summary: run.result.summary,
      statement: run.result.statement,
      items: pages(runId),
    })) {
      h.update(first ? line : `\n${line}`);
      first = false;
    }
    return h.digest('hex');
  }

  function* pages(runId: string) {
    for (let offset = 0; ; offset += 5000) {
      const page = runs.readItems(runId, offset, 5000);
      yield* page;
      if (page.length < 5000) return;
    }
  }

  /**
   * Team mode: publishes an ended run of this desk to the team database (its figures, its non-matched
   * items, the record's hash), so other desks can work and sign it. Idempotent; a no-op on a single desk.
   */
  async function publish(runId: string): Promise<void> {
    const team = closing.team;
    if (!team || published.has(runId)) return;
    const local = runs.get(runId);
    if (!local?.result) return;
    const run = ended(local, runId);
    const exceptionItems: Array<{ seq: number; item: ReconItem }> = [];
    let seq = 0;
    for (const item of pages(runId)) {
      if (item.outcome !== 'matched') exceptionItems.push({ seq, item });
      seq += 1;
    }
    await team.publish({
      facts: run.facts,
      summary: run.result.summary,
      statement: run.result.statement,
      items: run.result.items,
      exceptionItems,
      recordHash: recordHashOf(run, runId),
    });
    published.add(runId);
  }

  /** The run: this desk's record (published first in team mode), else the team's published copy. */
  async function runOf(runId: string): Promise<CloseRun> {
    const local = runs.get(runId);
    if (local || !closing.team) {
      const run = ended(local, runId);
      await publish(runId);
      return run;
    }
    const p = await closing.team.readRun(runId);
    if (!p) throw new AppError('not_found', 'That reconciliation run no longer exists.');
    return {
      facts: p.facts,
      result: { summary: p.summary, statement: p.statement, items: p.items },
      local: false,
    };
  }

  const today = (r: Pick<StoredRun, 'facts'>) => dayInZone(clock.now(), zoneOf(r.facts.options));

  /** The run's exceptions with their items; the run's own are stored the first time they are read. */
  async function load(
    runId: string,
  ): Promise<{ run: CloseRun; list: Array<{ rec: ExceptionRecord; item: ReconItem }> }> {
    const run = await runOf(runId);
    let recs = await closing.listExceptions(runId);
    const own = await closing.readExceptionItems(runId);
    const have = new Set(recs.map((e) => e.id));
    const missing = own.filter((o) => !have.has(`i${o.seq}`));
    if (missing.length > 0 && !(await closing.readSignOff(runId))) {
      const zone = zoneOf(run.facts.options);
      const runDay = dayInZone(Date.parse(run.facts.createdAt), zone);
      const at = iso();
      const made = missing.map(({ seq, item }): ExceptionRecord => {
        const start = ageStart(item, runDay, (t) => dayInZone(Date.parse(t), zone));
        return {
          runId,
          id: `i${seq}`,
          state: 'open',
          notes: [],
          ageFrom: start.day,
          ageFromWhat: start.what,
          updatedAt: at,
          version: 0,
        };
      });
      await closing.addExceptions(runId, made);
      recs = await closing.listExceptions(runId);
    }
    const items = new Map(own.map((o) => [`i${o.seq}`, o.item]));
    const list = recs.flatMap((rec) => {
      const item = rec.carried?.item ?? items.get(rec.id);
      return item ? [{ rec, item }] : [];
    });
    return { run, list };
  }

  function refuse(result: ExceptionWriteResult, signOff?: SignOff): void {
    if (result.ok) return;
    if (result.reason === 'signed')
      throw new AppError(
        'conflict',
        signOff ? signedMessage(signOff) : 'This run is signed: it cannot change.',
      );
    if (result.reason === 'changed')
      throw new AppError(
        'conflict',
        'Someone changed this exception meanwhile. Look at it again, then make your change.',
      );
    throw new AppError('not_found', 'That exception is not part of this run.');
  }

  async function notSigned(runId: string): Promise<void> {
    const s = await closing.readSignOff(runId);
    if (s) throw new AppError('conflict', signedMessage(s));
  }

  async function find(runId: string, id: string) {
    const { run, list } = await load(runId);
    const found = list.find((e) => e.rec.id === id);
    if (!found) throw new AppError('not_found', `Exception ${id} is not part of this run.`);
    return { run, list, found };
  }

  /**
   * The content hash of a run as stored now, with the given sign-off (SHA-256, hex). On a single desk,
   * over the whole record (sealLines); in team mode over the published record's hash and the close
   * (teamSealLines), which every desk can compute; `recordIntact` says whether this desk's own record,
   * when it holds one, still gives the published hash.
   */
  async function hashOf(
    runId: string,
    signOff: Omit<SignOff, 'contentHash'>,
  ): Promise<{ hash: string; recordIntact: boolean }> {
    const run = await runOf(runId);
    const exceptions = await closing.listExceptions(runId);
    let lines: Iterable<string>;
    let recordIntact = true;
    if (closing.team) {
      const p = await closing.team.readRun(runId);
      if (!p) throw new AppError('not_found', 'That run is not in the team database.');
      if (run.local) recordIntact = recordHashOf(run, runId) === p.recordHash;
      lines = teamSealLines({ recordHash: p.recordHash, exceptions, signOff });
    } else
      lines = sealLines({
        facts: run.facts,
        summary: run.result.summary,
        statement: run.result.statement,
        items: pages(runId),
        exceptions,
        signOff,
      });
    const h = createHash('sha256');
    let first = true;
    for (const line of lines) {
      h.update(first ? line : `\n${line}`);
      first = false;
    }
    return { hash: h.digest('hex'), recordIntact };
  }

  return {
    async list(runId: string, filter: ExceptionFilter = {}) {
      const { run, list } = await load(runId);
      const day = today(run);
      const all = list.map(({ rec, item }) => viewOf(rec, item, day));
      const signOff = await closing.readSignOff(runId);
      return {
        exceptions: all.filter((e) => matchesFilter(e, filter)),
        total: all.length,
        outstanding: all.filter((e) => isOutstanding(e.state)).map((e) => e.id),
        owners: [...new Set(all.flatMap((e) => (e.owner ? [e.owner] : [])))].sort(),
        today: day,
        ...(signOff ? { signOff } : {}),
      };
    },

    async update(runId: string, id: string, change: ExceptionChange, by: string): Promise<ExceptionView> {
      await notSigned(runId);
      const { run, found } = await find(runId, id);
      const before = found.rec;
      if (before.version !== change.version)
        throw new AppError(
          'conflict',
          'Someone changed this exception meanwhile. Look at it again, then make your change.',
        );
      const after: ExceptionRecord = { ...before, notes: [...before.notes] };
      const at = iso();
      const note = change.note?.trim();
      if (change.state !== undefined && change.state !== before.state) {
        if (change.state !== 'open' && !note)
          throw new AppError(
            'invalid_input',
            `Say why in a note: an exception becomes “${EXCEPTION_STATE_LABELS[change.state]}” only with its reason.`,
          );
        if (before.match && change.state !== 'resolved')
          throw new AppError('conflict', 'This exception is resolved by a manual match; it stays resolved.');
        after.state = change.state;
      }
      if (change.owner !== undefined) {
        const owner = change.owner.trim();
        if (owner) after.owner = owner;
        else delete after.owner;
      }
      if (note) after.notes.push({ at, by, text: note });
      if (after.state === before.state && after.owner === before.owner && !note)
        throw new AppError('invalid_input', 'Nothing to change: choose a state, an owner or write a note.');
      refuse(
        await closing.changeExceptions(runId, [{ before, after }], { at, by, action: 'update' }),
        await closing.readSignOff(runId),
      );
      return viewOf({ ...after, version: before.version + 1, updatedAt: at }, found.item, today(run));
    },

    /** Pairs a ledger row's exception with a service payment or refund; both sides resolved. */
    async match(runId: string, id: string, req: MatchRequest, by: string): Promise<ExceptionView> {
      await notSigned(runId);
      const { run, list, found } = await find(runId, id);
      const before = found.rec;
      const row = found.item.ledger;
      if (before.version !== req.version)
        throw new AppError(
          'conflict',
          'Someone changed this exception meanwhile. Look at it again, then make your change.',
        );
      if (!row)
        throw new AppError(
          'invalid_input',
          'Pair from the ledger row’s side: this exception has no ledger row.',
        );
      if (!isOutstanding(before.state))
        throw new AppError(
          'conflict',
          `This exception is already ${EXCEPTION_STATE_LABELS[before.state].toLowerCase()}.`,
        );
      const reason = req.reason.trim();
      if (!reason) throw new AppError('invalid_input', 'Say why the two are the same money.');
      // The counterpart: a service-side exception of this run first.
      const other = list.find(
        (e) =>
          !e.rec.carried &&
          serviceOnlyOutcome(e.item.outcome) &&
          (req.kind === 'refund'
            ? e.item.refund?.refundTransactionNo === req.id
            : e.item.outcome === 'missing_in_ledger' && e.item.service?.transactionNo === req.id),
      );
      let amountMinor: number;
      let currency: string;
      let foundIn: ManualMatch['foundIn'];
      if (other) {
        if (!isOutstanding(other.rec.state))
          throw new AppError(
            'conflict',
            `That ${req.kind} is already ${EXCEPTION_STATE_LABELS[other.rec.state].toLowerCase()} in this run.`,
          );
        amountMinor =
          (req.kind === 'refund' ? other.item.refund?.amountMinor : other.item.service?.amountMinor) ?? 0;
        currency = itemCurrency(other.item);
        foundIn = 'run';
      } else {
        if (req.kind === 'refund')
          throw new AppError(
            'not_found',
            `Refund ${req.id} is not among this run’s refunds the ledger lacks. A refund can be paired only with one the run found at the service.`,
          );
        if (!run.local)
          throw new AppError(
            'conflict',
            `This desk does not hold run ${runId}’s matched rows: pair it with a payment from the service on the desk that ran the reconciliation, or with a refund or payment among this run’s exceptions.`,
          );
        const taken = runs
          .readItems(runId, 0, 1_000_000)
          .find((i) => i.outcome === 'matched' && i.service?.transactionNo === req.id);
        if (taken)
          throw new AppError(
            'conflict',
            `Payment ${req.id} already matches ledger line ${taken.line ?? '?'}.`,
          );
        let q;
        try {
          q = await deps.gatewayFor(run.facts.profileId).queryTransaction({ transactionNo: req.id });
        } catch (e) {
          if (e instanceof AppError && e.code === 'not_found')
            throw new AppError('not_found', `The service has no payment ${req.id}. Check the number.`);
          throw e;
        }
        amountMinor = q.transaction.amountMinor;
        currency = q.transaction.currency;
        foundIn = 'service';
      }
      if (currency !== row.currency)
        throw new AppError(
          'invalid_input',
          `The ledger row is in ${row.currency} and that ${req.kind} in ${currency}: currencies are never paired.`,
        );
      const at = iso();
      const match: ManualMatch = {
        kind: req.kind,
        id: req.id,
        amountMinor,
        currency,
        foundIn,
        ...(other ? { pairedWith: other.rec.id } : {}),
        reason,
        by,
        at,
      };
      const text = `Matched by hand with ${req.kind} ${req.id}: ${reason}`;
      const after: ExceptionRecord = {
        ...before,
        state: 'resolved',
        match,
        notes: [...before.notes, { at, by, text }],
      };
      const changes = [{ before, after }];
      if (other)
        changes.push({
          before: other.rec,
          after: {
            ...other.rec,
            state: 'resolved',
            match: { ...match, pairedWith: before.id },
            notes: [
              ...other.rec.notes,
              { at, by, text: `Matched by hand with ledger line ${row.line}: ${reason}` },
            ],
          },
        });
      refuse(
        await closing.changeExceptions(runId, changes, { at, by, action: 'match' }),
        await closing.readSignOff(runId),
      );
      return viewOf({ ...after, version: before.version + 1, updatedAt: at }, found.item, today(run));
    },

    /** Signs an ended run; every outstanding exception must be listed as open, exactly. */
    async signOff(
      runId: string,
      input: { comment: string; open: readonly string[] },
      by: string,
    ): Promise<SignOff> {
      await notSigned(runId);
      const { run, list } = await load(runId);
      if (run.facts.endedAs === 'cancelled')
        throw new AppError(
          'conflict',
          'This run was cancelled before it checked everything: re-check it, then sign the complete run.',
        );
      const comment = input.comment.trim();
      if (!comment) throw new AppError('invalid_input', 'Write a sign-off comment.');
      const outstanding = list
        .filter((e) => isOutstanding(e.rec.state))
        .map((e) => e.rec.id)
        .sort();
      const listed = [...new Set(input.open)].sort();
      const unlisted = outstanding.filter((x) => !listed.includes(x));
      const notOpen = listed.filter((x) => !outstanding.includes(x));
      if (unlisted.length > 0 || notOpen.length > 0 || listed.length !== input.open.length)
        throw new AppError(
          'invalid_input',
          unlisted.length > 0
            ? `${unlisted.length} exception${unlisted.length === 1 ? ' is' : 's are'} still open and not listed in the sign-off. Sign with every open exception listed as open, or work them first.`
            : 'The sign-off lists exceptions that are not open (any more). Look at the list again.',
          { details: { outstanding, unlisted, notOpen } },
        );
      const base = { runId, by, at: iso(), comment, openAtSignOff: outstanding };
      const hashed = await hashOf(runId, base);
      if (!hashed.recordIntact)
        throw new AppError(
          'conflict',
          'This desk’s record of the run differs from the copy in the team database: it cannot be signed. Report this with the log file.',
        );
      const signOff: SignOff = { ...base, contentHash: hashed.hash };
      refuse(await closing.signOff(signOff), await closing.readSignOff(runId));
      return signOff;
    },

    /** The sign-off and the content hash computed again now (equal to the signed one unless changed). */
    async seal(runId: string): Promise<{ signOff?: SignOff; contentHash?: string; intact?: boolean }> {
      const s = await closing.readSignOff(runId);
      if (!s) return {};
      const { contentHash, ...base } = s;
      const now = await hashOf(runId, base);
      return { signOff: s, contentHash: now.hash, intact: now.hash === contentHash && now.recordIntact };
    },

    /** The audit of a run's exceptions and its sign-off, oldest first. */
    audit: (runId: string) => closing.readExceptionAudit(runId),

    /** Team mode: publishes an ended run of this desk (the service does it when a run ends). */
    publish,

    /** Team mode: published runs not signed yet, newest first (any desk's); none on a single desk. */
    awaitingSignOff: async () => (closing.team ? closing.team.awaitingSignOff() : []),

    /** What a next run carries from `runId`: its outstanding exceptions with their items. */
    async carrySources(runId: string): Promise<CarrySource[]> {
      const { list } = await load(runId);
      return list.filter((e) => isOutstanding(e.rec.state)).map((e) => ({ record: e.rec, item: e.item }));
    },
  };
}
export type ExceptionService = ReturnType<typeof createExceptionService>;
export type { ExceptionView };
