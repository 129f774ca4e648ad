import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { ListRow } from '../../db/owner';
import type { Formatters } from '../preferences/format';
import type { CellText, ColumnSpec } from './columns';
import { uncertainFor } from './open-refunds';

/**
 * Fills the list's row elements with the rows in view, straight into the DOM.
 *
 * React renders the window's row elements once (TransactionTable: a row, its checkbox, a cell per
 * column) and this writes what they show. Scrolling changes every row in the window on every frame;
 * through React that was a render and a commit of ~30 fibers a row, 26 rows a frame — 2 ms of the
 * scroll event's 2.4 (a plain virtual list writing the same cells took 0.8) and enough garbage for a
 * 4 ms scavenge every few frames. Here a frame writes the cells' text and the attributes that
 * changed, as a plain list does, and allocates little more than the texts.
 */

/** What a paint shows: the latest props of the table (TransactionTable keeps it current). */
export interface PaintInput {
  rows: readonly ListRow[];
  columns: readonly ColumnSpec[];
  format: Formatters;
  activeNo: string | null;
  /** Where `activeNo` is in `rows` (-1: nowhere). */
  activeIndex: number;
  selected: ReadonlySet<string>;
  uncertain: ReadonlyMap<string, readonly IntentView[]> | undefined;
}

export const rowDomId = (transactionNo: string) => `tx-row-${transactionNo}`;

/** A cell's current content, kept beside its element so a paint only writes what changed. */
interface CellDom {
  text: Text;
  /**
   * The second part: "none" for a screen reader, the uncertain note, or the unit. Made the first time
   * the cell needs one and kept (empty while the cell shows plain text): a column's cells change kind
   * as rows scroll by (a paid time, then a failed payment's "none"), and re-making children on every
   * frame was a fifth of the paint.
   */
  extra: { span: HTMLSpanElement; text: Text; className: string } | undefined;
  className: string;
  title: string | undefined;
}

/** A row's current attributes, likewise. */
interface RowDom {
  transactionNo: string | undefined;
  index: number;
  className: string;
  selected: boolean | undefined;
  id: string | undefined;
}

const cells = new WeakMap<Element, CellDom>();
const rowsDom = new WeakMap<Element, RowDom>();

const setText = (node: Text, value: string) => {
  if (node.data !== value) node.data = value;
};

/**
 * Writes one cell: its classes, tooltip and content. A cell with no value shows "—" for the eye (drawn
 * by the stylesheet, `.tx-cell.none::before`, with no text for a screen reader) and "none" for a screen
 * reader; an uncertain amount says why in words; an amount has its unit, drawn smaller.
 */
export function paintCell(el: HTMLElement, column: ColumnSpec, row: ListRow, cell: CellText): void {
  let dom = cells.get(el);
  if (!dom) {
    const text = el.ownerDocument.createTextNode('');
    el.replaceChildren(text);
    dom = { text, extra: undefined, className: '', title: undefined };
    cells.set(el, dom);
  }
  setText(dom.text, cell.none ? '' : cell.text);
  let extraClass = '';
  let extraText = '';
  if (cell.none) {
    extraClass = 'sr-only';
    extraText = 'none';
  } else if (cell.uncertain) {
    extraClass = 'sr-only';
    extraText = ` (uncertain: ${cell.title ?? ''})`;
  } else if (cell.unit) {
    extraClass = 'unit';
    extraText = ` ${cell.unit}`;
  }
  if (extraText && !dom.extra) {
    const span = el.ownerDocument.createElement('span');
    const text = el.ownerDocument.createTextNode('');
    span.appendChild(text);
    el.appendChild(span);
    dom.extra = { span, text, className: '' };
  }
  if (dom.extra) {
    setText(dom.extra.text, extraText);
    if (dom.extra.className !== extraClass) {
      dom.extra.span.className = extraClass;
      dom.extra.className = extraClass;
    }
  }
  const className = `tx-cell${column.align === 'right' ? ' num' : ''}${column.pinned ? ` pinned-${column.pinned}` : ''}${column.id === 'status' ? ` status status-${row.status}` : ''}${cell.none ? ' none' : ''}${cell.uncertain ? ' uncertain' : ''}`;
  if (dom.className !== className) {
    el.className = className;
    dom.className = className;
  }
  if (dom.title !== cell.title) {
    if (cell.title === undefined) el.removeAttribute('title');
    else el.title = cell.title;
    dom.title = cell.title;
  }
}

/**
 * Writes one row element (its checkbox cell first, then a cell per column, as TransactionTable renders
 * them) for the row at `index` of the list.
 */
export function paintRow(el: HTMLElement, row: ListRow, index: number, input: PaintInput): void {
  let dom = rowsDom.get(el);
  if (!dom) {
    dom = { transactionNo: undefined, index: -1, className: '', selected: undefined, id: undefined };
    rowsDom.set(el, dom);
  }
  const no = row.transactionNo;
  const box = el.firstElementChild?.firstElementChild as HTMLInputElement | null | undefined;
  if (dom.transactionNo !== no) {
    el.setAttribute('data-transaction-no', no);
    box?.setAttribute('aria-label', `Select ${no}`);
    dom.transactionNo = no;
  }
  if (dom.index !== index) {
    el.setAttribute('aria-rowindex', String(index + 2));
    dom.index = index;
  }
  const active = no === input.activeNo;
  // Only the active row needs an id (the grid's aria-activedescendant names it): one attribute fewer
  // written per row per frame.
  const id = active ? rowDomId(no) : undefined;
  if (dom.id !== id) {
    if (id === undefined) el.removeAttribute('id');
    else el.id = id;
    dom.id = id;
  }
  const className = `tx-row${active ? ' active' : ''}${index % 2 ? ' odd' : ''}`;
  if (dom.className !== className) {
    el.className = className;
    dom.className = className;
  }
  const selected = input.selected.has(no);
  if (dom.selected !== selected) {
    el.setAttribute('aria-selected', String(selected));
    dom.selected = selected;
  }
  // Read back rather than cached: a click toggles the box itself before the table hears of it.
  if (box && box.checked !== selected) box.checked = selected;
  const uncertain = input.uncertain?.has(no) ? uncertainFor(row, input.uncertain) : undefined;
  const { columns, format } = input;
  let cell = el.firstElementChild?.nextElementSibling as HTMLElement | null | undefined;
  for (let c = 0; c < columns.length && cell; c += 1) {
    const column = columns[c]!;
    paintCell(cell, column, row, column.display(row, format, uncertain));
    cell = cell.nextElementSibling as HTMLElement | null;
  }
}
