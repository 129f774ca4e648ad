import { join } from 'node:path';
import type { Logger } from '../../services/ports';
import type { AppStorage, StorageProblem } from '../../services/storage';
import { createSqliteBatchStore } from './batch-store';
import { type Database, openDatabase } from './database';
import { createSqliteIntentStore } from './intent-store';
import { importLegacyFiles } from './legacy-import';
import { guardAgainstOlderVersions } from './older-versions';
import { createSqliteCloseStore } from './recon-close-store';
import { createSqliteRunStore } from './recon-run-store';
import { createSqliteCustomerStore } from './payment-store';
import { createSqliteJobStore } from './recon-store';
import { MIGRATIONS } from './schema';
import { createSqliteTimelineStore } from './timeline-store';

export type { AppStorage, StorageProblem };

export const DATABASE_FILE = 'refund-desk.db';

/**
 * Places the guard against older versions, under the database's write lock when there is a database
 * (imports rename the old files under it too). A failure is logged, not fatal: this version's own
 * decisions do not depend on it.
 */
function guard(dataDir: string, log: Logger, db?: Database): 'guarded' | 'journal' | 'failed' {
  try {
    return db ? db.immediate(() => guardAgainstOlderVersions(dataDir)) : guardAgainstOlderVersions(dataDir);
  } catch (e) {
    log.warn('storage.guard_failed', { error: e instanceof Error ? e.message : String(e) });
    return 'failed';
  }
}

/**
 * Opens `<dataDir>/refund-desk.db` for every service that keeps durable state, imports the files of
 * earlier versions (each content once), keeps older versions from refunding here without the database
 * (./older-versions.ts), and keeps what went wrong for health. A database that cannot be opened or
 * trusted does not stop the app: lookups keep working on an empty stand-in kept in memory, refunds and
 * IPN acknowledgements are refused, and health says why and what to do.
 */
export function openAppStorage(opts: {
  dataDir: string;
  now: () => number;
  log: Logger;
  /**
   * Given: the files of earlier versions are imported now, with this profile → service address map.
   * Otherwise the composition root imports them (importEarlierFiles) once the profiles are loaded.
   */
  baseUrlFor?: (profileId: string) => string | undefined;
  /** How often other processes' commits are looked for (the intents' change feed). */
  watchMs?: number;
}): AppStorage {
  const path = join(opts.dataDir, DATABASE_FILE);
  const badRows = new Map<string, string>();
  /** Journal rows in a currency this app does not handle (./stored.ts): listed by health, not damage. */
  const unusableRows = new Map<string, string>();
  const onUnusable = (table: string, id: string, reason: string) => {
    if (!unusableRows.has(`${table}:${id}`)) opts.log.warn('storage.unusable_row', { table, id, reason });
    unusableRows.set(`${table}:${id}`, reason);
  };
  let fatal: string | undefined;
  let unreadable: string | undefined;
  let db: Database;
  try {
    db = openDatabase(path, MIGRATIONS);
  } catch (e) {
    fatal = unreadable = e instanceof Error ? e.message : String(e);
    opts.log.error('storage.open_failed', { error: fatal });
    db = openDatabase(':memory:', MIGRATIONS);
    // Nothing can be imported, but the guard is still placed where no old journal is in its way.
    guard(opts.dataDir, opts.log);
  }
  const importEarlierFiles = (baseUrlFor: (profileId: string) => string | undefined) => {
    // Import, then guard the old journal's path against older versions (./older-versions.ts). An older
    // version that writes its journal in between is imported on the next pass (or at the next start).
    for (let pass = 0; !fatal && pass < 3; pass += 1) {
      try {
        const report = importLegacyFiles(db, opts.dataDir, {
          now: opts.now,
          baseUrlFor,
        });
        if (report)
          opts.log.info('storage.imported', {
            intents: report.intents,
            audit: report.auditEntries,
            ipn: report.ipnEvents,
            reconJobs: report.reconJobs,
            problems: report.problems.length,
          });
      } catch (e) {
        // The old files stay where they are; the next start tries again.
        fatal = `Refund Desk could not import the refund journal of an earlier version (${e instanceof Error ? e.message : String(e)}). The old files are untouched; free disk space or fix the data folder's permissions, then restart.`;
        opts.log.error('storage.import_failed', { error: fatal });
      }
      if (guard(opts.dataDir, opts.log, db) !== 'journal') break;
    }
  };
  // Opened without the profiles (a host, before the core exists): the core imports once it has them.
  if (opts.baseUrlFor) importEarlierFiles(opts.baseUrlFor);
  const intents = createSqliteIntentStore(db, {
    now: opts.now,
    onBadRow: (table, id, reason) => {
      badRows.set(`${table}:${id}`, reason);
      opts.log.error('storage.bad_row', { table, id, reason });
    },
    onUnusable,
    ...(opts.watchMs ? { watchMs: opts.watchMs } : {}),
  });

  return {
    intents,
    customers: createSqliteCustomerStore(db),
    jobs: createSqliteJobStore(db),
    runs: createSqliteRunStore(db),
    closing: createSqliteCloseStore(db),
    timeline: createSqliteTimelineStore(db),
    batches: createSqliteBatchStore(db),
    importEarlierFiles,
    async recordIpn(event, key) {
      if (fatal) throw new Error('the database is unavailable');
      const r = db.immediate(() =>
        db.run(
          'INSERT OR IGNORE INTO ipn_events (dedup_key, profile_id, received_at, data) VALUES (?, ?, ?, ?)',
          key,
          event.profileId,
          event.receivedAt,
          JSON.stringify(event),
        ),
      );
      return r.changes === 1 ? 'recorded' : 'duplicate';
    },
    unreadable: () => unreadable,
    untrusted: () => {
      if (fatal) return fatal;
      if (badRows.size > 0)
        return `${badRows.size} refund record(s) in the database cannot be read, so what remains refundable cannot be trusted. Report this with the log file.`;
      return undefined;
    },
    problems() {
      const out: StorageProblem[] = [];
      if (fatal) out.push({ name: 'database', detail: `${fatal} Refunds are paused until then.` });
      else if (badRows.size > 0)
        out.push({
          name: 'database',
          detail: `${badRows.size} refund record(s) cannot be read (${[...badRows.keys()].slice(0, 3).join(', ')}). Refunds are paused; report this with the log file.`,
        });
      if (unusableRows.size > 0)
        out.push({
          name: 'journal-currency',
          detail: `${unusableRows.size} record(s) of an earlier version are in a currency this app does not handle and are not listed (${[...unusableRows.keys()].slice(0, 3).join(', ')}: ${[...unusableRows.values()][0]}). They stay in the database; look their payments up with the payment service.`,
        });
      if (!fatal) {
        const rows = db.all<{ source: string; line: number | null; reason: string }>(
          'SELECT source, line, reason FROM import_problems ORDER BY id',
        );
        if (rows.length > 0) {
          const first = rows
            .slice(0, 3)
            .map((r) => `${r.source}${r.line ? ` line ${r.line}` : ''}: ${r.reason}`)
            .join('; ');
          out.push({
            name: 'journal-import',
            detail: `${rows.length} line(s) of the earlier refund files could not be imported (${first}${rows.length > 3 ? '; …' : ''}). The originals are kept beside the database as *.imported-*; look up any payment they mention before refunding it again.`,
          });
        }
      }
      return out;
    },
    close: () => db.close(),
  };
}
