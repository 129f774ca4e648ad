import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditCsv, refundsCsv } from '../../../shared/csv/exports/refunds';
import { readJsonlFile } from '../../main/adapters/jsonl-file';
import type { AuditEntry } from '../../main/services/refunds/audit';
import { applyEvent, type Intent, type IntentEvent } from '../../main/services/refunds/intent';
import { defaultAppDataDir } from '../connection';
import { type Command, EXIT, UsageError, parseCliArgs } from '../io';

const KINDS = ['audit', 'refunds'] as const;
type Kind = (typeof KINDS)[number];

/** Folds the refund journal read-only (no lock, no append), exactly as the app does on start. */
function intentsFrom(path: string): { intents: Intent[]; damaged: number } {
  const { records, problems } = readJsonlFile<IntentEvent>(path);
  const map = new Map<string, Intent>();
  let misfits = 0;
  for (const r of records) if (!applyEvent(map, r.value)) misfits += 1;
  const intents = [...map.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { intents, damaged: problems.length + misfits };
}

/**
 * `export`: writes main-owned data — the audit log or the refund journal — as CSV through the same
 * writer and column sets as the app's Export buttons. Offline: reads the data directory only.
 * (Ledger reconciliation reports are written by `reconcile --out`; the renderer's transaction cache
 * lives in the app's IndexedDB and is exported from the Transactions screen.)
 */
export const exportCommand: Command = {
  name: 'export',
  summary: 'export the audit log or the refunds journal to CSV (offline)',
  usage:
    'export (audit | refunds) --out <file.csv> [--data-dir <dir>] [--no-bom]  (exit 0 written, 2 bad usage)',
  async run(args, io) {
    const parsed = parseCliArgs(
      args,
      {
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
    let csv: string;
    let count: number;
    let damaged: number;
    if (kind === 'audit') {
      const { records, problems } = readJsonlFile<AuditEntry>(join(dataDir, 'audit.jsonl'));
      const rows = records.map((r) => r.value).reverse();
      csv = bom ? auditCsv(rows) : auditCsv(rows).replace(/^\uFEFF/, '');
      count = rows.length;
      damaged = problems.length;
    } else {
      const { intents, damaged: d } = intentsFrom(join(dataDir, 'refund-journal.jsonl'));
      csv = bom ? refundsCsv(intents) : refundsCsv(intents).replace(/^\uFEFF/, '');
      count = intents.length;
      damaged = d;
    }
    writeFileSync(parsed.values.out, csv);
    io.err(`Wrote ${count} ${kind === 'audit' ? 'audit entries' : 'refunds'} to ${parsed.values.out}.`);
    if (damaged > 0)
      io.err(`${damaged} damaged line(s) in the ${kind} file were skipped; the app reports them too.`);
    return EXIT.OK;
  },
};
