import { createHash } from 'node:crypto';
import type { AuditEntry } from '../../services/refunds/audit';
import type { Intent, IntentDraft, IntentState } from '../../services/refunds/intent';
import { ipnDedupKey, type IpnEvent } from '../../services/ipn/events';
import { jobFileSchema } from '../../services/reconciliation/job-store';
import type { KeyResult } from '../../services/reconciliation/runner';
import type { Database } from './database';
import { insertAuditRow, insertEventRow, insertIntentRow } from './refund-store';
import { insertJobRow, insertResultRows } from './recon-store';
import {
  LEGACY_SOURCES,
  importedBefore,
  readSource,
  recordImported,
  renameIfUnchanged,
} from './legacy-sources';

/**
 * Import of the files earlier versions kept (checksummed JSON lines, one event per line):
 * `refund-journal.jsonl`, `audit.jsonl`, `ipn-events.jsonl` and `recon/*.job.json` + `*.results.jsonl`.
 * Each content is imported once (./legacy-sources.ts), everything found at one start in one transaction;
 * every line that cannot be imported is recorded in `import_problems` (and so reaches the person through
 * health); the originals are kept, renamed `<name>.imported-<time>`. Nothing is deleted. Files an older
 * version writes after the first import are imported the same way at the next start.
 */
export interface ImportProblem {
  source: string;
  line?: number;
  reason: string;
  excerpt?: string;
}
export interface ImportReport {
  intents: number;
  auditEntries: number;
  ipnEvents: number;
  reconJobs: number;
  problems: ImportProblem[];
  renamed: string[];
}

const checksum = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

type Decoded = { line: number; value: unknown } | { line: number; problem: string; raw: string };

/** Decodes `{"c":"<sha256/16>","d":<json>}` lines. CRLF endings (a file edited on Windows) are accepted. */
export function decodeJsonl(text: string): Decoded[] {
  const out: Decoded[] = [];
  const lines = text.split('\n');
  lines.forEach((rawLine, i) => {
    const raw = rawLine.replace(/\r$/, '');
    if (raw.trim() === '') return;
    const torn = i === lines.length - 1; // no newline after it: the writer stopped mid-line
    const m = /^\{"c":"([0-9a-f]{16})","d":(.*)\}$/.exec(raw);
    if (!m) {
      out.push({
        line: i + 1,
        raw,
        problem: torn ? 'incomplete last line (the app stopped while writing it)' : 'not a journal line',
      });
      return;
    }
    if (checksum(m[2]!) !== m[1]) {
      out.push({ line: i + 1, raw, problem: 'checksum mismatch (the line was changed or damaged)' });
      return;
    }
    try {
      out.push({ line: i + 1, value: JSON.parse(m[2]!) as unknown });
    } catch {
      out.push({ line: i + 1, raw, problem: 'unreadable JSON' });
    }
  });
  return out;
}

const str = (v: unknown): v is string => typeof v === 'string';
const excerpt = (raw: string) => raw.slice(0, 160);

/** Earlier versions' intent drafts: today's, without the service address (it was not recorded). */
type LegacyDraft = Omit<IntentDraft, 'baseUrl'>;
type LegacyState = 'created' | 'sent' | Exclude<IntentState, 'sending'>;
/** An intent as the old events fold it: today's intent, in the old states, with its history. */
interface Folded extends LegacyDraft, Omit<Intent, keyof IntentDraft | 'state' | 'sender'> {
  state: LegacyState;
  events: { at: string; type: string; data: Record<string, unknown> }[];
}

function isDraft(d: unknown): d is LegacyDraft {
  if (!d || typeof d !== 'object') return false;
  const o = d as Record<string, unknown>;
  return (
    [
      'id',
      'profileId',
      'profileName',
      'environment',
      'merchantNo',
      'storeNo',
      'transactionNo',
      'currency',
      'createdAt',
    ].every((k) => str(o[k])) &&
    Number.isSafeInteger(o['amountMinor']) &&
    (o['amountMinor'] as number) > 0
  );
}

