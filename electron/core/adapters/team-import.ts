import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { AppError } from '../../../shared/domain/errors';
import { formatMinor } from '../../../shared/domain/money';
import { isKnownCurrency } from '../../../shared/domain/currencies';
import { type PgConnectOptions, pgClientConfig, safeAmount } from './postgres/connection';
import { DATABASE_FILE } from './sqlite/app-storage';
import { type Database, openDatabase } from './sqlite/database';
import { MIGRATIONS } from './sqlite/schema';

/**
 * Switching a desk that has local refunds to team mode (issue 26 item 7): its refund intents, their
 * events and its refunds' audit, from the data folder's SQLite file into the team database — once.
 *
 * It is an explicit command (`cli team import-local --data-dir DIR --database-url URL`), not something
 * opening the team storage does by itself: it writes history into the team's journal as the person who
 * runs it, and it is refused while any local refund is unresolved — a person decides when. Opening the
 * team storage says that it is still to do (health "team-import" and the log), with the command.
 *
 * - Refused, with nothing written, while any local refund is `sending` or `outcome_unknown`: the list
 *   names each and says how to resolve it on this desk first.
 * - Each intent goes through refund_desk.import_intent (team schema v4) with its whole history, marked
 *   `importedFrom` (desk, this file's id, folder, when) and audited as `imported`; each audit entry
 *   through refund_desk.import_audit, keyed by this file and the entry. An intent already imported from
 *   this file, or an entry already copied, is skipped: a second run imports nothing. One transaction.
 * - The file records the import (`team_imports`), so the desk stops asking for it.
 * - Back-office payments stay in the desk's file (they are not refunds).
 */
export interface LocalImportReport {
  database: string;
  /** Refund intents in the file. */
  local: number;
  imported: string[];
  already: number;
  /** Ids another intent of the team database already has (not imported; reported). */
  taken: string[];
  audit: { imported: number; already: number };
  /** Back-office payment intents left in the file. */
  paymentsLeft: number;
}

const UNRESOLVED = new Set(['sending', 'outcome_unknown']);

/** A team database as imports key it: host, port and database, whoever the login (one team, one journal). */
export function importKey(address: string): string {
  try {
    const u = new URL(address);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return address;
  }
}

/**
 * What health says while the file holds refunds not yet imported into this team database (undefined
 * once they are, or when there are none).
 */
export function localImportNotice(db: Database, address: string, dataDir: string): string | undefined {
  const local = db.get<{ n: number }>(`SELECT count(*) AS n FROM intents WHERE kind = 'refund'`)!.n;
  if (local === 0) return undefined;
  const done =
    db.get<{ n: number | null }>(
      'SELECT max(local_refunds) AS n FROM team_imports WHERE database = ?',
      importKey(address),
    )?.n ?? 0;
  if (local <= done) return undefined;
  const n = local - done;
  return `This desk's data folder holds ${n} refund${n === 1 ? '' : 's'} made before team mode that ${n === 1 ? 'is' : 'are'} not in the team database yet: import them once with “cli team import-local --data-dir ${dataDir} --database-url <your address>” (refused while any of them is unresolved). Until then the other desks do not see them.`;
}

type Row = Record<string, unknown>;

/** A row of the file's `intents` as refund_desk.intents' columns (jsonb_populate_record). */
function intentJson(r: Row): Record<string, unknown> {
  const { seq: _s, lease_until: _l, duplicate_of: _d, data, last_check_found, amount_minor, ...cols } = r;
  return {
    ...cols,
    amount_minor: safeAmount(Number(amount_minor), `the amount of refund ${String(r['id'])}`),
    last_check_found:
      last_check_found === null || last_check_found === undefined ? null : Number(last_check_found) === 1,
    data: JSON.parse(String(data ?? '{}')) as unknown,
  };
}

