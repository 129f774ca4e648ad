/**
 * The exports bench's rows: a busy month of one merchant as the Transactions list holds them (list
 * rows of cached payments), built the same way in Chromium (page/entry.ts) and described to the
 * Python peers (export_python.py builds the same values).
 */
import { type ListRow, toListRow } from '../../../renderer/src/db/list-row';
import type { Transaction } from '../../../shared/domain/transaction';

const VENDORS = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
const CURRENCIES = ['USD', 'CNY', 'GBP', 'HKD', 'KRW'] as const;
const STATUSES = ['success', 'success', 'success', 'closed', 'failed'] as const;
const BASE = Date.UTC(2026, 7, 1);
const FETCHED = '2026-09-01T00:00:00.000Z';

export function makeListRows(n: number): ListRow[] {
  const out: ListRow[] = [];
  for (let i = 0; i < n; i += 1) {
    const at = new Date(BASE + i * 60_000).toISOString();
    const status = STATUSES[i % 5]!;
    const tx: Transaction & { profileId: string; fetchedAt: string } = {
      transactionNo: String(300000000000000000n + BigInt(i)),
      reference: `BENCH-${i}`,
      amountMinor: 100 + ((i * 7919) % 500_000),
      currency: CURRENCIES[i % 5]!,
      settleCurrency: 'USD',
      status,
      vendor: VENDORS[i % 5]!,
      transactionType: 'payment',
      createdAt: at,
      refunds: [],
      profileId: 'bench',
      fetchedAt: FETCHED,
    };
    if (status === 'success') tx.paidAt = at;
    out.push(toListRow(tx));
  }
  return out;
}
