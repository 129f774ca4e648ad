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

type Shape = 'text' | 'none' | 'uncertain' | 'unit';

/** A cell's children for one shape: made once per cell and shape, then reused. */
interface ShapeDom {
  nodes: Node[];
  text: Text;
  /** The second text: the uncertain note, or the unit (absent for plain text and for none). */
  extra: Text | undefined;
}

/** A cell's current content, kept beside its element so a paint only writes what changed. */
interface CellDom {
  shape: Shape;
  shapes: Partial<Record<Shape, ShapeDom>>;
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

const shapeOf = (cell: CellText): Shape =>
  cell.none ? 'none' : cell.uncertain ? 'uncertain' : cell.unit ? 'unit' : 'text';

/**
 * A cell's children for a shape (as the list always drew them): "—" hidden from screen readers with
 * "none" for them; an uncertain amount with its reason in words; an amount with its smaller unit.
 */
function build(doc: Document, shape: Shape): ShapeDom {
  const span = (child: Node, className?: string) => {
    const s = doc.createElement('span');
    if (className) s.className = className;
    s.appendChild(child);
    return s;
  };
  if (shape === 'none') {
    const dash = span(doc.createTextNode('—'));
    dash.setAttribute('aria-hidden', 'true');
    const text = doc.createTextNode('none');
    return { nodes: [dash, span(text, 'sr-only')], text, extra: undefined };
  }
  const text = doc.createTextNode('');
  if (shape === 'text') return { nodes: [text], text, extra: undefined };
  const extra = doc.createTextNode('');
  return { nodes: [text, span(extra, shape === 'unit' ? 'unit' : 'sr-only')], text, extra };
}

const setText = (node: Text, value: string) => {
  if (node.data !== value) node.data = value;
};

/**
 * Writes one cell: its classes, tooltip and content. A column's cells change shape as rows scroll by
 * (a paid time, then a failed payment's "none"): each shape's nodes are made once per cell and swapped
 * in, not made again on every frame.
 */
export function paintCell(el: HTMLElement, column: ColumnSpec, row: ListRow, cell: CellText): void {
  const shape = shapeOf(cell);
  let dom = cells.get(el);
  if (!dom) {
    dom = { shape, shapes: {}, className: '', title: undefined };
    cells.set(el, dom);
    el.textContent = '';
    dom.shapes[shape] = build(el.ownerDocument, shape);
    el.append(...dom.shapes[shape].nodes);
  } else if (dom.shape !== shape) {
    dom.shapes[shape] ??= build(el.ownerDocument, shape);
    el.replaceChildren(...dom.shapes[shape].nodes);
    dom.shape = shape;
  }
  const nodes = dom.shapes[shape]!;
  if (shape === 'unit') setText(nodes.extra!, ` ${cell.unit ?? ''}`);
  else if (shape === 'uncertain') setText(nodes.extra!, ` (uncertain: ${cell.title ?? ''})`);
  if (shape !== 'none') setText(nodes.text, cell.text);
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
