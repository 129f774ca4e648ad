import type pg from 'pg';
import { accountKeyOf, type AccountKey } from '../../../../shared/domain/account';
import type { ExceptionRecord } from '../../../../shared/recon/exceptions';
import type { ReconItem } from '../../../../shared/recon/match';
import type { RunFacts } from '../../../../shared/recon/run';
import type { SignOff } from '../../../../shared/recon/seal';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type {
  CloseStore,
  ExceptionAuditEntry,
  ExceptionWriteResult,
  PublishedRunHeader,
} from '../../services/reconciliation/close-store';
import { mapPgError } from './connection';
import type { PgRow } from './rows';

/**
 * Month-end close in the team database (schema v3, migration-close.ts): the same port and contract as
 * a single desk's SQLite (../sqlite/recon-close-store.ts), so a controller on any desk signs what the
 * clerks worked on theirs. Every write is ONE call of a SECURITY DEFINER function (one statement, its
 * own transaction), which takes the run's lock, checks the version and the sign-off, writes and audits
 * with the login and desk; publishing a run is one transaction on one connection. `pool` is a desk's
 * pool (the intents' pool of team storage: connection.ts createPgPool), whose connections announce the
 * desk id and schema version.
 */
export function createPostgresCloseStore(pool: pg.Pool): CloseStore {
  const query = async <R extends PgRow>(sql: string, params: unknown[] = []) => {
    try {
      return (await pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw mapPgError(e);
    }
  };
  const json = (v: unknown) => JSON.stringify(v);

  const exceptionOf = (r: PgRow): ExceptionRecord => {
    const e: ExceptionRecord = {
      runId: String(r['run_id']),
      id: String(r['id']),
      state: r['state'] as ExceptionRecord['state'],
      notes: r['notes'] as ExceptionRecord['notes'],
      ageFrom: String(r['age_from']),
      ageFromWhat: r['age_from_what'] as ExceptionRecord['ageFromWhat'],
      updatedAt: String(r['updated_at']),
      version: Number(r['version']),
    };
    if (r['owner'] != null) e.owner = String(r['owner']);
    if (r['match'] != null) e.match = r['match'] as NonNullable<ExceptionRecord['match']>;
    if (r['carried'] != null) e.carried = r['carried'] as NonNullable<ExceptionRecord['carried']>;
    return e;
  };
  const signOffOf = (r: PgRow, prefix = ''): SignOff => ({
    runId: String(r[`${prefix}run_id`]),
    by: String(r[`${prefix}by`]),
    at: String(r[`${prefix}at`]),
    comment: String(r[`${prefix}comment`]),
    openAtSignOff: r[`${prefix}open_ids`] as string[],
    contentHash: String(r[`${prefix}content_hash`]),
  });
  const headerOf = (r: PgRow): PublishedRunHeader => ({
    runId: String(r['run_id']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    ...(r['account'] != null ? { account: accountKeyOf(r['account'] as AccountKey) } : {}),
    label: String(r['label']),
    ...(r['period_from'] != null && r['period_to'] != null
      ? { period: { from: String(r['period_from']), to: String(r['period_to']) } }
      : {}),
    createdAt: String(r['created_at']),
    items: Number(r['items']),
    exceptionItems: Number(r['exception_items']),
    recordHash: String(r['record_hash']),
    publishedBy: String(r['published_by']),
    publishedDesk: String(r['published_desk']),
    publishedAt: String(r['published_at']),
    ...(r['s_run_id'] != null ? { signOff: signOffOf(r, 's_') } : {}),
  });
  // The account is read from the published facts (no column of its own: schema v3 stays as released).
  const RUNS = `SELECT r.run_id, r.profile_id, r.profile_name, r.facts -> 'account' AS account, r.label, r.period_from, r.period_to, r.created_at,
      r.items, r.exception_items, r.record_hash, r.published_by, r.published_desk,
      to_char(r.published_on_server AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published_at,
      s.run_id AS s_run_id, s.by AS s_by, s.at AS s_at, s.comment AS s_comment, s.open_ids AS s_open_ids,
      s.content_hash AS s_content_hash
    FROM refund_desk.recon_runs r LEFT JOIN refund_desk.recon_signoffs s ON s.run_id = r.run_id`;

  return {
    async readExceptionItems(runId) {
      return (
        await query('SELECT seq, item FROM refund_desk.recon_run_items WHERE run_id = $1 ORDER BY seq', [
          runId,
        ])
      ).map((r) => ({ seq: Number(r['seq']), item: r['item'] as ReconItem }));
    },
    async listExceptions(runId) {
      return (
        await query(
          'SELECT * FROM refund_desk.recon_exceptions WHERE run_id = $1 ORDER BY item_seq IS NULL, item_seq, id',
          [runId],
        )
      ).map(exceptionOf);
    },
    async addExceptions(runId, records, audit) {
      const r = await query<{ r: string }>('SELECT refund_desk.add_recon_exceptions($1, $2, $3) AS r', [
        runId,
        json(records),
        audit ? json(audit) : null,
      ]);
      return r[0]?.r === 'signed' ? { ok: false, reason: 'signed' } : { ok: true };
    },
    async changeExceptions(runId, changes, audit) {
      const r = await query<{ r: ExceptionWriteResult }>(
        'SELECT refund_desk.change_recon_exceptions($1, $2, $3) AS r',
        [runId, json(changes), json(audit)],
      );
      return r[0]!.r;
    },
    async readExceptionAudit(runId) {
      return (
        await query('SELECT * FROM refund_desk.recon_exception_audit WHERE run_id = $1 ORDER BY id', [runId])
      ).map((r): ExceptionAuditEntry => ({
        runId: String(r['run_id']),
        ...(r['exception_id'] != null ? { exceptionId: String(r['exception_id']) } : {}),
        at: String(r['at']),
        by: String(r['by']),
        action: String(r['action']),
        ...(r['before'] != null ? { before: r['before'] } : {}),
        ...(r['after'] != null ? { after: r['after'] } : {}),
        login: String(r['by_login']),
        desk: String(r['desk_id']),
      }));
    },
    async signOff(s) {
      const r = await query<{ r: string }>('SELECT refund_desk.sign_recon_run($1) AS r', [json(s)]);
      return r[0]?.r === 'signed' ? { ok: false, reason: 'signed' } : { ok: true };
    },
    async readSignOff(runId) {
      const r = await query('SELECT * FROM refund_desk.recon_signoffs WHERE run_id = $1', [runId]);
      return r[0] ? signOffOf(r[0]) : undefined;
    },
    team: {
      async publish(run) {
        const client = await pool.connect();
        // While checked out, pg-pool listens to none of the connection's errors: one that dies now (a
        // server restart) would otherwise throw from the socket's event; its query rejects all the same.
        let broken: Error | undefined;
        const onError = (e: Error) => void (broken = e);
        client.on('error', onError);
        try {
          await client.query('BEGIN');
          const { exceptionItems, ...rest } = run;
          const r = await client.query<{ r: 'published' | 'already' }>(
            'SELECT refund_desk.publish_recon_run($1) AS r',
            [json({ ...rest, exceptionItems: exceptionItems.length })],
          );
          const outcome = r.rows[0]!.r;
          if (outcome === 'published')
            for (let i = 0; i < exceptionItems.length; i += 2000)
              await client.query('SELECT refund_desk.add_recon_run_items($1, $2)', [
                run.facts.runId,
                json(exceptionItems.slice(i, i + 2000)),
              ]);
          await client.query('COMMIT');
          return outcome;
        } catch (e) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw mapPgError(e);
        } finally {
          client.removeListener('error', onError);
          client.release(broken);
        }
      },
      async readRun(runId) {
        const r = (
          await query(
            `${RUNS.replace('SELECT ', 'SELECT r.facts, r.summary, r.statement, ')} WHERE r.run_id = $1`,
            [runId],
          )
        )[0];
        if (!r) return undefined;
        return {
          ...headerOf(r),
          facts: r['facts'] as RunFacts,
          summary: r['summary'] as ReconSummary,
          statement: r['statement'] as string[],
        };
      },
      async awaitingSignOff() {
        return (await query(`${RUNS} WHERE s.run_id IS NULL ORDER BY r.created_at DESC, r.run_id DESC`)).map(
          headerOf,
        );
      },
    },
  };
}
