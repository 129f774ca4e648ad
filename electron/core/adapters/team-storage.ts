import { AppError, isAppError } from '../../../shared/domain/errors';
import type { BatchStore } from '../services/batch/store-port';
import type { IntentStore } from '../services/engine/port';
import type { Logger } from '../services/ports';
import type { AppStorage, StorageProblem, TeamStorageState } from '../services/storage';
import { deskSetting, mapPgError } from './postgres/connection';
import { createPostgresBatchStore } from './postgres/batch-store';
import { createPostgresCloseStore } from './postgres/close-store';
import { openPostgresIntentStore } from './postgres/intent-store';
import { join } from 'node:path';
import { type OutboxStore, withOutbox } from './outbox-store';
import { DATABASE_FILE, openAppStorage } from './sqlite/app-storage';
import { type Database, openDatabase } from './sqlite/database';
import { createOutboxQueue, type OutboxQueue } from './sqlite/outbox-table';
import { MIGRATIONS } from './sqlite/schema';
import { localImportNotice } from './team-import';

/** Where a desk's team database is. Hosts build it from flags, the environment or settings. */
export interface TeamDatabaseOptions {
  /** postgres://login@host:5432/database (a password in it is used, never shown). */
  connectionString: string;
  /** PEM of the CA that signed the server's certificate: TLS with the host name verified. */
  ca?: string;
  /** The login's password when it is not in the address (Electron: from safeStorage, never settings). */
  password?: string;
  /** Which desk this is, stamped by the database beside the person on every write. */
  deskId: string;
  applicationName?: string;
}

/** The address as it may be shown: no password, no query (which may carry one). */
export function shownAddress(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return 'the team database';
  }
}

/** The connection string with the password filled in when the address has none. */
export function withPassword(o: Pick<TeamDatabaseOptions, 'connectionString' | 'password'>): string {
  if (!o.password) return o.connectionString;
  try {
    const u = new URL(o.connectionString);
    if (!u.password) u.password = encodeURIComponent(o.password);
    return u.toString();
  } catch {
    // Not a URL: the server-side parse reports it (redacted by the caller's message).
    return o.connectionString;
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
]);

/** A failure of the connection itself (not a refusal by the database): the server cannot be reached. */
export function isUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08'))) return true;
  const msg = e instanceof Error ? e.message : '';
  return /Connection terminated|timeout expired|connection error|Client was closed/i.test(msg);
}

/** "10:42" on this desk's clock (the banner's "since when"). */
function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * Why the team storage could not be opened, in words that say what to do, never with the password:
 * unreachable and refused logins are `network`/`unauthorized`, a database nobody migrated `unavailable`.
 */
export function openFailure(e: unknown, address: string): AppError {
  if (isUnreachable(e))
    return new AppError(
      'network',
      `Cannot reach the team database at ${address}: check the address and that the server runs (and the network or VPN to it), then try again. Nothing was changed.`,
      { retryable: true, details: { storage: 'team', todo: 'check the address' } },
    );
  const m = mapPgError(e);
  if (isAppError(m)) {
    const prefix = m.code === 'unauthorized' ? `${address}: ` : `The team database at ${address}: `;
    return new AppError(m.code, `${prefix}${m.message}`, {
      retryable: m.retryable,
      details: { storage: 'team', ...(m.details ?? {}) },
    });
  }
  const detail = m instanceof Error ? m.message : String(m);
  return new AppError(
    'unavailable',
    `The team database at ${address} could not be opened (${detail}). Check the address and the CA file; nothing was changed.`,
    { details: { storage: 'team' } },
  );
}

/**
 * The store port of the team database with the desk's read-only state: a failure to reach the server
 * is told in the banner's words (since when, what still works), never as a bare socket error.
 */
function guardStore(store: IntentStore, unreachable: (e: unknown) => AppError): IntentStore {
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return await fn(...a);
      } catch (e) {
        throw isUnreachable(e) ? unreachable(e) : e;
      }
    };
  return {
    decide: wrap(store.decide),
    transition: wrap(store.transition),
    noteCheck: wrap(store.noteCheck),
    checksOf: wrap(store.checksOf),
    renewLease: wrap(store.renewLease),
    expiredLeases: wrap(store.expiredLeases),
    get: wrap(store.get),
    inStates: wrap(store.inStates),
    forPayment: wrap(store.forPayment),
    byTransaction: wrap(store.byTransaction),
    sum: wrap(store.sum),
    list: wrap(store.list),
    audit: { record: wrap(store.audit.record), list: wrap(store.audit.list) },
    // Four-eyes is the team database's: without it a desk could neither list, approve nor reject requests.
    ...(store.approvals
      ? {
          approvals: {
            reject: wrap(store.approvals.reject),
            cancel: wrap(store.approvals.cancel),
            open: wrap(store.approvals.open),
            whoAmI: wrap(store.approvals.whoAmI),
            approvers: wrap(store.approvals.approvers),
          },
        }
      : {}),
    watch: (fn) => store.watch(fn),
  } as IntentStore;
}

