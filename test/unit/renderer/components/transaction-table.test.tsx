// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, useMemo, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statsOf } from '../../../../renderer/src/db/list-stats';
import { type ListRow, toListRow } from '../../../../renderer/src/db/list-row';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';
import { COLUMNS } from '../../../../renderer/src/features/transactions/columns';
import { TransactionTable } from '../../../../renderer/src/features/transactions/TransactionTable';
import { makeTx } from '../db/helpers';

afterEach(cleanup);

// jsdom lays nothing out: the grid is given a height (10 rows of 32 px) and a scroll position it keeps.
const GRID_HEIGHT = 320;
let restore: (() => void) | undefined;
beforeEach(() => {
  // Nor has it a canvas: column widths fall back to their minimum (as they do without one).
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = () => null;
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset['testid'] === 'tx-grid' ? GRID_HEIGHT : 0;
    },
  });
  restore = () => {
    HTMLCanvasElement.prototype.getContext = getContext;
    if (own) Object.defineProperty(HTMLElement.prototype, 'clientHeight', own);
  };
});
afterEach(() => restore?.());

/** 200 payments; every third failed (no paid time, nothing refundable: "none" cells). */
function makeRows(): ListRow[] {
  return Array.from({ length: 200 }, (_, i) =>
    toListRow({
      ...makeTx({
        amountMinor: 1000 + i,
        status: i % 3 === 2 ? 'failed' : 'success',
        ...(i % 3 === 2 ? {} : { paidAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() }),
      }),
      profileId: 'P-A',
      fetchedAt: '2025-02-01T00:00:00.000Z',
    }),
  );
}

function Harness({ rows, onCommit }: { rows: ListRow[]; onCommit: () => void }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [activeNo, setActiveNo] = useState<string | null>(null);
  const stats = useMemo(() => statsOf(rows), [rows]);
  return (
    // UTC, not the machine's zone: the fixtures are paid early on 1 January (UTC), which is still
    // 31 December west of Greenwich.
    <PrefsProvider initial={{ ...DEFAULT_PREFS, locale: 'en-US', zone: 'utc' }}>
      <Profiler id="table" onRender={onCommit}>
        <TransactionTable
          rows={rows}
          stats={stats}
          columns={COLUMNS}
          sorting={[]}
          onSort={() => {}}
          widths={{}}
          onWidths={() => {}}
          activeNo={activeNo}
          onActivate={setActiveNo}
          onOpen={() => {}}
          selected={selected}
          onToggle={(no) =>
            setSelected((s) => {
              const next = new Set(s);
              if (next.has(no)) next.delete(no);
              else next.add(no);
              return next;
            })
          }
          onToggleAll={() => {}}
        />
      </Profiler>
    </PrefsProvider>
  );
}

function scrollTo(grid: HTMLElement, row: number) {
  Object.defineProperty(grid, 'scrollTop', { configurable: true, writable: true, value: row * 32 });
  fireEvent.scroll(grid);
}

const shown = () =>
  screen.getAllByTestId('tx-row').map((r) => ({
    no: r.getAttribute('data-transaction-no'),
    index: Number(r.getAttribute('aria-rowindex')),
  }));

const cell = (row: Element, column: string) => row.querySelector<HTMLElement>(`[data-column="${column}"]`)!;

