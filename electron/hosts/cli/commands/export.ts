import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { auditCsv, refundsCsv } from '../../../../shared/csv/exports/refunds';
import { contract } from '../../../../shared/ipc/contract';
import { defaultAppDataDir } from '../connection';
import { invoke, openJournalCore } from '../core';
import { DATABASE_OPTIONS, optionalDatabase } from '../database';
import { type Command, EXIT, UsageError, parseCliArgs } from '../io';

const KINDS = ['audit', 'refunds'] as const;
type Kind = (typeof KINDS)[number];

/**
 * `export`: writes main-owned data — the audit log or the refunds — as CSV from the app's database through
 * the app's CSV writer, in the CLI's first, machine-named layout (shared/csv/exports/refunds.ts: the app's
 * Export buttons use the newer column sets there). Offline: no network (in team mode, only the team
 * database). The audit has `person` and `desk` columns: the team database's stamps (the login and
 * the desk it wrote from), or on one desk's file the operator and this machine.
 * (Ledger reconciliation reports are written by `reconcile --out`; the renderer's transaction cache
 * lives in the app's IndexedDB and is exported from the Transactions screen.)
 */
export const exportCommand: Command = {
  name: 'export',
  summary: 'export the audit log or the refunds to CSV (offline)',
  usage:
    'export (audit | refunds) --out <file.csv> [--data-dir <dir>] [--database-url <url> [--ca-file <pem>]] [--no-bom]  (exit 0 written, 2 bad usage, 5 team database unreachable)',
  async run(args, io) {
    const parsed = parseCliArgs(
      args,
      {
        ...DATABASE_OPTIONS,
        out: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-bom': { type: 'boolean', default: false },
      },
      true,
    );
    const [kind, ...extra] = parsed.positionals;
    if (!kind || !KINDS.includes(kind as Kind) || extra.length > 0)
      throw new UsageError(`Say what to export: ${KINDS.join(' or ')}.`);
    if (!parsed.values.out) throw new UsageError('--out <file.csv> is required.');
    const dataDir = parsed.values['data-dir'] ?? defaultAppDataDir(io.env);
    const bom = !parsed.values['no-bom'];
    // The app core with no account: nothing is sent, only the database is read (`audit.list`,
    // `refunds.list` for every profile, as the app's Export buttons do).
    const database = optionalDatabase(parsed.values, io);
    const core = await openJournalCore({ dataDir, io, ...(database ? { database } : {}) });
    if (typeof core === 'number') return core;
    let csv: string;
    let count: number;
    try {
      if (kind === 'audit') {
        const rows = await invoke(core, 'audit.list', { allProfiles: true }, contract['audit.list'].output);
        // One desk's file records no login: the person is the operator it names, the desk this machine.
        const desk = hostname();
        csv = auditCsv(rows.map((e) => ({ ...e, person: e.person ?? e.operator, desk: e.desk ?? desk })));
        count = rows.length;
      } else {
        const intents = await invoke(
          core,
          'refunds.list',
          { allProfiles: true },
          contract['refunds.list'].output,
        );
        csv = refundsCsv(intents);
        count = intents.length;
      }
      // What health reports about the database (damaged, newer version, lines not imported).
      const health = await invoke(core, 'app.health', undefined, contract['app.health'].output);
      for (const c of health.checks) if (!c.ok && c.detail) io.err(`Warning: ${c.detail}`);
    } finally {
      await core.close();
    }
    writeFileSync(parsed.values.out, bom ? csv : csv.replace(/^\uFEFF/, ''));
    io.err(`Wrote ${count} ${kind === 'audit' ? 'audit entries' : 'refunds'} to ${parsed.values.out}.`);
    return EXIT.OK;
  },
};
