import type { ReconciliationService } from '../../services/reconciliation/service';
import type { HandlerMap } from '../dispatcher';

type ReconChannels = Extract<keyof HandlerMap, `reconciliation.${string}`>;

/** Thin: IPC shape → service call. The demo ledger comes from the host (it knows the Demo sandbox). */
export function reconciliationHandlers(
  recon: ReconciliationService,
  demoLedger: () => { name: string; text: string },
): Pick<HandlerMap, ReconChannels> {
  return {
    'reconciliation.create': (input) => recon.create(input),
    'reconciliation.addInput': (input) => {
      let counts = { row: 0, unusable: 0, cached: 0 };
      if (input.rows?.length) counts = recon.addInput(input.runId, 'row', input.rows);
      if (input.unusable?.length) counts = recon.addInput(input.runId, 'unusable', input.unusable);
      if (input.cached?.length) counts = recon.addInput(input.runId, 'cached', input.cached);
      return { rows: counts.row, unusable: counts.unusable, cached: counts.cached };
    },
    'reconciliation.start': (input) => recon.start(input.runId),
    'reconciliation.pause': (input) => recon.pause(input.runId),
    'reconciliation.resume': (input) => recon.resume(input.runId),
    'reconciliation.cancel': (input) => recon.cancel(input.runId),
    'reconciliation.get': (input) => recon.get(input.runId),
    'reconciliation.list': (input) => ({ runs: recon.list(input?.profileId) }),
    'reconciliation.report': (input) => recon.report(input.runId),
    'reconciliation.items': (input) => recon.items(input.runId, input.offset, input.limit),
    'reconciliation.recheck': (input) => recon.recheck(input.runId),
    'reconciliation.demoLedger': () => demoLedger(),
  };
}