/** The team's batch store, with a failure to reach the server told as the read-only state's reason. */
function guardBatches(store: BatchStore, unreachable: (e: unknown) => AppError): BatchStore {
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return await fn(...a);
      } catch (e) {
        throw isUnreachable(e) ? unreachable(e) : e;
      }
    };
  const out = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(store))
    if (typeof v === 'function') out[k] = wrap(v as (...a: unknown[]) => Promise<unknown>);
  return {
    ...(out as unknown as BatchStore),
    ...(store.approvals
      ? {
          approvals: {
            policies: wrap(store.approvals.policies),
            approve: wrap(store.approvals.approve),
            reject: wrap(store.approvals.reject),
          },
        }
      : {}),
  };
}

/**
 * A desk in team mode: the money journal (refund and payment intents, their audit, leases and the change
 * feed) is the team's PostgreSQL database; what is this desk's own (customers, reconciliation jobs and
 * runs, timeline notes, IPN dedup) stays in the data directory's SQLite file.
 *
 * - Opening connects, checks the login and the schema version: a database nobody migrated is refused
 *   (`cli team migrate`); a desk older than the database opens read-only ("update Refund Desk"), a
 *   database older than the desk too (the administrator migrates).
 * - While the database cannot be reached the desk is read-only: `untrusted()` says since when, so the
 *   services refuse refunds and payments before deciding anything; what is local keeps working, and
 *   journal reads say why they fail. The change feed's supervisor (postgres/change-feed.ts) reconnects;
 *   when it listens again the state ends by itself. The supervisor runs for as long as the storage is
 *   open (this storage watches, whoever else does), so even a desk with no screen notices.
 */
