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
import {
  isServiceViewOf,
  serviceView,
  type ReconItem,
  type ServiceView,
} from '../../../../shared/recon/match';
import type { ItemRefs } from '../../services/reconciliation/run-store';

/** The run's stored ledger rows and list payments an item refers to (reading; ./item-refs.ts). */
export interface Referents {
  row(index: number): LedgerRow;
  listed(window: string, at: number): Transaction;
}

/** Where a service side may come from; `source` is written as is, so anything else is stored whole. */
const isSource = (s: string) => s === 'list' || s === 'lookup' || s === 'cache';

/** The last fetch time found free of tabs: a run's items share a few, asked once per item written. */
let tabFree = '';
const noTab = (s: string) => {
  if (s === tabFree) return true;
  if (s.includes('\t')) return false;
  tabFree = s;
  return true;
};

/**
 * Whether an item's service side is the one its transaction gives (so it need not be stored): the
 * view serviceView makes of it with the item's own source and fetch time, compared without making it.
 */
const derivedService = (service: ServiceView | undefined, transaction: Transaction | undefined) =>
  service !== undefined &&
  transaction !== undefined &&
  isSource(service.source) &&
  noTab(service.fetchedAt) &&
  isServiceViewOf(service, transaction);

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

/** The parts of the usual matched row being encoded (encodeOrUsual's USUAL): one object, reused. */
const usual = { source: '', fetchedAt: '', row: 0, listed: '', dayOffset: '' };
const USUAL = Symbol('usual');

export function encodeItem(item: ReconItem, refs?: ItemRefs): string {
  const text = encodeOrUsual(item, refs);
  if (text !== USUAL) return text;
  return `M${usual.source}\t${usual.fetchedAt}\t${usual.row}\t${usual.listed}\t${usual.dayOffset}`;
}

