import type { TransactionSync } from '../../services/transactions/sync';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → one trans-list window. */
export function transactionSyncHandlers(sync: TransactionSync): Pick<HandlerMap, 'transactions.sync'> {
  return {
    'transactions.sync': (input) => sync.syncWindow(input.profileId, input.startDate, input.endDate),
  };
}
