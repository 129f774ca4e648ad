/**
 * Carry-forward: a run for the next period of the same account takes the previous run's outstanding
 * exceptions (open or explained) and, before its own record is stored, re-checks each one against the
 * service (a fresh tran-query, through the adaptive limiter reconciliation shares) and the new ledger.
 * Each then says whether it cleared and why:
 * - a row of the old ledger cleared when the service now agrees with it (matched by the same engine);
 * - anything cleared when the new ledger books the same payment and that row agrees with the service
 *   (a payment paid at the service on the 31st and booked on the 1st);
 * - otherwise it stays outstanding in the new run, with the reason as the service and ledger say now.
 * A cleared one is resolved in the new run, with a note saying why; the earlier run is never changed
 * (it may be signed).
 */
import type { CarriedFrom, ExceptionRecord } from '../../../../shared/recon/exceptions';
import type { LedgerRow } from '../../../../shared/recon/ledger';
import { lookupKey, matchLedger, type ReconItem, type ServiceAnswer } from '../../../../shared/recon/match';
import { zoneLabel, zoneOf, type ReconOptions } from '../../../../shared/recon/period';
import { detailAmount } from '../../../../shared/recon/report';
import type { AdaptiveLimiter } from '../gateway/adaptive-limit';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';
import type { CloseStore } from './close-store';
import { type KeyResult, startRunner } from './runner';

/** Who the app's own changes are recorded as (a carry's checks are not a person's). */
export const CARRY_ACTOR = 'Refund Desk (carry-forward)';

/** The outstanding exceptions of an earlier run as the next run takes them. */
export interface CarrySource {
  record: ExceptionRecord;
  item: ReconItem;
}

/** The new run's exceptions for what it carries: same state, owner, notes and age; not yet checked. */
export function carriedRecords(
  newRunId: string,
  fromRunId: string,
  sources: readonly CarrySource[],
  at: string,
): ExceptionRecord[] {
  return sources.map(({ record, item }, n) => {
    const carried: CarriedFrom = {
      runId: fromRunId,
      exceptionId: record.id,
      firstRunId: record.carried?.firstRunId ?? fromRunId,
      // Carried again: the item as first seen, so it keeps the original ledger row and service view.
      item: record.carried?.item ?? item,
    };
    return {
      runId: newRunId,
      id: `c${n}`,
      state: record.state,
      ...(record.owner !== undefined ? { owner: record.owner } : {}),
      notes: record.notes,
      ...(record.match ? { match: record.match } : {}),
      carried,
      ageFrom: record.ageFrom,
      ageFromWhat: record.ageFromWhat,
      updatedAt: at,
      version: 0,
    };
  });
}

/** The key a carried item is re-checked by: its payment (a refund's payment too), else its reference. */
function keyOf(item: ReconItem): string | undefined {
  const no =
    item.ledger?.transactionNo ?? item.service?.transactionNo ?? item.unusable?.fields?.transactionNo;
  if (no && /^\d{1,32}$/.test(no)) return `tx:${no}`;
  const ref = item.ledger?.reference ?? item.service?.reference;
  return ref ? `ref:${ref}` : undefined;
}

type Check = NonNullable<CarriedFrom['check']>;