/** Applies one legacy event; returns why it does not fit, or undefined. */
function applyLegacy(map: Map<string, Folded>, e: Record<string, unknown>): string | undefined {
  const type = e['type'];
  const at = str(e['at']) ? e['at'] : '';
  // A `sent` line carries the whole intent, so a damaged `created` line before it loses nothing.
  const draft = e['intent'];
  const recreate = type === 'sent' && isDraft(draft) && !map.has(draft.id);
  if (type === 'created' || recreate) {
    if (!isDraft(draft)) return 'wrong shape (the intent is incomplete)';
    if (map.has(draft.id)) return `duplicate: intent ${draft.id} was already created on an earlier line`;
    map.set(draft.id, {
      ...draft,
      settleCurrency: str(draft.settleCurrency) ? draft.settleCurrency : draft.currency,
      reasonCode: str(draft.reasonCode) ? draft.reasonCode : 'other',
      reasonNote: str(draft.reasonNote) ? draft.reasonNote : '',
      operator: str(draft.operator) ? draft.operator : 'unknown operator',
      state: 'created',
      updatedAt: at || draft.createdAt,
      checks: 0,
      attempts: 0,
      events: type === 'created' ? [{ at, type: 'legacy:created', data: {} }] : [],
    });
    if (type === 'created') return undefined;
  }
  const id = e['id'];
  if (!str(id)) return 'wrong shape (no intent id)';
  const cur = map.get(id);
  if (!cur) return `refers to intent ${id}, which no earlier line creates`;
  const fits = (...states: LegacyState[]) => states.includes(cur.state);
  const next: Partial<Folded> = {};
  switch (type) {
    case 'sent':
      if (!fits('created')) return `duplicate or out of order: intent ${id} is already ${cur.state}`;
      Object.assign(next, { state: 'sent', attempts: cur.attempts + 1 });
      break;
    case 'accepted':
      if (!fits('created', 'sent', 'outcome_unknown', 'accepted'))
        return `does not fit: intent ${id} is ${cur.state}`;
      if (!str(e['refundTransactionNo'])) return 'wrong shape (no refundTransactionNo)';
      Object.assign(next, {
        state: 'accepted',
        refundTransactionNo: e['refundTransactionNo'],
        refundStatus: str(e['refundStatus']) ? e['refundStatus'] : undefined,
        detail: undefined,
      });
      break;
    case 'rejected':
      if (!fits('sent', 'created')) return `does not fit: intent ${id} is ${cur.state}`;
      Object.assign(next, {
        state: 'rejected',
        retCode: str(e['retCode']) ? e['retCode'] : undefined,
        retMsg: str(e['retMsg']) ? e['retMsg'] : undefined,
        detail: str(e['detail']) ? e['detail'] : undefined,
      });
      break;
    case 'refused':
      if (!fits('created')) return `does not fit: intent ${id} is ${cur.state}`;
      Object.assign(next, { state: 'refused', detail: str(e['detail']) ? e['detail'] : undefined });
      break;
    case 'outcome_unknown':
      if (!fits('sent', 'created')) return `does not fit: intent ${id} is ${cur.state}`;
      Object.assign(next, { state: 'outcome_unknown', detail: str(e['detail']) ? e['detail'] : undefined });
      break;
    case 'checked':
      Object.assign(next, {
        lastCheck: { at, found: e['found'] === true, note: str(e['note']) ? e['note'] : '' },
        checks: cur.checks + 1,
      });
      break;
    case 'final':
      if (!fits('accepted')) return `does not fit: intent ${id} is ${cur.state}`;
      if (e['status'] !== 'succeeded' && e['status'] !== 'failed') return 'wrong shape (final status)';
      Object.assign(next, {
        state: e['status'],
        refundStatus: str(e['refundStatus']) ? e['refundStatus'] : undefined,
      });
      break;
    default:
      return 'wrong shape (unknown event type)';
  }
  const { type: _t, at: _a, id: _i, intent: _d, ...data } = e;
  map.set(id, {
    ...cur,
    ...next,
    updatedAt: at || cur.updatedAt,
    events: [...cur.events, { at, type: `legacy:${String(type)}`, data }],
  });
  return undefined;
}

