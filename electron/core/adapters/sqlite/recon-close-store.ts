import type { ExceptionRecord } from '../../../../shared/recon/exceptions';
import type { ReconItem } from '../../../../shared/recon/match';
import type { SignOff } from '../../../../shared/recon/seal';
import type {
  CloseStore,
  ExceptionAuditEntry,
  ExceptionWriteResult,
} from '../../services/reconciliation/close-store';
import type { Database, Row } from './database';
import { decodeItem } from './item-codec';
import { runReferents } from './item-refs';

function exceptionOf(r: Row): ExceptionRecord {
  const e: ExceptionRecord = {
    runId: String(r['run_id']),
    id: String(r['id']),
    state: r['state'] as ExceptionRecord['state'],
    notes: JSON.parse(String(r['notes'])) as ExceptionRecord['notes'],
    ageFrom: String(r['age_from']),
    ageFromWhat: r['age_from_what'] as ExceptionRecord['ageFromWhat'],
    updatedAt: String(r['updated_at']),
    version: Number(r['version']),
  };
  if (r['owner'] !== null && r['owner'] !== undefined) e.owner = String(r['owner']);
  if (r['match']) e.match = JSON.parse(String(r['match'])) as NonNullable<ExceptionRecord['match']>;
  if (r['carried']) e.carried = JSON.parse(String(r['carried'])) as NonNullable<ExceptionRecord['carried']>;
  return e;
}

/** The database's own refusal (a trigger): the run was signed meanwhile. */
const signedRefusal = (e: unknown) => e instanceof Error && /run signed/.test(e.message);

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * A single desk's month-end close in the app database (schema v6: recon_exceptions,
 * recon_exception_audit, recon_signoffs), beside its runs (./recon-run-store.ts), whose items it reads
 * (in pages since v13, a row each before).
 * Its triggers refuse any change of a signed run's exceptions.
 */
export function createSqliteCloseStore(db: Database): CloseStore {
  const insertAudit = (a: ExceptionAuditEntry) =>
    db.run(
      'INSERT INTO recon_exception_audit (run_id, exception_id, at, by, action, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
      a.runId,
      a.exceptionId ?? null,
      a.at,
      a.by,
      a.action,
      json(a.before),
      json(a.after),
    );
  return {
    async readExceptionItems(runId) {
      const out: Array<{ seq: number; item: ReconItem }> = [];
      // Items in pages (schema v13): only the pages with a non-matched item, only those items decoded.
      for (const p of db.all<{ first_seq: number; unmatched: string; data: string }>(
        'SELECT first_seq, unmatched, data FROM recon_item_pages WHERE job_id = ? AND unmatched IS NOT NULL ORDER BY first_seq',
        runId,
      )) {
        const texts = JSON.parse(p.data) as string[];
        for (const i of JSON.parse(p.unmatched) as number[])
          out.push({ seq: Number(p.first_seq) + i, item: decodeItem(texts[i]!, runReferents(db, runId)) });
      }
      // A run stored before v13: a row per item.
      for (const r of db.all<{ seq: number; data: string }>(
        `SELECT seq, data FROM recon_items WHERE job_id = ? AND outcome <> 'matched' ORDER BY seq`,
        runId,
      ))
        out.push({ seq: Number(r.seq), item: decodeItem(r.data, runReferents(db, runId)) });
      return out;
    },
    async listExceptions(runId) {
      return db
        .all('SELECT * FROM recon_exceptions WHERE run_id = ? ORDER BY item_seq IS NULL, item_seq, id', runId)
        .map(exceptionOf);
    },
    async addExceptions(runId, records, audit) {
      try {
        db.immediate(() => {
          for (const e of records) {
            const added = db.run(
              `INSERT OR IGNORE INTO recon_exceptions (run_id, id, item_seq, state, owner, notes, match, carried,
                 age_from, age_from_what, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
              runId,
              e.id,
              e.id.startsWith('i') ? Number(e.id.slice(1)) : null,
              e.state,
              e.owner ?? null,
              JSON.stringify(e.notes),
              json(e.match),
              json(e.carried),
              e.ageFrom,
              e.ageFromWhat,
              e.updatedAt,
              e.version,
            );
            if (added.changes > 0 && audit) insertAudit({ runId, exceptionId: e.id, ...audit, after: e });
          }
        });
        return { ok: true };
      } catch (e) {
        if (signedRefusal(e)) return { ok: false, reason: 'signed' };
        throw e;
      }
    },
    async changeExceptions(runId, changes, audit) {
      try {
        return db.immediate((): ExceptionWriteResult => {
          if (db.get('SELECT 1 AS x FROM recon_signoffs WHERE run_id = ?', runId))
            return { ok: false, reason: 'signed' };
          for (const { before } of changes) {
            const now = db.get<{ version: number }>(
              'SELECT version FROM recon_exceptions WHERE run_id = ? AND id = ?',
              runId,
              before.id,
            );
            if (!now) return { ok: false, reason: 'missing', id: before.id };
            if (Number(now.version) !== before.version)
              return { ok: false, reason: 'changed', id: before.id };
          }
          for (const { before, after } of changes) {
            db.run(
              `UPDATE recon_exceptions SET state = ?, owner = ?, notes = ?, match = ?, carried = ?, updated_at = ?,
                 version = version + 1 WHERE run_id = ? AND id = ?`,
              after.state,
              after.owner ?? null,
              JSON.stringify(after.notes),
              json(after.match),
              json(after.carried),
              audit.at,
              runId,
              before.id,
            );
            insertAudit({ runId, exceptionId: before.id, ...audit, before, after });
          }
          return { ok: true };
        });
      } catch (e) {
        if (signedRefusal(e)) return { ok: false, reason: 'signed' };
        throw e;
      }
    },
    async readExceptionAudit(runId) {
      return db
        .all('SELECT * FROM recon_exception_audit WHERE run_id = ? ORDER BY id', runId)
        .map((r): ExceptionAuditEntry => ({
          runId: String(r['run_id']),
          ...(r['exception_id'] ? { exceptionId: String(r['exception_id']) } : {}),
          at: String(r['at']),
          by: String(r['by']),
          action: String(r['action']),
          ...(r['before'] ? { before: JSON.parse(String(r['before'])) as unknown } : {}),
          ...(r['after'] ? { after: JSON.parse(String(r['after'])) as unknown } : {}),
        }));
    },
    async signOff(s) {
      return db.immediate((): ExceptionWriteResult => {
        if (db.get('SELECT 1 AS x FROM recon_signoffs WHERE run_id = ?', s.runId))
          return { ok: false, reason: 'signed' };
        db.run(
          'INSERT INTO recon_signoffs (run_id, by, at, comment, open_ids, content_hash) VALUES (?, ?, ?, ?, ?, ?)',
          s.runId,
          s.by,
          s.at,
          s.comment,
          JSON.stringify(s.openAtSignOff),
          s.contentHash,
        );
        insertAudit({ runId: s.runId, at: s.at, by: s.by, action: 'sign_off', after: s });
        return { ok: true };
      });
    },
    async readSignOff(runId) {
      const r = db.get('SELECT * FROM recon_signoffs WHERE run_id = ?', runId);
      if (!r) return undefined;
      return {
        runId: String(r['run_id']),
        by: String(r['by']),
        at: String(r['at']),
        comment: String(r['comment']),
        openAtSignOff: JSON.parse(String(r['open_ids'])) as string[],
        contentHash: String(r['content_hash']),
      } satisfies SignOff;
    },
  };
}