/** Decides one carried exception from the fresh answer and the new ledger (pure). */
export function decideCarried(
  item: ReconItem,
  answer: ServiceAnswer | undefined,
  newRows: readonly LedgerRow[],
  options: ReconOptions,
  at: string,
): Check {
  const dates = {
    zone: zoneOf(options),
    zoneLabel: zoneLabel(options),
    toleranceDays: options.dateToleranceDays,
  };
  const outcomeOf = (row: LedgerRow) =>
    matchLedger([row], () => answer, { fmt: detailAmount, dates })[0] ?? undefined;
  const key = keyOf(item);
  if (!key) return { result: 'still_open', why: 'it names no transaction or reference to check again', at };
  if (answer?.kind === 'failed')
    return { result: 'not_checked', why: `the service could not be asked: ${answer.message}`, at };
  // The new ledger books the same payment, and that row agrees with the service now.
  const inNew = newRows.filter((r) => lookupKey(r) === key);
  for (const r of inNew) {
    const o = outcomeOf(r);
    if (o?.outcome === 'matched')
      return {
        result: 'cleared',
        how: 'ledger',
        why: `booked in this ledger at line ${r.line} (${detailAmount(r.amountMinor, r.currency)}), which agrees with the service`,
        at,
      };
  }
  if (item.outcome === 'duplicate_in_ledger')
    return {
      result: 'still_open',
      why: 'a second booking of the same payment clears only when a person resolves it (reverse one of them)',
      at,
    };
  if (item.outcome === 'unreadable')
    return {
      result: 'still_open',
      why: 'the row could not be read, and this ledger does not book the payment readably',
      at,
    };
  // The old ledger row agrees with the service now (it appeared, its status or amount was corrected).
  if (item.ledger) {
    const o = outcomeOf(item.ledger);
    if (o?.outcome === 'matched')
      return {
        result: 'cleared',
        how: 'service',
        why: `the service now agrees with the ledger row (${detailAmount(item.ledger.amountMinor, item.ledger.currency)}, ${o.service ? o.service.status : 'found'})`,
        at,
      };
    if (o) return { result: 'still_open', why: o.detail || 'the service still differs', at };
  }
  if (inNew.length > 0) {
    const o = outcomeOf(inNew[0]!);
    return {
      result: 'still_open',
      why: `in this ledger at line ${inNew[0]!.line}, but: ${o?.detail ?? 'it differs'}`,
      at,
    };
  }
  return {
    result: 'still_open',
    why:
      answer?.kind === 'found'
        ? 'the service has it and this ledger still does not'
        : 'still not found at the service, and not in this ledger',
    at,
  };
}

/**
 * Re-checks the carried exceptions of a run not checked yet (the run's `beforeSave` step) and stores
 * what each check found: cleared ones resolved with a note, the rest kept as they were, with the reason.
 */
export async function recheckCarried(deps: {
  closing: Pick<CloseStore, 'listExceptions' | 'changeExceptions'>;
  runId: string;
  rows: readonly LedgerRow[];
  options: ReconOptions;
  gateway: Pick<GatewayClient, 'queryTransaction'>;
  clock: Clock;
  limiter?: AdaptiveLimiter;
  concurrency?: number;
}): Promise<void> {
  const todo = (await deps.closing.listExceptions(deps.runId)).filter((e) => e.carried && !e.carried.check);
  if (todo.length === 0) return;
  const keys = [...new Set(todo.map((e) => keyOf(e.carried!.item)).filter((k): k is string => !!k))];
  const answers = new Map<string, KeyResult>();
  const runner = startRunner({
    gateway: deps.gateway,
    clock: deps.clock,
    keys,
    ...(deps.limiter ? { limiter: deps.limiter } : {}),
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
    // A service that is down must not hold the run: a few failures in a row and the rest are "not checked".
    pauseAfterFailures: 3,
    onResult: (r) => void answers.set(r.key, r),
    onProgress: (p) => {
      if (p.state === 'paused') runner.cancel();
    },
  });
  await runner.done;
  const at = new Date(deps.clock.now()).toISOString();
  const changes = todo.map((before) => {
    const item = before.carried!.item;
    const key = keyOf(item);
    const r = key ? answers.get(key) : undefined;
    const answer: ServiceAnswer | undefined = r
      ? { ...r.lookup, source: 'lookup', fetchedAt: r.fetchedAt ?? at }
      : key
        ? {
            kind: 'failed',
            code: 'cancelled',
            message: 'the check was stopped before it was asked',
            source: 'lookup',
            fetchedAt: at,
          }
        : undefined;
    const check = decideCarried(item, answer, deps.rows, deps.options, at);
    const after: ExceptionRecord = { ...before, carried: { ...before.carried!, check } };
    if (check.result === 'cleared') {
      after.state = 'resolved';
      after.notes = [...before.notes, { at, by: CARRY_ACTOR, text: `Cleared: ${check.why}.` }];
    }
    return { before, after };
  });
  await deps.closing.changeExceptions(deps.runId, changes, { at, by: CARRY_ACTOR, action: 'carry_check' });
}
