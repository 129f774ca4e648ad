import type { TransactionLookup } from '../../services/transactions/lookup';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → transaction lookup. */
export function transactionHandlers(
  lookup: TransactionLookup,
): Pick<HandlerMap, 'transactions.lookup' | 'transactions.refresh'> {
  return {
    'transactions.lookup': (input) => lookup.lookup(input.profileId, input.query, input.candidates),
    'transactions.refresh': (input) => lookup.refresh(input.profileId, input.transactionNos),
  };
}
