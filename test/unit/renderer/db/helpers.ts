import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Transaction } from '../../../../shared/domain/transaction';

/** A fresh in-memory IndexedDB per test, so tests never share state. */
export function freshIdb(): { indexedDB: InstanceType<typeof IDBFactory>; keyRange: typeof IDBKeyRange } {
  return { indexedDB: new IDBFactory(), keyRange: IDBKeyRange };
}

let n = 0;
/** A plausible payment; ids are 18-digit strings. */
export function makeTx(over: Partial<Transaction> = {}): Transaction {
  n += 1;
  const no = `2975536383${String(n).padStart(8, '0')}`;
  return {
    transactionNo: no,
    reference: `INV-${n}`,
    amountMinor: 1000 + n,
    currency: 'USD',
    settleCurrency: 'USD',
    status: 'success',
    vendor: 'alipay',
    transactionType: 'payment',
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    refunds: [],
    ...over,
  };
}
