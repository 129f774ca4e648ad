/**
 * `cli reconcile --carry-forward RUN_ID`: the outstanding exceptions of a run stored by the app (its
 * database in the data directory), for the CLI's run to carry and re-check. The earlier run is never
 * changed; only when the app never listed its exceptions are they stored first, as the app would.
 * The run must be of the same account (merchant, store) and its period must end before this one starts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore } from '../../core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../core/adapters/sqlite/schema';
import type { CarrySource } from '../../core/services/reconciliation/carry';
import { createExceptionService } from '../../core/services/reconciliation/exceptions';
import type { ReconOptions } from '../../../shared/recon/period';
import { AppError } from '../../../shared/domain/errors';
import { readProfiles } from './core';
import { UsageError } from './io';

export async function readCarrySources(opts: {
  dataDir: string;
  runId: string;
  merchantNo: string;
  storeNo: string;
  options: ReconOptions;
  now: () => number;
}): Promise<CarrySource[]> {
  const file = join(opts.dataDir, 'refund-desk.db');
  if (!existsSync(file))
    throw new UsageError(
      `--carry-forward: there is no app database at ${file}; name the app's folder with --data-dir.`,
    );
  const db = openDatabase(file, MIGRATIONS);
  try {
    const runs = createSqliteRunStore(db);
    const prev = runs.get(opts.runId);
    if (!prev) throw new UsageError(`--carry-forward: there is no run ${opts.runId} in ${file}.`);
    const profile = readProfiles(opts.dataDir).find((p) => p.id === prev.facts.profileId);
    if (profile && (profile.merchantNo !== opts.merchantNo || profile.storeNo !== opts.storeNo))
      throw new UsageError(
        `--carry-forward: run ${opts.runId} is of ${profile.merchantNo}/${profile.storeNo}, not ${opts.merchantNo}/${opts.storeNo}: exceptions are carried within one account only.`,
      );
    const before = prev.facts.options.period;
    const now = opts.options.period;
    if (before && now && now.from <= before.to)
      throw new UsageError(
        `--carry-forward goes into the next period: run ${opts.runId} covers until ${before.to}; give --from after it.`,
      );
    const service = createExceptionService({
      runs,
      closing: createSqliteCloseStore(db),
      clock: { now: opts.now },
      gatewayFor: () => {
        throw new AppError('internal', 'not used');
      },
    });
    try {
      return await service.carrySources(opts.runId);
    } catch (e) {
      if (e instanceof AppError) throw new UsageError(`--carry-forward: ${e.message}`);
      throw e;
    }
  } finally {
    db.close();
  }
}
