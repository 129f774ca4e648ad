import type { LookupResult, TransactionLookup } from '../../services/transactions/lookup';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → transaction lookup. */
export function transactionHandlers(
  lookup: TransactionLookup,
  /** Told of each look-up that found a payment (the payment's timeline keeps it). */
  found?: (profileId: string, result: LookupResult) => Promise<void>,
): Pick<HandlerMap, 'transactions.lookup' | 'transactions.refresh'> {
  return {
    'transactions.lookup': async (input) => {
      const result = await lookup.lookup(input.profileId, input.query, input.candidates);
      await found?.(input.profileId, result);
      return result;
    },
    'transactions.refresh': (input) => lookup.refresh(input.profileId, input.transactionNos),
  };
}
