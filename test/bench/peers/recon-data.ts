/**
 * The reconciliation bench's data: one month of a busy merchant, as files every reconciler reads.
 *
 * - `ledger.csv`: the merchant's books (Date, Order ID, Transaction No, Amount, Currency, Status), the
 *   file each side parses.
 * - The service's list of the period (and the refund look-back before it), twice, the same payments:
 *   `payments.csv` + `refunds.csv` for pandas and DuckDB, and Refund Desk's own store of that list — a
 *   SQLite database holding a run whose list windows are stored (what a run resumed or re-checked reads
 *   instead of asking the service), created, its ledger not yet handed over.
 *
 * Every check the engine makes is planted, one kind per `i % 1000` so they never overlap: amount,
 * currency, status both ways, a refund the ledger lacks, a refund the service lacks, a date 3 days off,
 * a row the service lacks (looked up, not found), a duplicated row, a payment the ledger lacks, an
 * unreadable amount, refunds that leave the row matched (pending; another currency), and payments of the
 * look-back with refunds in the period (success, pending, failed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../../electron/core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { createSqliteJobStore } from '../../../electron/core/adapters/sqlite/recon-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import type { ListWindow } from '../../../electron/core/services/reconciliation/run-store';
import type { Currency } from '../../../shared/domain/currencies';
import { formatMinor } from '../../../shared/domain/money';
import type { Transaction } from '../../../shared/domain/transaction';
import { serviceDateToMs } from '../../../shared/protocol/time';
import { listWindows, periodRange, type ReconOptions } from '../../../shared/recon/period';
import type { LedgerFileInfo } from '../../../shared/recon/run';

export const RECON_OPTIONS: ReconOptions = {
  period: { from: '2025-06-01', to: '2025-06-30' },
  days: 'service',
  timeZone: 'UTC',
  dateToleranceDays: 1,
  refundLookbackDays: 30,
};

const CURRENCIES: readonly Currency[] = ['USD', 'CNY', 'JPY', 'GBP'];
const DAY = 86_400_000;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface ReconData {
  dir: string;
  ledger: string;
  payments: string;
  refunds: string;
  /** Refund Desk's database with the run and its stored windows (copy it before each run). */
  db: string;
  runId: string;
  /** When the run was created (the child's clock starts there: the service prunes drafts an hour old). */
  createdMs: number;
  rows: number;
  startMs: number;
  endMs: number;
}