/** encodeItem's text, or USUAL with `usual` set for the usual matched row (written by the caller). */
function encodeOrUsual(item: ReconItem, refs?: ItemRefs): string | typeof USUAL {
  const { service, transaction, ledger } = item;
  if (refs) {
    const row = ledger ? refs.rowOf(ledger) : -1;
    const place = transaction ? refs.listedOf(transaction) : undefined;
    // A window's start date is a service date (YYYYMMDD); anything else is not referred to.
    const listed = place !== undefined && !place.includes('\t') ? place : undefined;
    if (row >= 0 || listed !== undefined) {
      const made = derivedService(service, transaction);
      if (made && service && ledger && row >= 0 && listed !== undefined && usualMatch(item, ledger)) {
        usual.source = service.source;
        usual.fetchedAt = service.fetchedAt;
        usual.row = row;
        usual.listed = listed;
        usual.dayOffset = item.dayOffset === undefined ? '' : String(item.dayOffset);
        return USUAL;
      }
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

/**
 * A page of a run's items as stored (recon_item_pages.data, schema v13): the JSON array of their texts,
 * each as encodeItem writes it — except that the usual matched row after another one of the same page,
 * source and fetch time is stored as no more than what differs from it:
 *
 *     m<its row − that one's row, empty when 1>\t<window>:<at>\t<dayOffset, or empty when absent>
 *
 * (at a million rows 30 bytes instead of 60, written twice: into the log, then the file). Such an entry
 * is read in its page only (decodePage), which reads the page from its start.
 */
export function encodePage(
  items: readonly ReconItem[],
  from: number,
  count: number,
  refs?: ItemRefs,
): { data: string; unmatched: number[] } {
  const page = new PageEncoder(refs);
  for (let i = 0; i < count; i += 1) page.add(items[from + i]!);
  return page.end();
}

/** encodePage item by item: the page's items need not be held together (run-store saveResultAsMade). */
export class PageEncoder {
  private texts: string[] = [];
  private unmatched: number[] = [];
  private head = '';
  private fetchedAt = '';
  private lastRow = -1;

  constructor(private readonly refs?: ItemRefs) {}

  get count(): number {
    return this.texts.length;
  }

  add(item: ReconItem): void {
    if (item.outcome !== 'matched') this.unmatched.push(this.texts.length);
    const text = encodeOrUsual(item, this.refs);
    if (text !== USUAL) this.texts.push(text);
    else this.usual(usual.source, usual.fetchedAt, usual.row, usual.listed, usual.dayOffset);
  }

  /**
   * The usual matched row answered by the run's own listed payment (match.ts onUsual), stored as add()
   * stores its item — `{ line, matchedBy, ledger, service: serviceView(transaction, 'list', fetchedAt),
   * transaction, dayOffset?, outcome: 'matched', detail: '', deltas: [] }` with `ledger` the run's row
   * `row` and `transaction` its payment at `listed` (`<window>:<at>`) — without that item being made.
   * The caller vouches for the item; `fetchedAt` and `listed` hold no tab.
   */
  addUsual(fetchedAt: string, row: number, listed: string, dayOffset: number | undefined): void {
    this.usual('list', fetchedAt, row, listed, dayOffset === undefined ? '' : String(dayOffset));
  }

  private usual(source: string, fetchedAt: string, row: number, listed: string, dayOffset: string): void {
    if (this.lastRow >= 0 && source === this.head && fetchedAt === this.fetchedAt) {
      const step = row - this.lastRow;
      this.texts.push(`m${step === 1 ? '' : step}\t${listed}\t${dayOffset}`);
    } else {
      this.texts.push(`M${source}\t${fetchedAt}\t${row}\t${listed}\t${dayOffset}`);
      this.head = source;
      this.fetchedAt = fetchedAt;
    }
    this.lastRow = row;
  }

  /** The page as stored, and its items' positions that are not matched; the encoder starts again. */
  end(): { data: string; unmatched: number[] } {
    const out = { data: JSON.stringify(this.texts), unmatched: this.unmatched };
    this.texts = [];
    this.unmatched = [];
    this.head = '';
    this.fetchedAt = '';
    this.lastRow = -1;
    return out;
  }
}

/** A page's entries `0` to `to − 1` as encodeItem writes them: each `m` entry made whole again. */
export function pageTexts(texts: readonly string[], to = texts.length): string[] {
  const out = new Array<string>(to);
  // The last whole usual row before (what an `m` entry is short for): its text's head and its row.
  let head = '';
  let lastRow = -1;
  for (let i = 0; i < to; i += 1) {
    const text = texts[i]!;
    const first = text.charCodeAt(0);
    if (first === 77 /* M */) {
      const c = text.indexOf('\t', text.indexOf('\t') + 1);
      head = text.slice(0, c);
      lastRow = Number(text.slice(c + 1, text.indexOf('\t', c + 1)));
    } else if (first === 109 /* m */) {
      if (lastRow < 0)
        throw new ItemRefError('a stored page of report items is damaged: an item it shortens is missing');
      const a = text.indexOf('\t');
      lastRow += a === 1 ? 1 : Number(text.slice(1, a));
      out[i] = `${head}\t${lastRow}${text.slice(a)}`;
      continue;
    }
    out[i] = text;
  }
  return out;
}

/** Items `from` to `to − 1` (positions in the page) of a page encodePage wrote. */
export function decodePage(
  texts: readonly string[],
  from: number,
  to: number,
  refs?: Referents,
): ReconItem[] {
  const whole = pageTexts(texts, to);
  const out: ReconItem[] = [];
  for (let i = from; i < to; i += 1) out.push(decodeItem(whole[i]!, refs));
  return out;
}

export function decodeItem(text: string, refs?: Referents): ReconItem {
  const first = text.charCodeAt(0);
  if (first === 77 /* M */) return decodeUsualMatch(text, refs);
  if (first === 109 /* m */)
    throw new ItemRefError('a shortened report item is read in its page only (decodePage)');
  if (first === 82 /* R */) return decodeRefItem(text, refs);
  if (first !== 83 /* S */) return JSON.parse(text) as ReconItem;
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const source = text.slice(1, a) as ServiceView['source'];
  const item = JSON.parse(text.slice(b + 1)) as ReconItem;
  item.service = serviceView(item.transaction!, source, text.slice(a + 1, b));
  return item;
}