/** The state an imported intent continues in. Never "not sent" unless the journal proves it. */
function continueAs(f: Folded, journalDamaged: boolean): { state: IntentState; detail?: string } {
  if (f.state === 'created')
    return journalDamaged
      ? {
          state: 'outcome_unknown',
          detail: 'The old refund journal has damaged lines, so whether this refund was sent is not known.',
        }
      : { state: 'refused', detail: 'Refund Desk stopped before sending this refund. Nothing was sent.' };
  if (f.state === 'sent')
    return { state: 'outcome_unknown', detail: 'Refund Desk stopped before the service answered.' };
  return { state: f.state, ...(f.detail ? { detail: f.detail } : {}) };
}

function isAuditEntry(v: unknown): v is AuditEntry {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    ['at', 'outcome', 'operator', 'profileId', 'transactionNo', 'currency'].every((k) => str(o[k])) &&
    Number.isSafeInteger(o['amountMinor'])
  );
}

function isIpnEvent(v: unknown): v is IpnEvent {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return ['profileId', 'kind', 'transactionNo', 'status', 'receivedAt'].every((k) => str(o[k]));
}

/** Journal lines folded before the transaction (pure work, so the write lock is held briefly). */
interface FoldedJournal {
  intents: Map<string, Folded>;
  /** Lines that could not be imported, by line number. */
  problems: (Omit<ImportProblem, 'source'> & { line: number })[];
}

function foldJournal(text: string): FoldedJournal {
  const out: FoldedJournal = { intents: new Map(), problems: [] };
  for (const l of decodeJsonl(text)) {
    if ('problem' in l) {
      const id = /"id":"(RD[0-9A-Z]+)"/.exec(l.raw)?.[1];
      out.problems.push({
        line: l.line,
        reason: id ? `${l.problem}; it mentions refund ${id}` : l.problem,
        excerpt: excerpt(l.raw),
      });
      continue;
    }
    const why =
      l.value && typeof l.value === 'object'
        ? applyLegacy(out.intents, l.value as Record<string, unknown>)
        : 'wrong shape (not an object)';
    if (why) out.problems.push({ line: l.line, reason: why, excerpt: excerpt(JSON.stringify(l.value)) });
  }
  return out;
}

/** The state an intent already in the database was imported as, if it was imported. */
function importedAs(db: Database, id: string): string | undefined {
  const row = db.get<{ to_state: string }>(
    `SELECT e.to_state FROM intent_events e JOIN intents i ON i.id = e.intent_id
       WHERE e.intent_id = ? AND e.type = 'imported' AND i.imported = 1 ORDER BY e.id DESC LIMIT 1`,
    id,
  );
  return row?.to_state;
}

const emptyReport = (): ImportReport => ({
  intents: 0,
  auditEntries: 0,
  ipnEvents: 0,
  reconJobs: 0,
  problems: [],
  renamed: [],
});

/**
 * Imports what exists and renames it. Whether a file's content (or which of its lines) still needs
 * importing is decided inside the import's transaction (./legacy-sources.ts), so processes starting at
 * once import it exactly once and the others do nothing; a file an older version writes later is
 * imported at the next start. Returns undefined when nothing was imported by this call.
 * `baseUrlFor` gives the service address of a profile that still exists (intents of earlier versions
 * did not record it); CLI intents get '' (address unknown).
 */
