import type pg from 'pg';
import { batchRowResultSchema } from '../../../../shared/batch/result';
import type { Currency } from '../../../../shared/domain/currencies';
import type {
  BatchRecord,
  BatchRowRecord,
  BatchRowState,
  BatchState,
  BatchStore,
} from '../../services/batch/store-port';
import { int8, mapPgError, safeAmount } from './connection';
import type { PgRow } from './rows';

/**
 * Refund batches in the team database (schema v6, migration-batch.ts; v7 migration-batch-close.ts): the same port and contract as a
 * single desk's SQLite (../sqlite/batch-store.ts), so a batch started on one desk is seen, resumed after a
 * crash, or approved and run on another. Every write is ONE call of a SECURITY DEFINER function (its own
 * statement and transaction) that stamps the login and desk; the batch's lease is the server's clock
 * (the caller's `nowMs` is not used: desks' clocks differ). `pool` is a desk's pool (team storage's),
 * whose connections announce the desk id and schema version.
 */

/** States of a refund intent that may have moved money (refunds/intent.ts COUNTED_STATES). */
const COUNTED = ['sending', 'outcome_unknown', 'accepted', 'succeeded'];

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

function batchOf(r: PgRow): BatchRecord {
  const b: BatchRecord = {
    id: String(r['id']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: r['environment'] as BatchRecord['environment'],
    baseUrl: String(r['base_url']),
    merchantNo: String(r['merchant_no']),
    storeNo: String(r['store_no']),
    fileName: String(r['file_name']),
    fileDigest: String(r['file_digest']),
    operator: String(r['operator']),
    state: r['state'] as BatchState,
    createdAt: String(r['created_at']),
    updatedAt: String(r['updated_at']),
    facts: r['data'] as BatchRecord['facts'],
    approval: { startedBy: String(r['created_by']) },
  };
  if (r['expires_at'] != null) b.approval!.expiresAt = iso(r['expires_at']);
  if (r['approved_by'] != null) b.approval!.approvedBy = String(r['approved_by']);
  if (r['approved_desk'] != null) b.approval!.approvedDesk = String(r['approved_desk']);
  if (r['closed_by'] != null) b.approval!.closedBy = String(r['closed_by']);
  if (r['closed_on_server'] != null) b.approval!.closedAt = iso(r['closed_on_server']);
  if (r['close_comment'] != null) b.approval!.closeComment = String(r['close_comment']);
  return b;
}

function rowOf(r: PgRow): BatchRowRecord {
  const out: BatchRowRecord = {
    batchId: String(r['batch_id']),
    line: Number(r['line']),
    state: r['state'] as BatchRowState,
    // Written by this store from the schema's own type; parsed again so a damaged row is an error, not a guess.
    dry: batchRowResultSchema.parse(r['dry']),
  };
  if (r['intent_id'] != null) out.intentId = String(r['intent_id']);
  if (r['outcome'] != null) out.outcome = String(r['outcome']);
  if (r['detail'] != null) out.detail = String(r['detail']);
  if (r['at'] != null) out.at = String(r['at']);
  if (r['operator'] != null) out.operator = String(r['operator']);
  return out;
}

/**
 * A checker rejects a batch awaiting approval with a comment (refund_desk.reject_batch: refused for its
 * starter, a person who is not a checker, a blank comment, a batch not waiting); answers it as stored —
 * `rejected`, or `expired` when its time had run out. Also the CLI's `reject RB…` (its own connection).
 */
export async function rejectBatch(
  q: Pick<pg.Pool, 'query'> | Pick<pg.Client, 'query'>,
  id: string,
  comment: string,
): Promise<BatchRecord> {
  try {
    const r = (await q.query<PgRow>('SELECT * FROM refund_desk.reject_batch($1, $2)', [id, comment])).rows[0];
    return batchOf(r!);
  } catch (e) {
    throw mapPgError(e);
  }
}

export function createPostgresBatchStore(pool: pg.Pool): BatchStore {
  const query = async <R extends PgRow>(sql: string, params: unknown[] = []) => {
    try {
      return (await pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw mapPgError(e);
    }
  };
  const one = async (sql: string, params: unknown[]) => {
    const r = (await query(sql, params))[0];
    return r ? batchOf(r) : undefined;
  };
  // Batches awaiting approval past their expiry (server clock) are marked expired before they are read.
  // A desk that may not write (another schema version) still reads: the expiry is then marked by the next.
  const expire = () => query('SELECT refund_desk.expire_batches()').catch(() => undefined);

  return {
    async create(b, rows) {
      for (const r of rows)
        if (r.dry.amountMinor !== undefined) safeAmount(r.dry.amountMinor, 'a row amount');
      const stored = await one('SELECT * FROM refund_desk.create_batch($1::jsonb, $2::jsonb)', [
        JSON.stringify({
          id: b.id,
          profile_id: b.profileId,
          profile_name: b.profileName,
          environment: b.environment,
          base_url: b.baseUrl,
          merchant_no: b.merchantNo,
          store_no: b.storeNo,
          file_name: b.fileName,
          file_digest: b.fileDigest,
          operator: b.operator,
          created_at: b.createdAt,
          updated_at: b.updatedAt,
          data: b.facts,
        }),
        JSON.stringify(
          rows.map((r) => ({
            line: r.line,
            row_key: r.dry.key ?? null,
            transaction_no: r.dry.transactionNo ?? null,
            amount_minor: r.dry.amountMinor ?? null,
            currency: r.dry.currency ?? null,
            state: r.state,
            intent_id: r.intentId ?? null,
            outcome: r.outcome ?? null,
            detail: r.detail ?? null,
            at: r.at ?? null,
            operator: r.operator ?? null,
            dry: r.dry,
          })),
        ),
      ]);
      return stored!;
    },
    async get(id) {
      const r = (
        await query(
          `SELECT *, (state = 'awaiting_approval' AND expires_at <= now()) AS past
             FROM refund_desk.batches WHERE id = $1`,
          [id],
        )
      )[0];
      if (!r?.['past']) return r ? batchOf(r) : undefined;
      await expire();
      return one('SELECT * FROM refund_desk.batches WHERE id = $1', [id]);
    },
    async list(a, q) {
      await expire();
      const params: unknown[] = [a.merchantNo, a.storeNo, q.limit];
      let where = 'merchant_no = $1 AND store_no = $2';
      if (q.state) {
        params.push(q.state);
        where += ` AND state = $${params.length}`;
      }
      if (q.before) {
        params.push(q.before.createdAt, q.before.id);
        where += ` AND (created_at, id) < ($${params.length - 1}, $${params.length})`;
      }
      return (
        await query(
          `SELECT * FROM refund_desk.batches WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3`,
          params,
        )
      ).map(batchOf);
    },
    async rows(id) {
      return (
        await query('SELECT * FROM refund_desk.batch_rows WHERE batch_id = $1 ORDER BY line', [id])
      ).map(rowOf);
    },
    async tally(id) {
      const rows = await query<{ cls: string; state: string; outcome: string | null; n: string }>(
        `SELECT dry ->> 'class' AS cls, state, outcome, count(*) AS n FROM refund_desk.batch_rows
          WHERE batch_id = $1 GROUP BY 1, 2, 3`,
        [id],
      );
      return rows.map((r) => ({
        dryClass: r.cls,
        state: r.state as BatchRowState,
        ...(r.outcome !== null ? { outcome: r.outcome } : {}),
        rows: int8(r.n, 'count'),
      }));
    },
    async unfinished(a) {
      await expire();
      return (
        await query(
          `SELECT * FROM refund_desk.batches WHERE merchant_no = $1 AND store_no = $2
              AND state IN ('awaiting_approval', 'running', 'paused') ORDER BY created_at, id`,
          [a.merchantNo, a.storeNo],
        )
      ).map(batchOf);
    },
    async setState(id, state, at) {
      await query('SELECT refund_desk.set_batch_state($1, $2, $3)', [id, state, at]);
    },
    async claim(id, runner, nowMs, untilMs) {
      const r = await query<{ ok: boolean }>('SELECT refund_desk.claim_batch($1, $2, $3::float8) AS ok', [
        id,
        runner,
        Math.max(1, untilMs - nowMs),
      ]);
      return r[0]?.ok === true;
    },
    async release(id, runner) {
      await query('SELECT refund_desk.release_batch($1, $2)', [id, runner]);
    },
    async moveRow(batchId, line, from, to, p) {
      const r = await query<{ ok: boolean }>(
        'SELECT refund_desk.move_batch_row($1, $2, $3::text[], $4, $5::jsonb) AS ok',
        [batchId, line, [...from], to, JSON.stringify(p)],
      );
      return r[0]?.ok === true;
    },
    async doneKeys(a) {
      const rows = await query<{ id: string; batch: Record<string, unknown> | null }>(
        `SELECT id, data -> 'batch' AS batch FROM refund_desk.intents
          WHERE kind = 'refund' AND merchant_no = $1 AND store_no = $2 AND data ? 'batch'
            AND data #>> '{batch,rowKey}' IS NOT NULL AND state = ANY($3::text[])`,
        [a.merchantNo, a.storeNo, COUNTED],
      );
      const out = new Map<string, { batchId: string; intentId: string; line: number }>();
      for (const r of rows) {
        const b = r.batch ?? {};
        if (typeof b['rowKey'] === 'string' && typeof b['id'] === 'string')
          out.set(b['rowKey'], { batchId: b['id'], intentId: r.id, line: Number(b['line']) });
      }
      return out;
    },
    async intentOfRow(a, batchId, rowKey) {
      const r = await query<{ id: string }>(
        `SELECT id FROM refund_desk.intents
          WHERE kind = 'refund' AND merchant_no = $1 AND store_no = $2 AND data ? 'batch'
            AND data #>> '{batch,rowKey}' = $3 AND data #>> '{batch,id}' = $4
          ORDER BY created_at LIMIT 1`,
        [a.merchantNo, a.storeNo, rowKey, batchId],
      );
      return r[0]?.id;
    },
    approvals: {
      async policies(a) {
        // An exact environment before '*', per currency (refund_desk.approval_policy).
        const rows = await query<{ currency: string; above: string }>(
          `SELECT DISTINCT ON (currency) currency, approval_above_minor AS above FROM refund_desk.approval_policies
            WHERE environment IN ($1, '*') AND merchant_no = $2 AND store_no = $3
            ORDER BY currency, environment = '*'`,
          [a.environment, a.merchantNo, a.storeNo],
        );
        const out: Partial<Record<Currency, number>> = {};
        for (const r of rows) out[r.currency as Currency] = int8(r.above, 'approval_above_minor');
        return out;
      },
      async approve(id) {
        return (await one('SELECT * FROM refund_desk.approve_batch($1)', [id]))!;
      },
      reject: (id, comment) => rejectBatch(pool, id, comment),
    },
  };
}