export async function openTeamStorage(opts: {
  dataDir: string;
  now: () => number;
  log: Logger;
  database: TeamDatabaseOptions;
  baseUrlFor?: (profileId: string) => string | undefined;
  /** The local file's change feed (IPN, jobs). */
  watchMs?: number;
  /** How often the supervisor checks its connection and re-reads (default 2 s). */
  heartbeatMs?: number;
  /** Tests: the schema this desk announces (a desk older or newer than the database). */
  deskSchemaVersion?: number;
}): Promise<AppStorage & { teamAddress: string }> {
  const { log, now } = opts;
  const address = shownAddress(opts.database.connectionString);
  let downSince: number | undefined;
  const badRows = new Map<string, string>();
  const unusableRows = new Map<string, string>();
  const reason = () =>
    downSince === undefined
      ? undefined
      : `The team database has been unreachable since ${clockTime(downSince)} — refunds are refused; browse, search and export still work.`;
  const markDown = (where: string, e: unknown) => {
    if (downSince !== undefined) return;
    downSince = now();
    log.warn('team.unreachable', { where, error: e instanceof Error ? e.message : String(e) });
  };
  /** Set once the local file is open: written when the database is back (the supervisor listens again). */
  let outbox: OutboxStore | undefined;
  const replayOutbox = () => {
    if (!outbox || outbox.waiting() === 0) return;
    void outbox
      .replay()
      .catch((e: unknown) =>
        log.error('team.outbox_failed', { error: e instanceof Error ? e.message : String(e) }),
      );
  };
  let opened: Awaited<ReturnType<typeof openPostgresIntentStore>>;
  try {
    opened = await openPostgresIntentStore({
      connectionString: withPassword(opts.database),
      ...(opts.database.ca ? { ca: opts.database.ca } : {}),
      applicationName: opts.database.applicationName ?? 'refund-desk',
      deskId: opts.database.deskId,
      ...(opts.deskSchemaVersion !== undefined ? { deskSchemaVersion: opts.deskSchemaVersion } : {}),
      heartbeatMs: opts.heartbeatMs ?? 2_000,
      onBadRow: (table, id, why) => {
        badRows.set(`${table}:${id}`, why);
        log.error('storage.bad_row', { table, id, reason: why });
      },
      onUnusable: (table, id, why) => {
        if (!unusableRows.has(`${table}:${id}`)) log.warn('storage.unusable_row', { table, id, reason: why });
        unusableRows.set(`${table}:${id}`, why);
      },
      // Only the supervisor's own connection says whether the server can be reached: a single pooled
      // connection cut by the server (a DBA's pg_terminate_backend) is not an outage.
      onConnectionError: (where, e) => {
        if ((where === 'watch.connect' || where === 'watch.listen') && isUnreachable(e)) markDown(where, e);
        else log.warn('team.connection_error', { where, error: e instanceof Error ? e.message : String(e) });
      },
      onConnected: () => {
        replayOutbox();
        if (downSince === undefined) return;
        log.info('team.reachable', { since: new Date(downSince).toISOString() });
        downSince = undefined;
      },
    });
  } catch (e) {
    throw openFailure(e, address);
  }
  let login = '?';
  try {
    login = (await opened.pool.query<{ login: string }>('SELECT session_user::text AS login')).rows[0]!.login;
  } catch (e) {
    await opened.close().catch(() => undefined);
    throw openFailure(e, address);
  }
  const { database, desk } = opened.schema;
  const schemaProblem =
    database > desk
      ? `The team database at ${address} is at schema ${database}, newer than this Refund Desk (schema ${desk}): update Refund Desk. Until then refunds are refused; browse, search and export still work.`
      : database < desk
        ? `The team database at ${address} is at schema ${database}, older than this Refund Desk (schema ${desk}): the administrator runs the migration (cli team migrate). Until then refunds are refused; browse, search and export still work.`
        : undefined;
  if (schemaProblem) log.warn('team.schema', { database, desk });

  const unreachable = (e: unknown) => {
    markDown('request', e);
    return new AppError('unavailable', reason() ?? `The team database at ${address} cannot be reached.`, {
      retryable: true,
      details: { storage: 'read-only', moneyMoved: 'no' },
      cause: e,
    });
  };

  let local: AppStorage;
  try {
    local = openAppStorage({
      dataDir: opts.dataDir,
      now,
      log,
      ...(opts.baseUrlFor ? { baseUrlFor: opts.baseUrlFor } : {}),
      ...(opts.watchMs ? { watchMs: opts.watchMs } : {}),
    });
  } catch (e) {
    await opened.close().catch(() => undefined);
    throw e;
  }
  // The outbox is a table of the desk's own file, on a connection of its own (the file is shared with the
  // local stores). A file that cannot be opened keeps nothing: then a write the database cannot take fails
  // as before, and the intent is resolved by query later.
  let outboxDb: Database | undefined;
  let outboxQueue: OutboxQueue | undefined;
  let outboxProblem: string | undefined;
  try {
    outboxDb = openDatabase(join(opts.dataDir, DATABASE_FILE), MIGRATIONS);
    outboxQueue = createOutboxQueue(outboxDb, address, now);
    outbox = withOutbox(opened.store, {
      queue: outboxQueue,
      unreachable: isUnreachable,
      onQueued: (e) => markDown('outbox', e),
      log,
      now,
      holder: `${opts.database.deskId}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`,
      deskId: opts.database.deskId,
    });
  } catch (e) {
    outboxProblem = `Answers that come while the team database cannot be reached cannot be kept on this desk (${e instanceof Error ? e.message : String(e)}): such refunds are resolved by query once it is back.`;
    log.warn('team.outbox_unavailable', { error: e instanceof Error ? e.message : String(e) });
  }
  const intents = guardStore(outbox?.store ?? opened.store, unreachable);
  // The supervisor runs while the storage is open: it is how the desk knows it can write again.
  const stopProbe = opened.store.watch(() => undefined);
  // Besides each reconnect: what another process of this folder left half written (it was killed while
  // replaying, its claim has run out) is picked up without waiting for the next outage.
  const retry = setInterval(() => {
    if (downSince === undefined) replayOutbox();
  }, 10_000);
  retry.unref?.();
  // A desk that stopped with answers waiting writes them first (the database is reachable: it just opened).
  if (outbox && outbox.waiting() > 0) {
    const r = await outbox.replay().catch((e: unknown) => {
      log.error('team.outbox_failed', { error: e instanceof Error ? e.message : String(e) });
      return undefined;
    });
    if (r) log.info('team.outbox_at_start', { ...r });
  }
  const importNotice = () => (outboxDb ? localImportNotice(outboxDb, address, opts.dataDir) : undefined);
  const notice = importNotice();
  if (notice) log.warn('team.local_refunds', { detail: notice });
  log.info('team.opened', { address, login, schema: database, desk: opts.database.deskId });

  return {
    teamAddress: address,
    team: () => ({
      address,
      login,
      deskId: opts.database.deskId,
      deskStamp: deskSetting(opts.database.deskId),
      schema: { database, desk },
      ...(downSince !== undefined ? { unreachableSince: new Date(downSince).toISOString() } : {}),
    }),
    intents,
    customers: local.customers,
    jobs: local.jobs,
    runs: local.runs,
    // Month-end close is the team's: the controller signs on their desk what the clerks worked on theirs.
    closing: createPostgresCloseStore(opened.pool),
    // Refund batches are the team's: one desk runs a batch at a time, another resumes or approves it.
    batches: guardBatches(createPostgresBatchStore(opened.pool), unreachable),
    timeline: local.timeline,
    recordIpn: (event, key) => local.recordIpn(event, key),
    ...(local.importEarlierFiles ? { importEarlierFiles: local.importEarlierFiles } : {}),
    unreadable: () => local.unreadable(),
    untrusted: () => {
      if (schemaProblem) return schemaProblem;
      const down = reason();
      if (down) return down;
      if (badRows.size > 0)
        return `${badRows.size} refund record(s) in the team database cannot be read, so what remains refundable cannot be trusted. Report this with the log file.`;
      return local.untrusted();
    },
    problems() {
      const out: StorageProblem[] = [];
      const who = `${address} as ${login}, schema ${database}`;
      if (schemaProblem) out.push({ name: 'team-database', detail: schemaProblem });
      else if (downSince !== undefined) out.push({ name: 'team-database', detail: `${reason()} (${who})` });
      if (badRows.size > 0)
        out.push({
          name: 'team-database',
          detail: `${badRows.size} refund record(s) in the team database cannot be read (${[...badRows.keys()].slice(0, 3).join(', ')}). Refunds are paused; report this with the log file.`,
        });
      if (unusableRows.size > 0)
        out.push({
          name: 'journal-currency',
          detail: `${unusableRows.size} record(s) in the team database are in a currency this app does not handle and are not listed (${[...unusableRows.keys()].slice(0, 3).join(', ')}).`,
        });
      const waiting = outbox?.waiting() ?? 0;
      if (waiting > 0) {
        const stuck = outbox?.stuck();
        out.push({
          name: 'team-outbox',
          detail: `${waiting} outcome${waiting === 1 ? '' : 's'} waiting to be written to the team database (kept on this desk; written by themselves once it can be reached — do not refund these payments again).${stuck ? ` The last attempt failed: ${stuck}. Report this with the log file.` : ''}`,
        });
      }
      if (outboxProblem) out.push({ name: 'team-outbox', detail: outboxProblem });
      // Kept for another team database (or login) than this one: written only when the desk is pointed there again.
      for (const e of outboxQueue?.elsewhere() ?? [])
        out.push({
          name: 'team-outbox',
          detail: `${e.count} outcome${e.count === 1 ? '' : 's'} kept on this desk for the team database ${e.database} (not this one) are waiting: connect this desk to it again to write them.`,
        });
      const toImport = importNotice();
      if (toImport) out.push({ name: 'team-import', detail: toImport });
      // The local file's own problems (IPN dedup, customers…); its journal is not this desk's any more.
      return [...out, ...local.problems().filter((p) => p.name !== 'journal-currency')];
    },
    // Fine only while it is: otherwise problems() names it.
    notes: () =>
      schemaProblem || downSince !== undefined
        ? []
        : [
            {
              name: 'team-database',
              detail: `Team database ${address} as ${login}, schema ${database} (desk id ${opts.database.deskId}).`,
            },
          ],
    async close() {
      clearInterval(retry);
      stopProbe();
      // A replay under way finishes (or stops at the first failure) before the connections go.
      await outbox?.idle();
      outboxDb?.close();
      local.close();
      await opened.close();
    },
  };
}