export function importLegacyFiles(
  db: Database,
  dataDir: string,
  opts: { now: () => number; baseUrlFor: (profileId: string) => string | undefined },
): ImportReport | undefined {
  const at = new Date(opts.now()).toISOString();
  const snapshots = LEGACY_SOURCES.map((s) => readSource(dataDir, s)).filter((s) => s !== undefined);
  if (snapshots.length === 0) {
    noteImportDone(db, at);
    return undefined;
  }
  const journal = snapshots.find((s) => s.source === 'refund-journal.jsonl');
  const folded = journal?.bytes ? foldJournal(journal.bytes.toString('utf8')) : undefined;

  const report = db.immediate(() => {
    const r = emptyReport();
    let imported = false;
    const problem = (source: string, p: Omit<ImportProblem, 'source'>) => r.problems.push({ ...p, source });
    for (const snap of snapshots) {
      const before = importedBefore(db, snap);
      if (before === 'all') continue;
      imported = true;
      const fresh = (line: number | undefined) => line === undefined || line > before;
      const text = snap.bytes?.toString('utf8') ?? '';
      if (snap.source === 'refund-journal.jsonl' && folded)
        importJournal(db, folded, { at, baseUrlFor: opts.baseUrlFor, fresh, problem, report: r });
      else if (snap.source === 'audit.jsonl') importAudit(db, text, fresh, problem, r);
      else if (snap.source === 'ipn-events.jsonl') importIpn(db, text, fresh, problem, r);
      else if (snap.files) importRecon(db, snap.files, problem, r);
      recordImported(db, snap, at);
    }
    if (!imported) return undefined;
    for (const p of r.problems)
      db.run(
        'INSERT INTO import_problems (at, source, line, reason, excerpt) VALUES (?, ?, ?, ?, ?)',
        at,
        p.source,
        p.line ?? null,
        p.reason,
        p.excerpt ?? null,
      );
    // The first import's summary; later ones are in their files' own records.
    db.run(
      `INSERT OR IGNORE INTO meta (key, value) VALUES ('legacy_import', ?)`,
      JSON.stringify({ format: 2, at, ...r, problems: r.problems.length }),
    );
    return r;
  });
  noteImportDone(db, at);

  // Renamed only after the import committed: a crash in between finds the record and only renames.
  // Under the database's write lock, like the guard's placing (./older-versions.ts): a process renames
  // only what it still finds as it read it, never what another one put there meanwhile (the guard).
  const stamp = at.replace(/[:.]/g, '-');
  const renamed = db.immediate(() =>
    snapshots.map((s) => renameIfUnchanged(s, stamp)).filter((p) => p !== undefined),
  );
  if (report) report.renamed.push(...renamed);
  return report;
}

/**
 * Records that this data directory has been taken over by the database even when there was nothing to
 * import: the first version with the database then only renames what it finds at the old paths (this
 * version's guard, ./older-versions.ts) instead of failing to import it.
 */
function noteImportDone(db: Database, at: string): void {
  if (db.get(`SELECT 1 FROM meta WHERE key = 'legacy_import'`)) return;
  db.immediate(() =>
    db.run(
      `INSERT OR IGNORE INTO meta (key, value) VALUES ('legacy_import', ?)`,
      JSON.stringify({ format: 2, at, ...emptyReport(), problems: 0 }),
    ),
  );
}

type Problem = (source: string, p: Omit<ImportProblem, 'source'>) => void;

/** Inserts each folded intent in the state it continues in; one already in the database is not. */
function importJournal(
  db: Database,
  folded: FoldedJournal,
  o: {
    at: string;
    baseUrlFor: (profileId: string) => string | undefined;
    fresh: (line: number | undefined) => boolean;
    problem: Problem;
    report: ImportReport;
  },
): void {
  for (const p of folded.problems) if (o.fresh(p.line)) o.problem('refund-journal.jsonl', p);
  // Any damage, earlier lines included: a refund only created cannot be proven unsent.
  const journalDamaged = folded.problems.length > 0;
  for (const f of folded.intents.values()) {
    const next = continueAs(f, journalDamaged);
    if (db.get('SELECT 1 FROM intents WHERE id = ?', f.id)) {
      const was = importedAs(db, f.id);
      // The same refund, imported before from an earlier copy of this journal: nothing new.
      if (was === next.state) continue;
      o.problem('refund-journal.jsonl', {
        reason: `refund ${f.id} is already in the database${was ? ` (imported earlier as ${was})` : ''}; this copy (${next.state}) was not imported. Look its payment up with the payment service before refunding it again`,
      });
      continue;
    }
    const baseUrl = f.profileId.startsWith('cli:') ? '' : (o.baseUrlFor(f.profileId) ?? '');
    const intent: Intent = {
      id: f.id,
      profileId: f.profileId,
      profileName: f.profileName,
      environment: f.environment,
      baseUrl,
      merchantNo: f.merchantNo,
      storeNo: f.storeNo,
      transactionNo: f.transactionNo,
      ...(f.reference ? { reference: f.reference } : {}),
      amountMinor: f.amountMinor,
      currency: f.currency,
      settleCurrency: f.settleCurrency,
      reasonCode: f.reasonCode,
      reasonNote: f.reasonNote,
      operator: f.operator,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
      state: next.state,
      ...(next.detail ? { detail: next.detail } : {}),
      ...(f.refundTransactionNo ? { refundTransactionNo: f.refundTransactionNo } : {}),
      ...(f.refundStatus ? { refundStatus: f.refundStatus } : {}),
      ...(f.retCode ? { retCode: f.retCode } : {}),
      ...(f.retMsg ? { retMsg: f.retMsg } : {}),
      ...(f.lastCheck ? { lastCheck: f.lastCheck } : {}),
      checks: f.checks,
      attempts: f.attempts,
    };
    insertIntentRow(db, intent, true);
    for (const e of f.events)
      insertEventRow(db, f.id, { at: e.at || o.at, type: e.type, to: intent.state, data: e.data });
    insertEventRow(db, f.id, { at: o.at, type: 'imported', from: f.state, to: intent.state, data: {} });
    o.report.intents += 1;
  }
}

