/**
 * The canonical serialisation a signed run's content hash is taken over (pure; main hashes it with
 * SHA-256). One line per part, in a fixed order — the run (facts, summary, statement), every item in
 * its stored order, every exception by id with its state, owner, notes, match and carry, then the
 * sign-off — each line JSON with object keys sorted and absent fields left out. The same stored record
 * always gives the same lines, so a second export (or another machine) reproduces the hash, and any
 * change to a figure, an item or an exception's state gives another.
 */
import type { ExceptionRecord } from './exceptions';
import type { ReconItem } from './match';
import type { RunFacts } from './run';
import type { ReconSummary } from './summary';

export interface SignOff {
  runId: string;
  by: string;
  at: string;
  comment: string;
  /** The exceptions still outstanding (open or explained) when signed, by id: the signer listed them. */
  openAtSignOff: string[];
  /** SHA-256 (hex) of the canonical content, as computed when signed. */
  contentHash: string;
}

/** JSON with sorted object keys; undefined dropped (as JSON.stringify does), arrays kept in order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The exception as sealed: what a person decided (the version counter and timestamps of edits are not content). */
const sealedException = (e: ExceptionRecord) => ({
  id: e.id,
  state: e.state,
  owner: e.owner,
  notes: e.notes,
  match: e.match,
  carried: e.carried,
  ageFrom: e.ageFrom,
});

/** The run's own record as sealed: the run line, then every item in its stored order. */
export function* recordLines(input: {
  facts: RunFacts;
  summary: ReconSummary;
  statement: readonly string[];
  items: Iterable<ReconItem>;
}): Generator<string> {
  yield canonicalJson({
    part: 'run',
    facts: input.facts,
    summary: input.summary,
    statement: input.statement,
  });
  let seq = 0;
  for (const item of input.items) yield canonicalJson({ part: 'item', seq: seq++, item });
}

/** What the close adds to the record: every exception by id, then the sign-off. */
export function* closeLines(input: {
  exceptions: readonly ExceptionRecord[];
  signOff: Omit<SignOff, 'contentHash'>;
}): Generator<string> {
  const byId = [...input.exceptions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const e of byId) yield canonicalJson({ part: 'exception', ...sealedException(e) });
  const s = input.signOff;
  yield canonicalJson({
    part: 'signoff',
    runId: s.runId,
    by: s.by,
    at: s.at,
    comment: s.comment,
    openAtSignOff: [...s.openAtSignOff].sort(),
  });
}

/** The lines of the sealed content, in order (hash each, separated by '\n'). */
export function* sealLines(input: {
  facts: RunFacts;
  summary: ReconSummary;
  statement: readonly string[];
  items: Iterable<ReconItem>;
  exceptions: readonly ExceptionRecord[];
  signOff: Omit<SignOff, 'contentHash'>;
}): Generator<string> {
  yield* recordLines(input);
  yield* closeLines(input);
}

/**
 * The sealed content of a run closed in the team database: the controller's desk may not hold the run's
 * items, so the record enters as its published SHA-256 (recordLines, hashed by the desk that ran it and
 * checked again by any desk that holds it), followed by the same close lines.
 */
export function* teamSealLines(input: {
  recordHash: string;
  exceptions: readonly ExceptionRecord[];
  signOff: Omit<SignOff, 'contentHash'>;
}): Generator<string> {
  yield canonicalJson({ part: 'record', sha256: input.recordHash });
  yield* closeLines(input);
}
