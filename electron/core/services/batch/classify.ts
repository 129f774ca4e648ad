/**
 * The dry run's decision for every row of a refund batch: a PURE function over the rows read, the
 * payments as just queried and the intents of those payments in the database. Nothing is sent; the
 * same function will run again immediately before each row is executed (a row that became invalid
 * since is refused with its reason, never sent).
 *
 * The money rule is the refund service's own: what remains is `remainingFor` (the payment's amount less
 * the service's refunds less this desk's counted intents the service does not show yet), a payment is
 * refundable only when `refundBlocker` says nothing and its status is success, and an open intent
 * blocks any other refund of its payment. On top of that, rows of the same file on the same payment are
 * accounted cumulatively, in file order: each row is checked against what the rows above it leave.
 */
import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import { refundBlocker, type Transaction } from '../../../../shared/domain/transaction';
import {
  BATCH_ROW_CLASSES,
  type BatchDryRun,
  type BatchRowClass,
  type BatchRowResult,
  type BatchTotal,
} from '../../../../shared/batch/result';
import { type BatchAccount, type Digest, rowKey } from '../../../../shared/batch/row-key';
import type { BatchRow, BatchUnusable } from '../../../../shared/batch/rows';
import { type Intent, OPEN_STATES } from '../refunds/intent';
import { remainingFor } from '../refunds/service';

/** How a row names its payment for the query: by number when it has one, else by merchant reference. */
export function lookupKeyOf(row: Pick<BatchRow, 'transactionNo' | 'reference'>): string {
  return row.transactionNo !== undefined ? `tx:${row.transactionNo}` : `ref:${row.reference ?? ''}`;
}

/** What the fresh query of one payment said. */
export type PaymentAnswer =
  { kind: 'found'; transaction: Transaction } | { kind: 'not_found' } | { kind: 'failed'; message: string };

/** A payment's intents in the database, or why they cannot be read (then nothing can be decided). */
export type PaymentIntents = readonly Intent[] | { unreadable: string };

export interface ClassifyInput {
  account: BatchAccount;
  rows: readonly BatchRow[];
  unusable: readonly BatchUnusable[];
  /** By lookupKeyOf(row). A row whose key is missing is `not_checked`. */
  payments: ReadonlyMap<string, PaymentAnswer>;
  /** By transaction number. Missing: none. */
  intents: ReadonlyMap<string, PaymentIntents>;
  /** Row keys already refunded by a batch run → that batch's id. */
  done?: ReadonlyMap<string, string>;
  /** Team mode: a row above the account's approval limit in its currency waits for a second person. */
  approvalLimitMinor?: Partial<Record<Currency, number>>;
  digest: Digest;
}

/** As the result schema holds it (shared/batch/result.ts): a service's words are never the row's size. */
const MESSAGE_MAX = 700;

const money = (minor: number, currency: Currency) => `${formatMinor(minor, currency)} ${currency}`;

