/**
 * One reconciliation run outside the app: the app's own reconciliation service over an in-memory
 * database, so the CLI (and the bench) produce exactly the report the screen does — same list, same
 * lookups, same matching, same record — without touching the app's data directory. Unattended: a run
 * that pauses itself because the service keeps failing is cancelled, which still writes its report.
 */
import { openDatabase } from '../../core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore } from '../../core/adapters/sqlite/recon-run-store';
import { createSqliteJobStore } from '../../core/adapters/sqlite/recon-store';
import { MIGRATIONS } from '../../core/adapters/sqlite/schema';
import type { GatewayClient } from '../../core/services/gateway/client';
import type { Clock, Logger } from '../../core/services/ports';
import type { PreparedLedger } from '../../core/services/reconciliation/pipeline';
import type { CachedAnswer } from '../../core/services/reconciliation/run-store';
import { createReconciliationService, type ViewProgress } from '../../core/services/reconciliation/service';
import type { ReconItem } from '../../../shared/recon/match';
import type { ReconOptions } from '../../../shared/recon/period';
import type { RunFacts } from '../../../shared/recon/run';
import type { ReconSummary } from '../../../shared/recon/summary';
import { RECON_INPUT_CHUNK } from '../../../shared/ipc/contract/reconciliation';
import type { ExceptionView } from '../../../shared/recon/exceptions';
import type { CarrySource } from '../../core/services/reconciliation/carry';

export interface RunResult {
  facts: RunFacts;
  summary: ReconSummary;
  statement: string[];
  items: ReconItem[];
  /** With a carry-forward: the run's exceptions (its own and those carried, with their checks). */
  exceptions?: ExceptionView[];
}

const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Splits a list into chunks the way the renderer hands a ledger over IPC. */
export function chunked<T>(list: readonly T[], size = RECON_INPUT_CHUNK): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, i) =>
    list.slice(i * size, (i + 1) * size),
  );
}

/** Runs a prepared ledger against the service and returns the stored record. */
export async function reconcileInMemory(
  prepared: PreparedLedger,
  deps: {
    gateway: Pick<GatewayClient, 'queryTransaction' | 'listTransactions'>;
    clock: Clock;
    options: ReconOptions;
    profileName: string;
    label?: string;
    concurrency?: number;
    cached?: CachedAnswer[];
    /** An earlier run's outstanding exceptions (read from the app's database) to carry and re-check. */
    carry?: { fromRunId: string; sources: CarrySource[] };
    log?: Logger;
    onProgress?: (p: ViewProgress) => void;
  },
): Promise<RunResult> {
  const db = openDatabase(':memory:', MIGRATIONS);
  try {
    let runId = '';
    const service = createReconciliationService({
      runs: createSqliteRunStore(db),
      closing: createSqliteCloseStore(db),
      jobs: createSqliteJobStore(db),
      clock: deps.clock,
      log: deps.log ?? silent,
      gatewayFor: () => deps.gateway,
      profile: () => ({ id: 'cli', name: deps.profileName }),
      ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
      onProgress: (id, p) => {
        deps.onProgress?.(p);
        if (p.state === 'paused' && 'stoppedBecause' in p && p.stoppedBecause && id === runId)
          queueMicrotask(() => service.cancel(id));
      },
    });
    runId = service.create({
      profileId: 'cli',
      label: deps.label ?? prepared.file.name,
      file: prepared.file,
      mapping: prepared.mapping,
      options: deps.options,
      ...(deps.carry ? { carryForwardOf: deps.carry.fromRunId, carried: deps.carry.sources } : {}),
    }).runId;
    for (const c of chunked(prepared.imported.rows)) service.addInput(runId, 'row', c);
    for (const c of chunked(prepared.imported.unusable)) service.addInput(runId, 'unusable', c);
    for (const c of chunked(deps.cached ?? [])) service.addInput(runId, 'cached', c);
    service.start(runId);
    await service.settled(runId);
    const report = service.report(runId);
    const items: ReconItem[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = service.items(runId, offset, 5000);
      items.push(...page.items);
      offset = page.nextOffset;
    }
    return {
      facts: report.facts,
      summary: report.summary,
      statement: report.statement,
      items,
      ...(deps.carry ? { exceptions: (await service.exceptions.list(runId)).exceptions } : {}),
    };
  } finally {
    db.close();
  }
}
