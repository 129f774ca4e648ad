/**
 * A batch row's idempotency key: the same row of the same list, opened again, has the same key, so a row
 * a batch already refunded is recognised and offered no more; a row edited since (another amount,
 * currency, payment — or, without a row reference, any other cell that matters) is a new row.
 *
 *   key = digest(account, payment, amount, currency, row reference — or, without one, the row's content)
 *
 * The account is where the money moves (environment, address, merchant, store); the embedded Demo
 * sandbox changes port between runs, so a Demo account is its merchant and store (as the refund store
 * matches Demo intents). The payment is the transaction number the service answered with (a row that
 * names it by merchant reference has the same key as one naming it by number), or the id as written
 * when the service does not know it. `full` is keyed as the word: what it means changes as refunds
 * are made, the row does not. The digest is injected (SHA-256 in main) so this stays pure.
 */
import type { BatchRow } from './rows';

export interface BatchAccount {
  environment: string;
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
}

export type Digest = (text: string) => string;

/** The text a row key is the digest of (unambiguous: a JSON array). */
export function rowKeyMaterial(account: BatchAccount, row: BatchRow, payment: string): string {
  const amount = row.amount === 'full' ? 'full' : String(row.amount.minor);
  return JSON.stringify([
    'refund-batch-row/1',
    account.environment,
    account.environment === 'demo' ? '' : account.baseUrl,
    account.merchantNo,
    account.storeNo,
    payment,
    amount,
    row.currency,
    row.rowRef !== undefined ? ['ref', row.rowRef] : ['content', row.reason],
  ]);
}

export function rowKey(account: BatchAccount, row: BatchRow, payment: string, digest: Digest): string {
  return digest(rowKeyMaterial(account, row, payment));
}