function importAudit(
  db: Database,
  text: string,
  fresh: (line: number) => boolean,
  problem: Problem,
  r: ImportReport,
): void {
  for (const l of decodeJsonl(text)) {
    if (!fresh(l.line)) continue;
    if ('problem' in l) problem('audit.jsonl', { line: l.line, reason: l.problem, excerpt: excerpt(l.raw) });
    else if (!isAuditEntry(l.value))
      problem('audit.jsonl', {
        line: l.line,
        reason: 'wrong shape',
        excerpt: excerpt(JSON.stringify(l.value)),
      });
    else {
      insertAuditRow(
        db,
        Object.assign(
          { profileName: '', environment: '', intentId: '', reasonCode: '', reasonNote: '' },
          l.value,
        ),
      );
      r.auditEntries += 1;
    }
  }
}

function importIpn(
  db: Database,
  text: string,
  fresh: (line: number) => boolean,
  problem: Problem,
  r: ImportReport,
): void {
  for (const l of decodeJsonl(text)) {
    if (!fresh(l.line)) continue;
    if ('problem' in l)
      problem('ipn-events.jsonl', { line: l.line, reason: l.problem, excerpt: excerpt(l.raw) });
    else if (!isIpnEvent(l.value))
      problem('ipn-events.jsonl', {
        line: l.line,
        reason: 'wrong shape',
        excerpt: excerpt(JSON.stringify(l.value)),
      });
    else {
      const res = db.run(
        'INSERT OR IGNORE INTO ipn_events (dedup_key, profile_id, received_at, data) VALUES (?, ?, ?, ?)',
        ipnDedupKey(l.value),
        l.value.profileId,
        l.value.receivedAt,
        JSON.stringify(l.value),
      );
      r.ipnEvents += res.changes;
    }
  }
}

/** Jobs and their answers; written as upserts, so a folder read again changes nothing twice. */
function importRecon(db: Database, files: Map<string, string>, problem: Problem, r: ImportReport): void {
  for (const [name, text] of files) {
    if (!name.endsWith('.job.json')) continue;
    let job;
    try {
      job = jobFileSchema.parse(JSON.parse(text));
    } catch {
      problem(`recon/${name}`, { reason: 'unreadable reconciliation job; import its ledger again' });
      continue;
    }
    insertJobRow(db, job);
    const results: KeyResult[] = [];
    const lines = files.get(`${job.id}.results.jsonl`)?.split('\n') ?? [];
    lines.forEach((raw, i) => {
      if (!raw.trim()) return;
      try {
        results.push(JSON.parse(raw.replace(/\r$/, '')) as KeyResult);
      } catch {
        // A torn answer is simply queried again when the job resumes; still say so.
        problem(`recon/${job.id}.results.jsonl`, {
          line: i + 1,
          reason: 'unreadable answer; it will be looked up again',
        });
      }
    });
    insertResultRows(db, job.id, results);
    r.reconJobs += 1;
  }
}
