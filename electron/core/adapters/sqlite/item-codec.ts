/**
 * A report item as stored in recon_items.data (schema v10). Most items hold the service's whole record
 * (`transaction`) and, beside it, the service's side made of that record (`service`: serviceView of
 * it, with where and when it was fetched) — the same facts twice, a third of the text. Such an item is
 * stored without `service`, behind its source and fetch time:
 *
 *     S<source>\t<fetchedAt>\t<the item's JSON without service>
 *
 * and reading makes `service` again with the same function that made it. Any other item (and every
 * item stored before v10) is its plain JSON, which starts with `{`.
 *
 * Since schema v12 an item whose ledger row is one of the run's own stored rows (recon_inputs) and whose
 * transaction is one of the run's own stored list windows (recon_windows) refers to them instead of
 * holding copies — at a million rows the copies were most of the record's 600 MB and of the time to
 * write it:
 *
 *     R<source>\t<fetchedAt>\t<row>\t<window>:<at>\t<the item's JSON without those>
 *
 * (the usual matched row even shorter, see usualMatch). `row` is the row's position among the run's ledger rows, `window:at` the list window (its start date)
 * and the payment's position in it, each empty when the item holds its own copy; `source` and
 * `fetchedAt` are empty when `service` is held too. Reading fetches the row and the payment from the
 * run's stored records (./item-refs.ts), which never change once the run has started (and a signed
 * run's cannot: triggers of v12). The item read back equals the item written
 * (test/unit/adapters/item-codec.property.test.ts), so a re-opened run is the run as shown.
 */
import type { Transaction } from '../../../../shared/domain/transaction';
import type { LedgerRow } from '../../../../shared/recon/ledger';
import { serviceView, type ReconItem, type ServiceView } from '../../../../shared/recon/match';
import type { ItemRefs } from '../../services/reconciliation/run-store';

/** The run's stored ledger rows and list payments an item refers to (reading; ./item-refs.ts). */
export interface Referents {
  row(index: number): LedgerRow;
  listed(window: string, at: number): Transaction;
}

const SOURCES: ReadonlySet<string> = new Set(['lookup', 'list', 'cache']);

/** Whether `a` and `b` have the same own properties with the same (primitive) values. */
function sameView(a: ServiceView, b: ServiceView): boolean {
  const ka = Object.keys(a) as Array<keyof ServiceView>;
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}

/** Whether an item's service side is the one its transaction gives (so it need not be stored). */
const derivedService = (service: ServiceView | undefined, transaction: Transaction | undefined) =>
  service !== undefined &&
  transaction !== undefined &&
  SOURCES.has(service.source) &&
  !service.fetchedAt.includes('\t') &&
  sameView(serviceView(transaction, service.source, service.fetchedAt), service);

/**
 * Whether an item is the usual matched row as the engine makes it (shared/recon/match.ts): nothing in it
 * but its row, line, how it matched, the service side, the transaction and the day offset — stored as
 *
 *     M<source>\t<fetchedAt>\t<row>\t<window>:<at>\t<dayOffset, or empty when absent>
 */
function usualMatch(item: ReconItem, ledger: LedgerRow): boolean {
  if (item.outcome !== 'matched' || item.detail !== '' || item.deltas.length !== 0) return false;
  if (item.line !== ledger.line || item.matchedBy !== (ledger.transactionNo ? 'transactionNo' : 'reference'))
    return false;
  const d = item.dayOffset;
  if (d !== undefined && !Number.isSafeInteger(d)) return false;
  let keys = 0;
  for (const _ in item) keys += 1;
  return keys === (d === undefined ? 8 : 9);
}

export function encodeItem(item: ReconItem, refs?: ItemRefs): string {
  const { service, transaction, ledger } = item;
  if (refs) {
    const row = ledger ? refs.rowOf(ledger) : -1;
    const place = transaction ? refs.listedOf(transaction) : undefined;
    // A window's start date is a service date (YYYYMMDD); anything else is not referred to.
    const listed = place !== undefined && !place.includes('\t') ? place : undefined;
    if (row >= 0 || listed !== undefined) {
      const made = derivedService(service, transaction);
      if (made && service && ledger && row >= 0 && listed !== undefined && usualMatch(item, ledger))
        return `M${service.source}\t${service.fetchedAt}\t${row}\t${listed}\t${item.dayOffset ?? ''}`;
      // What is not referred to (or made again) stays in the item's own JSON.
      const { ledger: _l, transaction: _t, service: _s, ...rest } = item as ReconItem;
      const own: Partial<ReconItem> = rest;
      if (row < 0 && ledger) own.ledger = ledger;
      if (listed === undefined && transaction) own.transaction = transaction;
      if (!made && service) own.service = service;
      const head = made && service ? `${service.source}\t${service.fetchedAt}` : '\t';
      return `R${head}\t${row >= 0 ? row : ''}\t${listed ?? ''}\t${JSON.stringify(own)}`;
    }
  }
  if (service && derivedService(service, transaction)) {
    const { service: _made, ...rest } = item;
    return `S${service.source}\t${service.fetchedAt}\t${JSON.stringify(rest)}`;
  }
  return JSON.stringify(item);
}

/** Thrown when a stored item refers to a row or payment its run does not hold (a damaged record). */
export class ItemRefError extends Error {
  override name = 'ItemRefError';
}

function decodeRefItem(text: string, refs: Referents | undefined): ReconItem {
  if (!refs) throw new ItemRefError('a stored report item refers to its run’s records, which were not given');
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const c = text.indexOf('\t', b + 1);
  const d = text.indexOf('\t', c + 1);
  const item = JSON.parse(text.slice(d + 1)) as ReconItem;
  const row = text.slice(b + 1, c);
  if (row !== '') item.ledger = refs.row(Number(row));
  if (d > c + 1) {
    const colon = text.lastIndexOf(':', d);
    item.transaction = refs.listed(text.slice(c + 1, colon), Number(text.slice(colon + 1, d)));
  }
  const source = text.slice(1, a) as ServiceView['source'];
  if (source !== ('' as string)) item.service = serviceView(item.transaction!, source, text.slice(a + 1, b));
  return item;
}

function decodeUsualMatch(text: string, refs: Referents | undefined): ReconItem {
  if (!refs) throw new ItemRefError('a stored report item refers to its run’s records, which were not given');
  const [head, fetchedAt, row, place, offset] = text.split('\t') as [string, string, string, string, string];
  const ledger = refs.row(Number(row));
  const colon = place.lastIndexOf(':');
  const transaction = refs.listed(place.slice(0, colon), Number(place.slice(colon + 1)));
  const item: ReconItem = {
    line: ledger.line,
    matchedBy: ledger.transactionNo ? 'transactionNo' : 'reference',
    ledger,
    service: serviceView(transaction, head.slice(1) as ServiceView['source'], fetchedAt),
    transaction,
    outcome: 'matched',
    detail: '',
    deltas: [],
  };
  if (offset !== '') item.dayOffset = Number(offset);
  return item;
}

export function decodeItem(text: string, refs?: Referents): ReconItem {
  const first = text.charCodeAt(0);
  if (first === 77 /* M */) return decodeUsualMatch(text, refs);
  if (first === 82 /* R */) return decodeRefItem(text, refs);
  if (first !== 83 /* S */) return JSON.parse(text) as ReconItem;
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const source = text.slice(1, a) as ServiceView['source'];
  const item = JSON.parse(text.slice(b + 1)) as ReconItem;
  item.service = serviceView(item.transaction!, source, text.slice(a + 1, b));
  return item;
}
