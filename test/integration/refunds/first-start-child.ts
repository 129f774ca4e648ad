/**
 * Child process for the concurrent first start test: loads everything, says it is ready, then on the
 * parent's signal (all children released at once) opens the app storage on the data directory given on
 * argv and reports what it saw.
 */
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { createFakeLogger } from '../../fakes/logger';

const dataDir = process.argv[2]!;
process.once('message', () => {
  const log = createFakeLogger();
  let report: Record<string, unknown>;
  try {
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    report = {
      imported: log.lines.filter((l) => l.event === 'storage.imported').map((l) => l.fields),
      errors: log.lines.filter((l) => l.level === 'error'),
      untrusted: storage.untrusted() ?? null,
      problems: storage.problems(),
      intents: storage.refunds.list().length,
    };
    storage.close();
  } catch (e) {
    report = { crashed: e instanceof Error ? e.message : String(e) };
  }
  process.send!(report, () => process.disconnect());
});
process.send!('ready');
