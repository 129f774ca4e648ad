import type { JsonlFile, JsonlProblem } from '../../adapters/jsonl-file';
import type { Logger } from '../ports';
import { applyEvent, type Intent, type IntentEvent, UNSETTLED_STATES } from './intent';

/**
 * The durable refund-intent journal: an append-only file of events, folded into intents in memory.
 * `record` returns after the event is on disk (fsync), which is what lets the service send a refund
 * only once its intent is durable.
 */
export interface IntentJournal {
  record(event: IntentEvent): Intent | undefined;
  get(id: string): Intent | undefined;
  list(): Intent[];
  /** Intents of one transaction whose money may be moving (see UNSETTLED_STATES). */
  unsettledFor(profileId: string, transactionNo: string): Intent[];
  /** Damaged lines found when the journal was read (reported, skipped, never fatal). */
  problems(): JsonlProblem[];
}

export function createIntentJournal(file: JsonlFile<IntentEvent>, log: Logger): IntentJournal {
  const intents = new Map<string, Intent>();
  const { records, problems } = file.readAll();
  for (const r of records) {
    if (!applyEvent(intents, r.value)) problems.push({ line: r.line, reason: `event "${r.value.type}" does not fit the intent's state` });
  }
  for (const p of problems) log.warn('journal.damaged_line', { line: p.line, reason: p.reason, file: file.path });

  return {
    record(event) {
      file.append(event);
      applyEvent(intents, event);
      return intents.get(event.type === 'created' ? event.intent.id : event.id);
    },
    get: (id) => intents.get(id),
    list: () => [...intents.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)),
    unsettledFor: (profileId, transactionNo) =>
      [...intents.values()].filter(
        (i) => i.profileId === profileId && i.transactionNo === transactionNo && UNSETTLED_STATES.has(i.state),
      ),
    problems: () => problems,
  };
}
