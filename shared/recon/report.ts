/**
 * A whole reconciliation report (pure), the same in the app and the CLI: every ledger data row once
 * (read rows with their outcome, unusable rows as `unreadable`, in line order), then what the service
 * has in the period that the ledger lacks. The run's facts (file, formats, period, where the service's
 * data came from, whether it was offline) travel with it, and ./statement.ts says in words what was
 * compared and how.
 */
import type { Currency } from '../domain/currencies';
import { formatMinor } from '../domain/money';
import {
  type KeyedLookup,
  type ListedIndex,
  matchLedger,
  NO_DELTAS,
  type ReconItem,
  type ServiceAnswer,
} from './match';
import type { LedgerRow, UnusableRow } from './ledger';
import { periodRange, zoneLabel, zoneOf, type ReconOptions } from './period';
import { summaryTally, type ReconSummary } from './summary';
import { serviceOnlyItems, type ListedPayment } from './two-way';

/** What happened to the period's list of payments. */
export type ListingState = 'none' | 'complete' | 'unsupported' | 'incomplete';

export interface ReportInput {
  rows: readonly LedgerRow[];
  unusable: readonly UnusableRow[];
  /** What the service said for a ledger key (list, lookup or cache); undefined = not looked up. */
  answer: (key: string) => ServiceAnswer | undefined;
  /** The same answers by key kind and value (see matchLedger's lookupBy); asked instead when given. */
  answerBy?: KeyedLookup;
  /** The same answers by the row's position in `rows` (see matchLedger's lookupAt); asked first when given. */
  answerAt?: (row: number) => ServiceAnswer | undefined;
  /** The period's payments; used for the other direction only when `listing` is complete. */
  listed: readonly ListedPayment[];
  /** No two listed payments share a number (see serviceOnlyItems' listedUnique). */
  listedUnique?: boolean;
  /**
   * Per row (its position in `rows`): the position in `listed` of the payment that is the row's answer
   * (the very listed payment), -1 when its answer did not come from the list. With `listedUnique`, the
   * payments the rows claimed are then marked by position instead of collected in a set of every
   * number (a million strings at a million rows).
   */
  listedAt?: (row: number) => number;
  /**
   * With `listedAt` and `listedUnique`: a listed payment's position by its number (undefined: not
   * listed). The matching then numbers a listed payment by its position (matchLedger's `listed`).
   */
  listedPositionOf?: (transactionNo: string) => number | undefined;
  listing: ListingState;
  options: ReconOptions;
  fmt: (amountMinor: number, currency: Currency) => string;
}

export interface ReconReport {
  items: ReconItem[];
  summary: ReconSummary;
}

/** Amounts inside detail sentences, the same in the app and the CLI: "12.30 USD". */
export const detailAmount = (amountMinor: number, currency: Currency) =>
  `${formatMinor(amountMinor, currency)} ${currency}`;

/** An unusable row as a report item. */
function unreadableItem(u: UnusableRow): ReconItem {
  return {
    line: u.line,
    outcome: 'unreadable',
    unusable: u,
    deltas: NO_DELTAS,
    detail: `Cannot be used: ${u.reason}.`,
  };
}

/** Builds the items and summary. Deterministic: the same input gives the same report. */
export function buildReport(input: ReportInput): ReconReport {
  const { options } = input;
  const dates = {
    zone: zoneOf(options),
    zoneLabel: zoneLabel(options),
    toleranceDays: options.dateToleranceDays,
  };
  const tally = summaryTally();
  const { listedAt, listedPositionOf, listed } = input;
  const listedIndex: ListedIndex | undefined =
    listedAt && listedPositionOf && input.listedUnique
      ? {
          size: listed.length,
          at: listedAt,
          positionOf: listedPositionOf,
          transaction: (p) => listed[p]!.transaction,
        }
      : undefined;
  const range = periodRange(options);
  const serviceOnly = range !== undefined && input.listing === 'complete';
  // With the list's positions, the matching marks the listed payments rows claimed as it goes (by
  // position; a number the list does not hold cannot name a listed payment: its numbers all differ).
  const claimedByMatch = serviceOnly && listedIndex ? new Uint8Array(listed.length) : undefined;
  const matched = matchLedger(input.rows, input.answer, {
    fmt: input.fmt,
    dates,
    onItem: tally.add,
    ...(input.answerBy ? { lookupBy: input.answerBy } : {}),
    ...(input.answerAt ? { lookupAt: input.answerAt } : {}),
    ...(listedIndex ? { listed: listedIndex } : {}),
    ...(claimedByMatch ? { listedClaims: claimedByMatch } : {}),
  });
  const unreadable = input.unusable.map(unreadableItem);
  for (const item of unreadable) tally.add(item);
  // Merge by line: both lists are in line order. With nothing to merge, the matched items are the list.
  let items: ReconItem[] = matched;
  if (unreadable.length > 0) {
    items = [];
    let u = 0;
    for (const item of matched) {
      while (u < unreadable.length && (unreadable[u]!.line ?? 0) < (item.line ?? 0))
        items.push(unreadable[u++]!);
      items.push(item);
    }
    while (u < unreadable.length) items.push(unreadable[u++]!);
  }
  if (range && serviceOnly) {
    const claimed = new Set<string>();
    let claimedAt = claimedByMatch;
    if (claimedAt) {
      // Marked by the matching.
    } else if (listedAt && input.listedUnique && matched.length === input.rows.length) {
      // matchLedger makes one item per row, in row order: item i is row i's.
      claimedAt = new Uint8Array(listed.length);
      for (let i = 0; i < matched.length; i += 1) {
        const service = matched[i]!.service;
        if (!service) continue;
        const p = listedAt(i);
        if (p >= 0 && listed[p]?.transaction.transactionNo === service.transactionNo) claimedAt[p] = 1;
        else claimed.add(service.transactionNo);
      }
    } else for (const i of matched) if (i.service) claimed.add(i.service.transactionNo);
    const unreadableLineByTx = new Map<string, number>();
    for (const r of input.unusable)
      if (r.fields?.transactionNo && !unreadableLineByTx.has(r.fields.transactionNo))
        unreadableLineByTx.set(r.fields.transactionNo, r.line);
    // One push per item: spreading a list this long into push's arguments overflows the call stack.
    for (const item of serviceOnlyItems({
      listed,
      ...(input.listedUnique ? { listedUnique: true } : {}),
      claimed,
      ...(claimedAt ? { claimedAt } : {}),
      range,
      unreadableLineByTx,
      fmt: input.fmt,
      dates,
    })) {
      items.push(item);
      tally.add(item);
    }
  }
  // The same as summarise(items): the matched rows in order, the unreadable ones (which only add to
  // counts, so their place does not matter), then the service's items in order.
  return { items, summary: tally.result() };
}
