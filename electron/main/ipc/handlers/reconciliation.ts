import type { ReconciliationService } from '../../services/reconciliation/service';
import type { HandlerMap } from '../dispatcher';

type ReconChannels =
  | 'reconciliation.start'
  | 'reconciliation.pause'
  | 'reconciliation.resume'
  | 'reconciliation.cancel'
  | 'reconciliation.list'
  | 'reconciliation.results';

/** Thin: IPC shape → service call. */
export function reconciliationHandlers(recon: ReconciliationService): Pick<HandlerMap, ReconChannels> {
  return {
    'reconciliation.start': (input) => recon.start({ keys: input.keys, label: input.label }),
    'reconciliation.pause': (input) => recon.pause(input.jobId),
    'reconciliation.resume': (input) => recon.resume(input.jobId),
    'reconciliation.cancel': (input) => recon.cancel(input.jobId),
    'reconciliation.list': async () => ({ jobs: await recon.list() }),
    'reconciliation.results': (input) => recon.results(input.jobId, input.offset, input.limit),
  };
}
