import type { Currency } from '../../../shared/domain/currencies';
import type { Transaction } from '../../../shared/domain/transaction';
import type { BatchAccount } from '../../../shared/batch/row-key';
import type { BatchRow } from '../../../shared/batch/rows';
import type { Intent, IntentState } from '../../../electron/core/services/refunds/intent';
import { sha256Hex } from '../../../electron/core/services/batch/dry-run';

export const ACCOUNT: BatchAccount = {
  environment: 'custom',
  baseUrl: 'https://pay.example',
  merchantNo: '200043',
  storeNo: '300014',
};

export const digest = sha256Hex;

export function tx(no: string, amountMinor: number, extra: Partial<Transaction> = {}): Transaction {
  return {
    transactionNo: no,
    amountMinor,
    currency: 'USD',
    status: 'success',
    transactionType: 'payment',
    refunds: [],
    ...extra,
  };
}

export function intent(
  transactionNo: string,
  amountMinor: number,
  state: IntentState,
  extra: Partial<Intent> = {},
): Intent {
  return {
    id: `RD${transactionNo.slice(-6)}${state}${amountMinor}`,
    profileId: 'p1',
    profileName: 'Shop',
    environment: 'custom',
    baseUrl: ACCOUNT.baseUrl,
    merchantNo: ACCOUNT.merchantNo,
    storeNo: ACCOUNT.storeNo,
    transactionNo,
    amountMinor,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: 'test',
    operator: 'tester',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    state,
    checks: 0,
    attempts: 1,
    ...extra,
  };
}

let nextLine = 2;
export function row(
  id: string,
  amount: number | 'full',
  extra: Partial<BatchRow> & { currency?: Currency } = {},
): BatchRow {
  nextLine += 1;
  return {
    line: nextLine,
    transactionNo: id,
    amount: amount === 'full' ? 'full' : { minor: amount },
    currency: 'USD',
    reason: 'recall',
    ...extra,
  };
}
