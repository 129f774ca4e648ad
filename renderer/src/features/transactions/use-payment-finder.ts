import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { useCache } from '../../db/owner';
import { useBridge } from '../../lib/bridge';
import { customersQuery, paymentsQuery } from '../payments/queries';
import { useFormat } from '../preferences/use-prefs';
import { type CustomerMatch, findByCustomerWords } from './customer-search';
import { type CustomerWords, readCustomerWords } from './customer-words';

export interface FoundByWords {
  words: CustomerWords;
  matches: CustomerMatch[];
}

/**
 * Finds payments of a profile by what the customer says, over this computer's cache (nothing is asked
 * of the payment service): the look-up box and the command palette use the same finder. Answers
 * undefined when the text is not a customer's words (an id: the service is asked for it instead).
 */
export function usePaymentFinder(profileId: string | undefined) {
  const client = useQueryClient();
  const cache = useCache();
  const bridge = useBridge();
  const f = useFormat();
  return useCallback(
    async (text: string): Promise<FoundByWords | undefined> => {
      const words = readCustomerWords(text, f.dateFormat);
      if (!words || !profileId) return undefined;
      const needCustomers = Boolean(words.email) || words.name.length > 0;
      // This desk's own records are read from main's database; a failure leaves only the cache to search.
      const [transactions, payments, customers] = await Promise.all([
        client.fetchQuery(cache.rowsQuery(profileId)),
        client.fetchQuery(paymentsQuery(bridge, profileId)).catch((): PaymentView[] => []),
        needCustomers
          ? client.fetchQuery(customersQuery(bridge, profileId)).catch((): CustomerView[] => [])
          : Promise.resolve([] as CustomerView[]),
      ]);
      return { words, matches: findByCustomerWords(words, { transactions, payments, customers }, f) };
    },
    [client, cache, bridge, f, profileId],
  );
}
