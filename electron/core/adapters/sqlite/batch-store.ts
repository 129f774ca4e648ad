import { batchRowResultSchema } from '../../../../shared/batch/result';
import type {
  BatchRecord,
  BatchRowRecord,
  BatchRowState,
  BatchState,
  BatchStore,
} from '../../services/batch/store-port';
import type { Database, SqlValue } from './database';
import { exclusiveOn } from './write-queue';

/**
 * Refund batches on the app's SQLite file (schema v9). Writes go through the connection's one write
 * queue (./write-queue.ts), shared with the intent store, so a batch row is never written inside — or
 * refused by — a refund decision that is open on the same connection.
 */

interface BatchRow {
  id: string;
  profile_id: string;
  profile_name: string;
  environment: string;
  base_url: string;
  merchant_no: string;
  store_no: string;
  file_name: string;
  file_digest: string;
  operator: string;
  state: string;
  created_at: string;
  updated_at: string;
  data: string;
}

interface RowRow {
  batch_id: string;
  line: number;
  state: string;
  intent_id: string | null;
  outcome: string | null;
  detail: string | null;
  at: string | null;
  operator: string | null;
  dry: string;
}

/** States of a refund intent that may have moved money (refunds/intent.ts COUNTED_STATES). */
const COUNTED = `('sending', 'outcome_unknown', 'accepted', 'succeeded')`;

const batchOf = (r: BatchRow): BatchRecord => ({
  id: r.id,
  profileId: r.profile_id,
  profileName: r.profile_name,
  environment: r.environment as BatchRecord['environment'],
  baseUrl: r.base_url,
  merchantNo: r.merchant_no,
  storeNo: r.store_no,
  fileName: r.file_name,
  fileDigest: r.file_digest,
  operator: r.operator,
  state: r.state as BatchState,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  facts: JSON.parse(r.data) as BatchRecord['facts'],
});

function rowOf(r: RowRow): BatchRowRecord {
  const out: BatchRowRecord = {
    batchId: r.batch_id,
    line: Number(r.line),
    state: r.state as BatchRowState,
    // Written by this store from the schema's own type; parsed again so a damaged row is an error, not a guess.
    dry: batchRowResultSchema.parse(JSON.parse(r.dry)),
  };
  if (r.intent_id !== null) out.intentId = r.intent_id;
  if (r.outcome !== null) out.outcome = r.outcome;
  if (r.detail !== null) out.detail = r.detail;
  if (r.at !== null) out.at = r.at;
  if (r.operator !== null) out.operator = r.operator;
  return out;
}

const states = (xs: readonly string[]) => xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ');

/**
 * Reads of the intents by row key name their index (v9's partial `intents_batch_row`): without table
 * statistics SQLite would otherwise walk every refund of the kind or account to find the few a batch made.
 */
