import { join } from 'node:path';
import type { IpnEvent } from '../../services/ipn/events';
import type { Logger } from '../../services/ports';
import type { JobStore } from '../../services/reconciliation/job-store';
import type { RunStore } from '../../services/reconciliation/run-store';
import type { RefundStore } from '../../services/refunds/store';
import { type Database, openDatabase } from './database';
import { importLegacyFiles } from './legacy-import';
import { guardAgainstOlderVersions } from './older-versions';
import { createSqliteRunStore } from './recon-run-store';
import type { PaymentStore } from '../../services/payments/store';
import { createSqlitePaymentStore } from './payment-store';
import { createSqliteJobStore } from './recon-store';
import { createSqliteRefundStore } from './refund-store';
import { MIGRATIONS } from './schema';

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

/** A problem with main's durable state, for the health indicator: what is wrong and what to do. */
export interface StorageProblem {
  name: string;
  detail: string;
}

export interface AppStorage {
  refunds: RefundStore;
  jobs: JobStore;
  /** Reconciliation run records (facts, ledger, the period's list, report items). */
  runs: RunStore;
  /** Back-office payments: customers, stored methods, payment-creation intents, their audit log. */
  payments: PaymentStore;
  /** Records a verified IPN under its dedup key; 'duplicate' if that key was ever recorded. */
  recordIpn(event: IpnEvent, key: string): Promise<'recorded' | 'duplicate'>;
  /** Set when the database cannot be trusted: refunds and payments must be refused with this reason. */
  untrusted(): string | undefined;
  /**
   * Set when the database could not be opened at all (damaged, written by a newer version): what is
   * listed is an empty stand-in, so lists must say "cannot be read" with this reason, never "none".
   */
  unreadable(): string | undefined;
  problems(): StorageProblem[];
  close(): void;
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
  /** The service address of a profile that still exists (for intents imported from earlier versions). */
  baseUrlFor?: (profileId: string) => string | undefined;
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
  // Import, then guard the old journal's path against older versions (./older-versions.ts). An older
  // version that writes its journal in between is imported on the next pass (or at the next start).
  for (let pass = 0; !fatal && pass < 3; pass += 1) {
    try {
      const report = importLegacyFiles(db, opts.dataDir, {
        now: opts.now,
        baseUrlFor: opts.baseUrlFor ?? (() => undefined),
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
  const refunds = createSqliteRefundStore(db, {
    onBadRow: (table, id, reason) => {
      badRows.set(`${table}:${id}`, reason);
      opts.log.error('storage.bad_row', { table, id, reason });
    },
    onUnusable,
  });

  return {
    refunds,
    jobs: createSqliteJobStore(db),
    runs: createSqliteRunStore(db),
    payments: createSqlitePaymentStore(db, { onUnusable }),
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