describe('the transactions grid', () => {
  it('scrolling shows the rows at the new offset without rendering the table again: the window is painted in place', () => {
    const rows = makeRows();
    let commits = 0;
    render(<Harness rows={rows} onCommit={() => (commits += 1)} />);
    const grid = screen.getByTestId('tx-grid');
    // 10 rows fit, 4 more on each side: 19 rows, from the top.
    expect(shown()).toEqual(rows.slice(0, 19).map((r, i) => ({ no: r.transactionNo, index: i + 2 })));
    const before = commits;

    scrollTo(grid, 100);
    // The rows from 4 above the first in view, each with its own texts.
    expect(shown()).toEqual(rows.slice(96, 115).map((r, i) => ({ no: r.transactionNo, index: 96 + i + 2 })));
    expect(commits).toBe(before);
    expect(grid.querySelector<HTMLElement>('.tx-window')!.style.transform).toBe(`translateY(${96 * 32}px)`);
    const els = screen.getAllByTestId('tx-row');
    for (const [i, el] of els.entries()) {
      const row = rows[96 + i]!;
      expect(cell(el, 'transactionNo').textContent).toBe(row.transactionNo);
      expect(cell(el, 'amount').textContent).toBe(`${(row.amountMinor / 100).toFixed(2)} USD`);
      expect(cell(el, 'amount').querySelector('.unit')?.textContent).toBe(' USD');
      expect(el.className).toBe(`tx-row${(96 + i) % 2 ? ' odd' : ''}`);
      expect(el.querySelector('input')?.getAttribute('aria-label')).toBe(`Select ${row.transactionNo}`);
      const paid = cell(el, 'paidAt');
      if (row.status === 'failed') {
        // A failed payment has no paid time: "none" for a screen reader (the stylesheet draws a dash
        // for the eye on .none cells).
        expect(paid.textContent).toBe('none');
        expect(paid.querySelector('.sr-only')?.textContent).toBe('none');
        expect(paid.className).toContain(' none');
        expect(paid.title).toBe('Not paid');
        expect(cell(el, 'status').className).toContain('status-failed');
      } else {
        expect(paid.textContent).toMatch(/^2025-01-01 \d\d:\d\d$/);
        expect(paid.querySelector('.sr-only')).toBeNull();
        expect(paid.className).not.toContain(' none');
        expect(paid.hasAttribute('title')).toBe(false);
        expect(cell(el, 'status').className).toContain('status-success');
      }
    }

    // Back up by one row: every place in the window changes rows (and cells change shape both ways).
    scrollTo(grid, 99);
    expect(shown()).toEqual(rows.slice(95, 114).map((r, i) => ({ no: r.transactionNo, index: 95 + i + 2 })));
    for (const [i, el] of screen.getAllByTestId('tx-row').entries()) {
      const failed = rows[95 + i]!.status === 'failed';
      expect(cell(el, 'paidAt').textContent === 'none').toBe(failed);
      expect(cell(el, 'remaining').textContent === 'none').toBe(failed);
      expect(cell(el, 'remaining').classList.contains('none')).toBe(failed);
    }
    // At the end the window stays 19 rows long and ends with the last row.
    scrollTo(grid, 195);
    expect(shown().at(-1)).toEqual({ no: rows[199]!.transactionNo, index: 201 });
    expect(shown()).toHaveLength(19);
    expect(commits).toBe(before);
  });

  it('selection and the active row follow the transaction, not its place in the window', async () => {
    const rows = makeRows();
    render(<Harness rows={rows} onCommit={() => {}} />);
    const grid = screen.getByTestId('tx-grid');
    const third = () => screen.getAllByTestId('tx-row')[2]!;

    const box = third().querySelector('input')!;
    await act(async () => box.click());
    expect(third().getAttribute('aria-selected')).toBe('true');
    expect(box.checked).toBe(true);
    await act(async () => third().click());
    expect(third().className).toContain('active');
    expect(grid.getAttribute('aria-activedescendant')).toBe(`tx-row-${rows[2]!.transactionNo}`);
    expect(third().id).toBe(`tx-row-${rows[2]!.transactionNo}`);

    // Scrolled away: the same elements show other rows, neither ticked nor active.
    scrollTo(grid, 50);
    expect(third().getAttribute('data-transaction-no')).toBe(rows[48]!.transactionNo);
    expect(third().getAttribute('aria-selected')).toBe('false');
    expect(third().querySelector('input')!.checked).toBe(false);
    expect(grid.querySelectorAll('.tx-row.active')).toHaveLength(0);
    expect(grid.querySelectorAll('[id^="tx-row-"]')).toHaveLength(0);
    expect(grid.hasAttribute('aria-activedescendant')).toBe(false);
    // Ticking a row here ticks that row's transaction.
    await act(async () => third().querySelector('input')!.click());
    expect(third().querySelector('input')!.checked).toBe(true);

    // Back at the top, the first ticked row is ticked and active again; the other is not in view.
    scrollTo(grid, 0);
    expect(third().getAttribute('aria-selected')).toBe('true');
    expect(third().querySelector('input')!.checked).toBe(true);
    expect(third().className).toContain('active');
    expect(grid.getAttribute('aria-activedescendant')).toBe(`tx-row-${rows[2]!.transactionNo}`);
    expect(grid.querySelectorAll('input:checked')).toHaveLength(1);
    // Unticking from the row's box.
    await act(async () => third().querySelector('input')!.click());
    expect(third().querySelector('input')!.checked).toBe(false);
    expect(third().getAttribute('aria-selected')).toBe('false');
  });

  it('new data for the rows in view is painted: a changed amount shows without a scroll', () => {
    const rows = makeRows();
    const { rerender } = render(<Harness rows={rows} onCommit={() => {}} />);
    const first = () => screen.getAllByTestId('tx-row')[0]!;
    expect(cell(first(), 'amount').textContent).toBe('10.00 USD');
    const changed = [{ ...rows[0]!, amountMinor: 123456, remainingMinor: 123456 }, ...rows.slice(1)];
    rerender(<Harness rows={changed} onCommit={() => {}} />);
    expect(cell(first(), 'amount').textContent).toBe('1,234.56 USD');
    expect(cell(first(), 'remaining').textContent).toBe('1,234.56');
  });
});