export function createSqliteBatchStore(db: Database): BatchStore {
  const exclusive = exclusiveOn(db);
  return {
    create: (b, rows) =>
      exclusive((): BatchRecord => {
        db.run(
          `INSERT INTO refund_batches (id, profile_id, profile_name, environment, base_url, merchant_no, store_no,
             file_name, file_digest, operator, state, created_at, updated_at, data)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          b.id,
          b.profileId,
          b.profileName,
          b.environment,
          b.baseUrl,
          b.merchantNo,
          b.storeNo,
          b.fileName,
          b.fileDigest,
          b.operator,
          b.state,
          b.createdAt,
          b.updatedAt,
          JSON.stringify(b.facts),
        );
        for (const r of rows)
          db.run(
            `INSERT INTO refund_batch_rows (batch_id, line, row_key, transaction_no, amount_minor, currency, state,
               intent_id, outcome, detail, at, operator, dry) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            b.id,
            r.line,
            r.dry.key ?? null,
            r.dry.transactionNo ?? null,
            r.dry.amountMinor ?? null,
            r.dry.currency ?? null,
            r.state,
            r.intentId ?? null,
            r.outcome ?? null,
            r.detail ?? null,
            r.at ?? null,
            r.operator ?? null,
            JSON.stringify(r.dry),
          );
        return b;
      }),
    async get(id) {
      const r = db.get<BatchRow>('SELECT * FROM refund_batches WHERE id = ?', id);
      return r ? batchOf(r) : undefined;
    },
    async rows(id) {
      return db
        .all<RowRow>('SELECT * FROM refund_batch_rows WHERE batch_id = ? ORDER BY line', id)
        .map(rowOf);
    },
    async tally(id) {
      return db
        .all<{ cls: string; state: string; outcome: string | null; n: number }>(
          `SELECT json_extract(dry, '$.class') AS cls, state, outcome, count(*) AS n FROM refund_batch_rows
           WHERE batch_id = ? GROUP BY cls, state, outcome`,
          id,
        )
        .map((r) => ({
          dryClass: r.cls,
          state: r.state as BatchRowState,
          ...(r.outcome !== null ? { outcome: r.outcome } : {}),
          rows: Number(r.n),
        }));
    },
    async unfinished(a) {
      return db
        .all<BatchRow>(
          `SELECT * FROM refund_batches WHERE merchant_no = ? AND store_no = ? AND state IN ('awaiting_approval', 'running', 'paused')
           ORDER BY created_at, id`,
          a.merchantNo,
          a.storeNo,
        )
        .map(batchOf);
    },
    async list(a, q) {
      const params: SqlValue[] = [a.merchantNo, a.storeNo];
      let where = 'merchant_no = ? AND store_no = ?';
      if (q.state) {
        where += ' AND state = ?';
        params.push(q.state);
      }
      if (q.before) {
        where += ' AND (created_at, id) < (?, ?)';
        params.push(q.before.createdAt, q.before.id);
      }
      return db
        .all<BatchRow>(
          `SELECT * FROM refund_batches WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
          ...params,
          q.limit,
        )
        .map(batchOf);
    },
    setState: (id, state, at) =>
      exclusive(() => {
        db.run('UPDATE refund_batches SET state = ?, updated_at = ? WHERE id = ?', state, at, id);
      }),
    claim: (id, runner, nowMs, untilMs) =>
      exclusive(
        () =>
          db.run(
            `UPDATE refund_batches SET runner = ?, lease_until = ?
             WHERE id = ? AND (runner IS NULL OR runner = ? OR lease_until IS NULL OR lease_until < ?)`,
            runner,
            untilMs,
            id,
            runner,
            nowMs,
          ).changes === 1,
      ),
    release: (id, runner) =>
      exclusive(() => {
        db.run(
          'UPDATE refund_batches SET runner = NULL, lease_until = NULL WHERE id = ? AND runner = ?',
          id,
          runner,
        );
      }),
    moveRow: (batchId, line, from, to, p) =>
      exclusive(() => {
        const params: SqlValue[] = [
          to,
          p.intentId ?? null,
          p.outcome ?? null,
          p.detail ?? null,
          p.at ?? null,
          p.operator ?? null,
          batchId,
          line,
        ];
        return (
          db.run(
            `UPDATE refund_batch_rows SET state = ?, intent_id = coalesce(?, intent_id), outcome = ?, detail = ?,
               at = ?, operator = ?
             WHERE batch_id = ? AND line = ? AND state IN (${states(from)})`,
            ...params,
          ).changes === 1
        );
      }),
    async doneKeys(a) {
      const rows = db.all<{ id: string; batch: string | null }>(
        `SELECT id, json_extract(data, '$.batch') AS batch FROM intents INDEXED BY intents_batch_row
         WHERE kind = 'refund' AND merchant_no = ? AND store_no = ?
           AND json_extract(data, '$.batch.rowKey') IS NOT NULL AND state IN ${COUNTED}`,
        a.merchantNo,
        a.storeNo,
      );
      const out = new Map<string, { batchId: string; intentId: string; line: number }>();
      for (const r of rows) {
        const b = JSON.parse(r.batch ?? '{}') as { id?: unknown; rowKey?: unknown; line?: unknown };
        if (typeof b.rowKey === 'string' && typeof b.id === 'string')
          out.set(b.rowKey, { batchId: b.id, intentId: r.id, line: Number(b.line) });
      }
      return out;
    },
    async intentOfRow(a, batchId, rowKey) {
      return db.get<{ id: string }>(
        `SELECT id FROM intents INDEXED BY intents_batch_row
         WHERE kind = 'refund' AND merchant_no = ? AND store_no = ?
           AND json_extract(data, '$.batch.rowKey') = ? AND json_extract(data, '$.batch.rowKey') IS NOT NULL
           AND json_extract(data, '$.batch.id') = ?
         ORDER BY created_at LIMIT 1`,
        a.merchantNo,
        a.storeNo,
        rowKey,
        batchId,
      )?.id;
    },
  };
}