function unresolvedMessage(rows: Row[], dataDir: string): string {
  const list = rows
    .map((r) => {
      const ccy = String(r['currency']);
      const amount = isKnownCurrency(ccy)
        ? `${formatMinor(Number(r['amount_minor']), ccy)} ${ccy}`
        : `${String(r['amount_minor'])} minor units of ${ccy}`;
      const state =
        r['state'] === 'sending' ? 'being sent (its answer was never recorded)' : 'outcome unknown';
      return `  ${String(r['id'])}: payment ${String(r['transaction_no'])}, ${amount}, ${state}`;
    })
    .join('\n');
  return `${rows.length} refund${rows.length === 1 ? '' : 's'} of this desk ${rows.length === 1 ? 'is' : 'are'} unresolved, so nothing was imported:\n${list}\nResolve ${rows.length === 1 ? 'it' : 'each'} on this desk first — without --database-url — with “cli check-refund <id> --data-dir ${dataDir} --profile <name>” (or Refunds → Check again in the app) until it is accepted, rejected or closed as not sent; then run the import again.`;
}

export async function importLocalRefunds(o: {
  dataDir: string;
  connection: PgConnectOptions & { deskId: string };
  /** The address as it may be shown (no password). */
  address: string;
  now: () => number;
}): Promise<LocalImportReport> {
  const report: LocalImportReport = {
    database: o.address,
    local: 0,
    imported: [],
    already: 0,
    taken: [],
    audit: { imported: 0, already: 0 },
    paymentsLeft: 0,
  };
  const file = join(o.dataDir, DATABASE_FILE);
  if (!existsSync(file)) return report;
  const db = openDatabase(file, MIGRATIONS);
  try {
    const intents = db.all(`SELECT * FROM intents WHERE kind = 'refund' ORDER BY created_at, id`);
    report.local = intents.length;
    report.paymentsLeft = db.get<{ n: number }>(
      `SELECT count(*) AS n FROM intents WHERE kind = 'payment'`,
    )!.n;
    const unresolved = intents.filter((r) => UNRESOLVED.has(String(r['state'])));
    if (unresolved.length > 0)
      throw new AppError('conflict', unresolvedMessage(unresolved, o.dataDir), {
        details: { unresolved: unresolved.map((r) => String(r['id'])), moneyMoved: 'no' },
      });
    const audit = db.all(`SELECT * FROM audit WHERE kind = 'refund' ORDER BY id`);
    if (intents.length === 0 && audit.length === 0) return report;
    const fileId = db.get<{ file_id: string }>('SELECT file_id FROM desk_file WHERE id = 1')!.file_id;
    const source = {
      desk: o.connection.deskId,
      file: fileId,
      dataDir: o.dataDir,
      at: new Date(o.now()).toISOString(),
    };
    const client = new pg.Client(pgClientConfig(o.connection));
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('BEGIN');
      for (const r of intents) {
        const events = db
          .all<Row>(
            'SELECT at, type, from_state, to_state, data FROM intent_events WHERE intent_id = ? ORDER BY id',
            String(r['id']),
          )
          .map((e) => ({
            at: e['at'],
            type: e['type'],
            from: e['from_state'],
            to: e['to_state'],
            data: JSON.parse(String(e['data'] ?? '{}')) as unknown,
          }));
        const res = await client.query<{ r: string }>(
          'SELECT refund_desk.import_intent($1::jsonb, $2::jsonb, $3::jsonb) AS r',
          [JSON.stringify(intentJson(r)), JSON.stringify(events), JSON.stringify(source)],
        );
        const how = res.rows[0]!.r;
        if (how === 'imported') report.imported.push(String(r['id']));
        else if (how === 'already') report.already += 1;
        else report.taken.push(String(r['id']));
      }
      for (const a of audit) {
        const { id, data, ...cols } = a;
        const res = await client.query<{ r: boolean }>(
          'SELECT refund_desk.import_audit($1::jsonb, $2::jsonb, $3::int8) AS r',
          [
            JSON.stringify({ ...cols, data: JSON.parse(String(data ?? '{}')) as unknown }),
            JSON.stringify(source),
            Number(id),
          ],
        );
        if (res.rows[0]!.r) report.audit.imported += 1;
        else report.audit.already += 1;
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      await client.end().catch(() => undefined);
    }
    db.immediate(() =>
      db.run(
        'INSERT INTO team_imports (database, at, local_refunds, imported, already, audit) VALUES (?, ?, ?, ?, ?, ?)',
        importKey(o.address),
        source.at,
        report.local - report.taken.length,
        report.imported.length,
        report.already,
        report.audit.imported,
      ),
    );
    return report;
  } finally {
    db.close();
  }
}
