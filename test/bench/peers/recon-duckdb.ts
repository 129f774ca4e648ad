/**
 * The reconciliation bench's DuckDB peer (@duckdb/node-api, in its own Node process): the same files,
 * the same checks and the same outcome counts and totals as recon_pandas.py and Refund Desk — in SQL.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { PEER_STATUS_WORDS, type PeerAnswer, type ReconFiles } from './recon-shared';

const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function reconcileWithDuckDb(
  f: ReconFiles,
  exponents: Record<string, number>,
): Promise<Omit<PeerAnswer, 'ms' | 'cpuMs' | 'peakMb'>> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjects();
  const exps = Object.entries(exponents)
    .map(([cur, e]) => `(${sqlText(cur)}, ${e})`)
    .join(', ');
  const words = Object.entries(PEER_STATUS_WORDS)
    .map(([w, s]) => `(${sqlText(w)}, ${sqlText(s)})`)
    .join(', ');
  const norm = `regexp_replace(lower(l."Status"), '[^a-z]', '', 'g')`;
  const ms = (col: string) => `epoch_ms(TRY_CAST(nullif(${col}, '') AS TIMESTAMPTZ))`;
  await c.run(`CREATE TEMP TABLE exps AS SELECT * FROM (VALUES ${exps}) e(cur, e)`);
  await c.run(`CREATE TEMP TABLE words AS SELECT * FROM (VALUES ${words}) w(word, said)`);
  await c.run(
    `CREATE TEMP TABLE l AS SELECT * FROM read_csv(${sqlText(f.ledger)}, header = true, all_varchar = true)`,
  );
  await c.run(`CREATE TEMP TABLE r AS
    SELECT l.rowid AS rn, "Transaction No" AS tx, "Currency" AS cur,
      CAST(round(TRY_CAST("Amount" AS DOUBLE) * pow(10, exps.e)) AS BIGINT) AS minor,
      CASE WHEN ${norm} = '' THEN 'paid' ELSE coalesce(words.said, 'other') END AS status,
      (TRY_STRPTIME("Date", '%Y-%m-%d')::DATE - DATE '1970-01-01') AS dayno
    FROM l JOIN exps ON exps.cur = l."Currency" LEFT JOIN words ON words.word = ${norm}
    WHERE TRY_CAST("Amount" AS DOUBLE) IS NOT NULL AND TRY_STRPTIME("Date", '%Y-%m-%d') IS NOT NULL
      AND "Transaction No" <> ''`);
  await c.run(`CREATE TEMP TABLE rk AS
    SELECT *, row_number() OVER (PARTITION BY tx ORDER BY rn) AS k FROM r`);
  await c.run(`CREATE TEMP TABLE p0 AS
    SELECT DISTINCT ON (transactionNo) transactionNo, amountMinor, currency, status,
      ${ms('createdAt')} AS created, coalesce(${ms('paidAt')}, ${ms('createdAt')}) AS paytime
    FROM read_csv(${sqlText(f.payments)}, header = true,
      types = {'transactionNo': 'VARCHAR', 'reference': 'VARCHAR', 'currency': 'VARCHAR', 'status': 'VARCHAR', 'createdAt': 'VARCHAR', 'paidAt': 'VARCHAR'})`);
  await c.run(`CREATE TEMP TABLE rf AS
    SELECT transactionNo, amountMinor, currency, status, ${ms('createdAt')} AS created
    FROM read_csv(${sqlText(f.refunds)}, header = true,
      types = {'transactionNo': 'VARCHAR', 'refundTransactionNo': 'VARCHAR', 'currency': 'VARCHAR', 'status': 'VARCHAR', 'createdAt': 'VARCHAR'})
    WHERE status IN ('success', 'pending')`);
  await c.run(`CREATE TEMP TABLE p AS
    SELECT p0.*, coalesce(x.refunded, 0) AS refunded FROM p0 LEFT JOIN (
      SELECT rf.transactionNo, sum(rf.amountMinor) AS refunded FROM rf
      JOIN p0 ON rf.transactionNo = p0.transactionNo AND rf.currency = p0.currency GROUP BY 1
    ) x ON x.transactionNo = p0.transactionNo`);
  // Ledger → service: the first row of each key, with the service's payment when it has one.
  await c.run(`CREATE TEMP TABLE f AS
    SELECT rk.*, p.transactionNo AS stx, p.amountMinor AS samt, p.currency AS scur, p.status AS sst,
      p.refunded AS sref, p.paytime,
      CASE
        WHEN p.transactionNo IS NULL THEN 'missing_at_service'
        WHEN rk.cur <> p.currency THEN 'currency_mismatch'
        WHEN rk.minor <> p.amountMinor THEN 'amount_mismatch'
        WHEN rk.status <> 'unpaid' AND p.status <> 'success' THEN 'status_mismatch'
        WHEN rk.status = 'unpaid' AND p.status = 'success' THEN 'status_mismatch'
        WHEN p.refunded > 0 AND rk.status <> 'refunded' THEN 'refunded_not_in_ledger'
        WHEN rk.status = 'refunded' AND p.refunded = 0 THEN 'status_mismatch'
        WHEN p.paytime IS NOT NULL
          AND abs(rk.dayno - floor((p.paytime + 28800000) / 86400000)) > ${f.toleranceDays} THEN 'date_mismatch'
        ELSE 'matched'
      END AS outcome
    FROM rk LEFT JOIN p ON rk.tx = p.transactionNo WHERE rk.k = 1`);
  // Service → ledger: paid payments of the period no row claimed; refunds in it of earlier payments.
  await c.run(`CREATE TEMP TABLE unclaimed AS
    SELECT * FROM p WHERE transactionNo NOT IN (SELECT tx FROM r)`);
  await c.run(`CREATE TEMP TABLE missing AS
    SELECT * FROM unclaimed WHERE created >= ${f.startMs} AND created < ${f.endMs} AND status = 'success'`);
  await c.run(`CREATE TEMP TABLE lacking AS
    SELECT rf.* FROM rf JOIN unclaimed u ON u.transactionNo = rf.transactionNo
    WHERE (u.created IS NULL OR u.created < ${f.startMs})
      AND rf.created >= ${f.startMs} AND rf.created < ${f.endMs}`);
  const counts: Record<string, number> = {};
  for (const r of await rows(`
      SELECT outcome, count(*) AS n FROM f GROUP BY outcome
      UNION ALL SELECT 'duplicate_in_ledger', count(*) FROM rk WHERE k > 1
      UNION ALL SELECT 'missing_in_ledger', count(*) FROM missing
      UNION ALL SELECT 'refund_missing_in_ledger', count(*) FROM lacking
      UNION ALL SELECT 'unreadable', (SELECT count(*) FROM l) - (SELECT count(*) FROM r)`))
    if (Number(r['n']) > 0) counts[String(r['outcome'])] = Number(r['n']);
  const totals: PeerAnswer['totals'] = {};
  for (const r of await rows(`
      SELECT cur, sum(ledger) AS ledger, sum(service) AS service, sum(refunds) AS refunds FROM (
        SELECT cur, CASE WHEN status <> 'unpaid' THEN minor ELSE 0 END AS ledger, 0 AS service, 0 AS refunds FROM r
        UNION ALL SELECT scur, 0, CASE WHEN sst = 'success' THEN samt ELSE 0 END, sref FROM f WHERE stx IS NOT NULL
        UNION ALL SELECT currency, 0, amountMinor, refunded FROM missing
        UNION ALL SELECT currency, 0, 0, amountMinor FROM lacking
      ) GROUP BY cur`))
    totals[String(r['cur'])] = {
      ledger: Number(r['ledger']),
      service: Number(r['service']),
      refunds: Number(r['refunds']),
    };
  c.closeSync();
  return { counts, totals };
}