const txNo = (i: number) => `2975536383${String(i).padStart(8, '0')}`;
const earlierNo = (j: number) => `2975536385${String(j).padStart(8, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString();
const serviceDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Writes the files for `n` ledger rows into `dir` (deterministic: the same n gives the same bytes). */
export function writeReconData(dir: string, n: number): ReconData {
  mkdirSync(dir, { recursive: true });
  const range = periodRange(RECON_OPTIONS)!;
  const span = (range.endMs - range.startMs) / 1000;
  const ledger: string[] = ['Date,Order ID,Transaction No,Amount,Currency,Status'];
  const payments: string[] = ['transactionNo,reference,amountMinor,currency,status,createdAt,paidAt'];
  const refunds: string[] = ['transactionNo,refundTransactionNo,amountMinor,currency,status,createdAt'];
  const listed: Transaction[] = [];
  let dataRows = 0;
  const refundRow = (tx: string, r: Transaction['refunds'][number]) =>
    refunds.push(
      `${tx},${r.refundTransactionNo},${r.refundAmountMinor},${r.currency},${r.status},${r.createdAt ?? ''}`,
    );
  const add = (t: Transaction) => {
    listed.push(t);
    payments.push(
      `${t.transactionNo},${t.reference ?? ''},${t.amountMinor},${t.currency},${t.status},${t.createdAt ?? ''},${t.paidAt ?? ''}`,
    );
    for (const r of t.refunds) refundRow(t.transactionNo, r);
  };
  for (let i = 0; i < n; i += 1) {
    const k = i % 1000;
    const no = txNo(i);
    const currency = CURRENCIES[i % CURRENCIES.length]!;
    const amountMinor = 100 + ((i * 7919) % 500_000);
    const created = range.startMs + ((i * 2_654_435_761) % span) * 1000;
    const other = CURRENCIES[(i + 1) % CURRENCIES.length]!;
    const tx: Transaction = {
      transactionNo: no,
      reference: `SO-${i}`,
      amountMinor: k === 1 ? amountMinor + 1 : amountMinor,
      currency: k === 2 ? other : currency,
      status: k === 3 ? 'closed' : 'success',
      transactionType: 'payment',
      createdAt: iso(created),
      refunds: [],
    };
    if (k !== 3) tx.paidAt = iso(created + 5000);
    const refund = (amount: number, status: 'success' | 'pending', cur: Currency) =>
      tx.refunds.push({
        refundTransactionNo: `3975536383${String(i).padStart(8, '0')}`,
        refundAmountMinor: amount,
        currency: cur,
        status,
        createdAt: iso(created + DAY),
      });
    if (k === 5) refund(Math.floor(amountMinor / 2), 'success', currency);
    if (k === 12) refund(amountMinor, 'pending', currency);
    if (k === 13) refund(50, 'success', other);
    if (k !== 8) add(tx);
    if (k === 10) continue; // the ledger lacks it
    const status = k === 4 ? 'Cancelled' : k === 6 || k === 12 ? 'Refunded' : 'Paid';
    const day = serviceDay(created + (k === 3 ? 0 : 5000) + (k === 7 ? 3 * DAY : 0));
    const amount = k === 11 ? 'n/a' : formatMinor(amountMinor, currency);
    const line = `${day},SO-${i},${no},${amount},${currency},${status}`;
    ledger.push(line);
    dataRows += 1;
    if (k === 9) {
      ledger.push(line);
      dataRows += 1;
    }
  }
  // The look-back: payments before the period, some refunded in it.
  for (let j = 0; j < Math.ceil(n / 50); j += 1) {
    const created = range.startMs - (1 + (j % 29)) * DAY + (j % 86_000) * 1000;
    const currency = CURRENCIES[j % CURRENCIES.length]!;
    const amountMinor = 500 + ((j * 104_729) % 300_000);
    const t: Transaction = {
      transactionNo: earlierNo(j),
      reference: `SO-E${j}`,
      amountMinor,
      currency,
      status: 'success',
      transactionType: 'payment',
      createdAt: iso(created),
      paidAt: iso(created + 5000),
      refunds: [],
    };
    const statuses = ['success', 'pending', 'failed'] as const;
    t.refunds.push({
      refundTransactionNo: `3975536385${String(j).padStart(8, '0')}`,
      refundAmountMinor: Math.floor(amountMinor / 3),
      currency,
      status: statuses[j % 3]!,
      createdAt: iso(range.startMs + (j % 29) * DAY + 3_600_000),
    });
    if (j % 7 === 0)
      t.refunds.push({
        refundTransactionNo: `3975536386${String(j).padStart(8, '0')}`,
        refundAmountMinor: 1,
        currency,
        status: 'success',
        createdAt: iso(created + 60_000),
      });
    add(t);
  }
  const data: ReconData = {
    dir,
    ledger: join(dir, 'ledger.csv'),
    payments: join(dir, 'payments.csv'),
    refunds: join(dir, 'refunds.csv'),
    db: join(dir, 'refund-desk.db'),
    runId: '',
    createdMs: Date.now(),
    rows: dataRows,
    startMs: range.startMs,
    endMs: range.endMs,
  };
  writeFileSync(data.ledger, `${ledger.join('\r\n')}\r\n`);
  writeFileSync(data.payments, `${payments.join('\n')}\n`);
  writeFileSync(data.refunds, `${refunds.join('\n')}\n`);
  data.runId = storeRun(data.db, listed, dataRows, data.createdMs);
  return data;
}

/** Refund Desk's side of the service's list: a run created for the ledger, its windows stored. */
function storeRun(path: string, listed: readonly Transaction[], dataRows: number, now: number): string {
  const db = openDatabase(path, MIGRATIONS);
  try {
    const runs = createSqliteRunStore(db);
    const service = createReconciliationService({
      runs,
      closing: createSqliteCloseStore(db),
      jobs: createSqliteJobStore(db),
      clock: { now: () => now },
      log: silent,
      gatewayFor: () => {
        throw new Error('the bench data has no service');
      },
      profile: () => ({ id: 'bench', name: 'Bench' }),
      onProgress: () => undefined,
    });
    const file: LedgerFileInfo = {
      name: 'ledger.csv',
      encoding: 'utf-8',
      delimiter: ',',
      dataRows,
      decimal: '.',
      dateOrder: 'ymd',
      decimalSource: 'detected',
      dateOrderSource: 'detected',
    };
    const { runId } = service.create({
      label: 'bench',
      profileId: 'bench',
      file,
      mapping: {
        transactionNo: 'Transaction No',
        reference: 'Order ID',
        amount: 'Amount',
        currency: 'Currency',
        date: 'Date',
        status: 'Status',
      },
      options: RECON_OPTIONS,
    });
    const byWindow = listWindows(RECON_OPTIONS).map((w) => ({
      ...w,
      startMs: serviceDateToMs(w.startDate)!,
      transactions: [] as Transaction[],
    }));
    for (const t of listed) {
      const at = Date.parse(t.createdAt!);
      const w = byWindow.findLast((x) => x.startMs <= at) ?? byWindow[0]!;
      w.transactions.push(t);
    }
    for (const w of byWindow) {
      const window: ListWindow = {
        startDate: w.startDate,
        endDate: w.endDate,
        fetchedAt: '2025-07-02T00:00:00.000Z',
        state: 'listed',
        transactions: w.transactions,
      };
      runs.saveWindow(runId, window);
    }
    return runId;
  } finally {
    db.close();
  }
}