/**
 * A desk set up for team mode whose team database could not be opened at start: its own records (the
 * SQLite file) work; the journal cannot be read or written, and says why, so nothing is decided or
 * listed as if this desk were alone.
 */
export function teamStorageUnavailable(
  local: AppStorage,
  why: string,
  state: TeamStorageState = {},
): AppStorage {
  const reason = `${why} Refunds are refused and the team's refunds cannot be listed; restart Refund Desk once it is fixed.`;
  const refuse = async (): Promise<never> => {
    throw new AppError('unavailable', reason, { details: { storage: 'read-only', moneyMoved: 'no' } });
  };
  const intents: IntentStore = {
    decide: refuse,
    transition: refuse,
    noteCheck: refuse,
    checksOf: refuse,
    renewLease: refuse,
    expiredLeases: refuse,
    get: refuse,
    inStates: refuse,
    forPayment: refuse,
    byTransaction: refuse,
    sum: refuse,
    list: refuse,
    audit: { record: refuse, list: refuse },
    watch: () => () => undefined,
  };
  return {
    ...local,
    intents,
    team: () => state,
    untrusted: () => reason,
    unreadable: () => reason,
    problems: () => [{ name: 'team-database', detail: reason }, ...local.problems()],
    close: () => local.close(),
  };
}