/** Classifies every row; every data row (read or unusable) is in the answer exactly once, in file order. */
export function classifyBatch(input: ClassifyInput): BatchDryRun {
  const out: BatchRowResult[] = [];
  const firstLineOfKey = new Map<string, number>();
  /** What earlier rows of this file would take from each payment (by transaction number). */
  const taken = new Map<string, number>();
  const baseRemaining = new Map<string, number>();

  for (const row of input.rows) {
    const answer = input.payments.get(lookupKeyOf(row));
    const tx = answer?.kind === 'found' ? answer.transaction : undefined;
    const payment = tx?.transactionNo ?? row.transactionNo ?? `ref:${row.reference ?? ''}`;
    const key = rowKey(input.account, row, payment, input.digest);
    const base: BatchRowResult = {
      line: row.line,
      class: 'will_refund',
      ...(tx
        ? { transactionNo: tx.transactionNo }
        : row.transactionNo
          ? { transactionNo: row.transactionNo }
          : {}),
      ...(row.reference ? { reference: row.reference } : {}),
      ...(row.rowRef ? { rowRef: row.rowRef } : {}),
      reason: row.reason,
      currency: row.currency,
      ...(row.amount === 'full' ? { full: true } : { requestedMinor: row.amount.minor }),
      ...(tx ? { paymentCurrency: tx.currency, paymentStatus: tx.status } : {}),
      key,
    };
    const put = (cls: BatchRowClass, message?: string, extra: Partial<BatchRowResult> = {}) =>
      out.push({
        ...base,
        class: cls,
        ...(message ? { message: message.slice(0, MESSAGE_MAX) } : {}),
        ...extra,
      });

    const earlier = firstLineOfKey.get(key);
    if (earlier !== undefined) {
      put(
        'duplicate',
        `the same row as line ${earlier} (same payment, amount, currency and ${row.rowRef ? 'row reference' : 'reason'}); if both are meant, give each its own row reference`,
        { duplicateOf: earlier },
      );
      continue;
    }
    firstLineOfKey.set(key, row.line);
    const doneIn = input.done?.get(key);
    if (doneIn !== undefined) {
      put('already_refunded', `already refunded in batch ${doneIn}`, { batchId: doneIn });
      continue;
    }
    if (!answer || answer.kind === 'failed') {
      put(
        'not_checked',
        `the payment could not be checked now${answer ? `: ${answer.message}` : ''}; run the dry run again`,
      );
      continue;
    }
    if (!tx) {
      put(
        'unknown_id',
        row.transactionNo
          ? `the payment service has no payment ${row.transactionNo}`
          : `the payment service has no payment with merchant reference “${row.reference ?? ''}”`,
      );
      continue;
    }
    if (row.transactionNo && row.reference && tx.reference && tx.reference !== row.reference) {
      put(
        'unknown_id',
        `payment ${tx.transactionNo} has merchant reference “${tx.reference}”, not “${row.reference}”: the row names two different payments`,
      );
      continue;
    }
    const blocker = refundBlocker(tx);
    const intents = input.intents.get(tx.transactionNo) ?? [];
    if (blocker || !Array.isArray(intents)) {
      put('blocked', blocker ?? (intents as { unreadable: string }).unreadable);
      continue;
    }
    if (tx.status !== 'success') {
      put(
        'not_successful',
        `the payment's status is “${tx.status}”; only successful payments can be refunded`,
      );
      continue;
    }
    if (row.currency !== tx.currency) {
      put('other_currency', `the row is in ${row.currency}, the payment in ${tx.currency}`);
      continue;
    }
    const open = (intents as readonly Intent[]).find((i) => OPEN_STATES.has(i.state));
    if (open) {
      put(
        'in_progress',
        `refund ${open.id} of this payment (${money(open.amountMinor, open.currency)}) is ${open.state === 'sending' ? 'being sent' : 'of unknown outcome'}; wait until it is settled`,
      );
      continue;
    }
    let before = baseRemaining.get(tx.transactionNo);
    if (before === undefined) {
      before = remainingFor(tx, intents as readonly Intent[]);
      baseRemaining.set(tx.transactionNo, before);
    }
    const remaining = before - (taken.get(tx.transactionNo) ?? 0);
    if (remaining <= 0) {
      put('nothing_remains', 'nothing remains to be refunded on this payment', {
        remainingMinor: Math.max(0, remaining),
      });
      continue;
    }
    const amount = row.amount === 'full' ? remaining : row.amount.minor;
    if (amount > remaining) {
      put(
        'exceeds_remaining',
        `${money(amount, row.currency)} is more than the ${money(remaining, row.currency)} that remains`,
        { remainingMinor: remaining },
      );
      continue;
    }
    taken.set(tx.transactionNo, (taken.get(tx.transactionNo) ?? 0) + amount);
    // As the team database reads its policy: a currency without one needs no approval.
    const limit = input.approvalLimitMinor?.[row.currency];
    if (limit !== undefined && amount > limit) {
      put(
        'needs_approval',
        `${money(amount, row.currency)} is above the approval limit of ${money(limit, row.currency)}: the batch is approved as a whole by a second person`,
        { amountMinor: amount, remainingMinor: remaining },
      );
      continue;
    }
    out.push({ ...base, amountMinor: amount, remainingMinor: remaining });
  }
  for (const u of input.unusable)
    out.push({
      line: u.line,
      class: 'unusable',
      message: u.reason.slice(0, MESSAGE_MAX),
      ...(u.raw ? { raw: u.raw } : {}),
    });
  out.sort((a, b) => a.line - b.line);

  const counts = Object.fromEntries(BATCH_ROW_CLASSES.map((c) => [c, 0])) as Record<BatchRowClass, number>;
  for (const r of out) counts[r.class] += 1;
  return {
    rows: out,
    dataRows: input.rows.length + input.unusable.length,
    rowsRead: input.rows.length,
    unusableRows: input.unusable.length,
    counts,
    totals: totalsOf(out, 'will_refund'),
    approvalTotals: totalsOf(out, 'needs_approval'),
  };
}

/** Σ amountMinor per currency of the rows of one class, in the order currencies first appear. */
function totalsOf(rows: readonly BatchRowResult[], cls: BatchRowClass): BatchTotal[] {
  const by = new Map<Currency, BatchTotal>();
  for (const r of rows) {
    if (r.class !== cls || r.currency === undefined || r.amountMinor === undefined) continue;
    let t = by.get(r.currency);
    if (!t) by.set(r.currency, (t = { currency: r.currency, amountMinor: 0, rows: 0 }));
    t.amountMinor += r.amountMinor;
    if (!Number.isSafeInteger(t.amountMinor))
      throw new RangeError('batch total exceeds the safe integer range');
    t.rows += 1;
  }
  return [...by.values()];
}
