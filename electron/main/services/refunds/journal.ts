import { AppError } from '../../../../shared/domain/errors';
import { LockBusyError, withFileLock } from '../../adapters/file-lock';
import type { JsonlFile, JsonlProblem, JsonlRecord } from '../../adapters/jsonl-file';
import type { Logger } from '../ports';
import { applyEvent, type Intent, type IntentEvent, UNSETTLED_STATES } from './intent';

/**
 * The durable refund-intent journal: an append-only file of events, folded into intents in memory.
 * `record` returns after the event is on disk (fsync), which is what lets the service send a refund
 * only once its intent is durable. The desktop app and CLI runs may share one file: `exclusive()` takes
 * an inter-process lock and first reads what the others appended, so every in-flight check sees them.
 */
export interface IntentJournal {
  /** Appends an event that fits the intent's state (else writes nothing) and returns the intent. */
  record(event: IntentEvent): Intent | undefined;
  get(id: string): Intent | undefined;
  list(): Intent[];
  /**
   * Intents of one payment whose money may be moving (see UNSETTLED_STATES), across every profile and
   * host: keyed by the merchant account and transaction, not by which profile sent them.
   */
  unsettledFor(merchantNo: string, storeNo: string, transactionNo: string): Intent[];
  /** Damaged or misfit lines found so far (reported, skipped, never fatal). */
  problems(): JsonlProblem[];
  /** Reads events other processes appended since the last read. */
  refresh(): void;
  /** Runs `fn` under the journal's inter-process lock, after a refresh. */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
}

export function createIntentJournal(
  file: JsonlFile<IntentEvent>,
  log: Logger,
  opts: { lockPath?: string } = {},
): IntentJournal {
  const intents = new Map<string, Intent>();
  const problems: JsonlProblem[] = [];
  let offset = 0;
  // Lines this process appended and already applied: skipped (once each) when refresh reads them back.
  const own = new Map<string, number>();

  const fold = (records: JsonlRecord<IntentEvent>[], damaged: JsonlProblem[]) => {
    for (const r of records) {
      const text = JSON.stringify(r.value);
      const mine = own.get(text);
      if (mine) {
        if (mine === 1) own.delete(text);
        else own.set(text, mine - 1);
        continue;
      }
      if (!applyEvent(intents, r.value))
        damaged.push({ line: r.line, reason: `event "${r.value.type}" does not fit the intent's state` });
    }
    for (const p of damaged)
      log.warn('journal.damaged_line', { line: p.line, reason: p.reason, file: file.path });
    problems.push(...damaged);
  };
  const refresh = () => {
    const r = file.readSince(offset);
    offset = r.nextOffset;
    fold(r.records, r.problems);
  };
  refresh();

  return {
    record(event) {
      const id = event.type === 'created' ? event.intent.id : event.id;
      if (event.type === 'created' && intents.has(id)) throw new Error(`duplicate refund intent id ${id}`);
      // Fit-check on a one-entry copy first: a line that does not fit is never written.
      const probe = new Map<string, Intent>();
      const cur = intents.get(id);
      if (cur) probe.set(id, cur);
      if (!applyEvent(probe, event)) return cur;
      const text = JSON.stringify(event);
      file.append(event);
      own.set(text, (own.get(text) ?? 0) + 1);
      intents.set(id, probe.get(id)!);
      return intents.get(id);
    },
    get: (id) => intents.get(id),
    list: () =>
      [...intents.values()].sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
      ),
    unsettledFor: (merchantNo, storeNo, transactionNo) =>
      [...intents.values()].filter(
        (i) =>
          i.merchantNo === merchantNo &&
          i.storeNo === storeNo &&
          i.transactionNo === transactionNo &&
          UNSETTLED_STATES.has(i.state),
      ),
    problems: () => problems,
    refresh,
    async exclusive(fn) {
      try {
        return await withFileLock(opts.lockPath ?? `${file.path}.lock`, () => {
          refresh();
          return fn();
        });
      } catch (e) {
        if (e instanceof LockBusyError) {
          throw new AppError(
            'conflict',
            'Another Refund Desk window or command is recording a refund right now. Nothing was sent; try again in a moment.',
            { details: { moneyMoved: 'no' } },
          );
        }
        throw e;
      }
    },
  };
}
