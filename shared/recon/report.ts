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
  type ListedFacts,
  type ListedIndex,
  matchLedger,
  NO_DELTAS,
  type ReconItem,
  type ServiceAnswer,
} from './match';
import type { LedgerRow, UnusableRow } from './ledger';
import { periodRange, zoneLabel, zoneOf, type ReconOptions } from './period';
import { summaryTally, type ReconSummary } from './summary';
import { listedSource, serviceOnlyItems, type ListedPayment, type ListedSource } from './two-way';

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
  listed: readonly ListedPayment[] | ListedSource;
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
  /**
   * With listedAt and listedPositionOf: a row whose listedAt is a position is answered by that very
   * listed payment (found, source 'list', fetched with its window) — answerAt is asked only for the
   * other rows, and no answer object is made per listed payment (matchLedger's listed.fetchedAt).
   */
  listedAnswers?: boolean;
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

/** Whether the list reads its payments' fields without making them (the run's list, ListedFacts). */
const hasFacts = (l: ListedSource): l is ListedSource & ListedFacts =>
  typeof (l as Partial<ListedFacts>).paymentTime === 'function';

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
  const items: ReconItem[] = [];
  const summary = makeReport(input, (item) => items.push(item));
  return { items, summary };
}

/**
 * The report's items handed to `put` one by one in the report's order, as they are made — the same
 * items buildReport gives, none of them kept here — and its summary. A caller that stores each page
 * of items as it fills (run.ts, run-store saveResultAsMade) never holds the whole report: at a million
 * rows a million items and their service sides lived until the record was written, and were copied by
 * every collection in between.
 */
export function makeReport(
  input: ReportInput,
  put: (item: ReconItem) => void,
  /**
   * Offered each matched row answered by its very listed payment (matchLedger's onUsual), in its place
   * in the report's order: true takes it (the caller stores it by reference) and its item is not made.
   */
  usual?: (row: number, position: number, dayOffset: number | undefined) => boolean,
): ReconSummary {
  const { options } = input;
  const dates = {
    zone: zoneOf(options),
    zoneLabel: zoneLabel(options),
    toleranceDays: options.dateToleranceDays,
  };
  const tally = summaryTally();
  const { listedAt, listedPositionOf } = input;
  const listed = listedSource(input.listed);
  const listedIndex: ListedIndex | undefined =
    listedAt && listedPositionOf && input.listedUnique
      ? {
          size: listed.length,
          at: listedAt,
          positionOf: listedPositionOf,
          transaction: (p) => listed.transaction(p),
          ...(hasFacts(listed) ? { facts: listed } : {}),
          ...(input.listedAnswers ? { fetchedAt: (p: number) => listed.fetchedAt(p) } : {}),
        }
      : undefined;
  const range = periodRange(options);
  const serviceOnly = range !== undefined && input.listing === 'complete';
  // With the list's positions, the matching marks the listed payments rows claimed as it goes (by
  // position; a number the list does not hold cannot name a listed payment: its numbers all differ).
  const claimedByMatch = serviceOnly && listedIndex ? new Uint8Array(listed.length) : undefined;
  // Otherwise the payments rows claimed are marked here, item by item: by position where the row's
  // listed payment is its answer, by number for the others.
  const claimed = new Set<string>();
  const claimedHere =
    serviceOnly && !claimedByMatch && listedAt && input.listedUnique
      ? new Uint8Array(listed.length)
      : undefined;
  const claimedAt = claimedByMatch ?? claimedHere;
  const unreadable = input.unusable.map(unreadableItem);
  // Both lists are in line order: each matched item goes after the unreadable rows of earlier lines.
  let u = 0;
  let row = 0;
  const flushBefore = (line: number) => {
    while (u < unreadable.length && (unreadable[u]!.line ?? 0) < line) {
      tally.add(unreadable[u]!);
      put(unreadable[u++]!);
    }
  };
  const { rows } = input;
  // Taken rows are not counted by `row` below: offered only where the listed payments rows claimed are
  // marked by the matching (or not needed), never where that count is used.
  const offer =
    usual && listedIndex && (claimedByMatch || !serviceOnly)
      ? (i: number, p: number, dayOffset: number | undefined) => {
          flushBefore(rows[i]!.line);
          return usual(i, p, dayOffset);
        }
      : undefined;
  matchLedger(rows, input.answer, {
    fmt: input.fmt,
    dates,
    keepItems: false,
    ...(offer ? { onUsual: offer, onMatched: tally.addMatched } : {}),
    onItem: (item) => {
      tally.add(item);
      if (serviceOnly && !claimedByMatch) {
        // matchLedger makes one item per row, in row order: this item is row `row`'s.
        const service = item.service;
        if (service) {
          const p = claimedHere ? listedAt!(row) : -1;
          if (
            claimedHere &&
            p >= 0 &&
            p < listed.length &&
            listed.transaction(p).transactionNo === service.transactionNo
          )
            claimedHere[p] = 1;
          else claimed.add(service.transactionNo);
        }
      }
      row += 1;
      flushBefore(item.line ?? 0);
      put(item);
    },
    ...(input.answerBy ? { lookupBy: input.answerBy } : {}),
    ...(input.answerAt ? { lookupAt: input.answerAt } : {}),
    ...(listedIndex ? { listed: listedIndex } : {}),
    ...(claimedByMatch ? { listedClaims: claimedByMatch } : {}),
  });
  // Unreadable rows only add to counts: their place among the tally's items does not matter.
  while (u < unreadable.length) {
    tally.add(unreadable[u]!);
    put(unreadable[u++]!);
  }
  if (range && serviceOnly) {
    const unreadableLineByTx = new Map<string, number>();
    for (const r of input.unusable)
      if (r.fields?.transactionNo && !unreadableLineByTx.has(r.fields.transactionNo))
        unreadableLineByTx.set(r.fields.transactionNo, r.line);
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
      tally.add(item);
      put(item);
    }
  }
  // The same as summarise(items): the matched rows in order, the unreadable ones (which only add to
  // counts, so their place does not matter), then the service's items in order.
  return tally.result();
}
