/**
 * Browser-side code of the list bench (list.bench.ts), as source text: tsx would wrap real functions
 * in helpers the page lacks. The floor pages are served by Playwright (page.route) on the app's origin,
 * so they read the very IndexedDB the app wrote, and the app's host and build stay untouched.
 */

/**
 * Installed before the app loads: in ms since navigation start, when the workspace shell, the first
 * row, the complete count (every row counted, totals final) and the whole list (the grid no longer
 * aria-busy: every row read, sorted and shown) are painted — the next animation frame after the DOM
 * shows them — and the longest main-thread task that began before both the count was final and the
 * list was whole (longtask entries, ≥ 50 ms; an entry arrives after its task, so each is kept with its
 * start and the longest is taken when the marks are read). The app may know its count and totals
 * before its last row is read (a summary of the last complete read): loading is over only when both are.
 */
export const MARKS = (rows: number) => `(() => {
  const tasks = [];
  const marks = (window.__rdMarks = {
    get longest() {
      const until = marks.counted > 0 && marks.loaded > 0 ? Math.max(marks.counted, marks.loaded) : Infinity;
      return tasks.reduce((m, t) => (t.start < until ? Math.max(m, t.duration) : m), 0);
    },
  });
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const at = (key) => { marks[key] = -1; requestAnimationFrame(() => { marks[key] = performance.now(); }); };
  const check = () => {
    if (marks.shell === undefined && document.querySelector('[data-testid="transactions"]')) at('shell');
    if (marks.firstRow === undefined && document.querySelector('[data-testid="tx-row"]')) at('firstRow');
    if (marks.counted === undefined) {
      const count = document.querySelector('[data-testid="tx-count"]');
      const busy = document.querySelector('[data-testid="tx-totals"][aria-busy="true"]');
      if (count && !busy && count.textContent.replace(/\\D/g, '') === '${rows}') at('counted');
    }
    if (marks.loaded === undefined && document.querySelector('[data-testid="tx-grid"][aria-busy="false"]')) at('loaded');
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

/** Types into the filter box as one edit; ms until the changed count is painted. */
export const FILTER = `async (text) => {
  const input = document.querySelector('input[aria-label="Filter by id or reference"]');
  const before = document.querySelector('[data-testid="tx-count"]')?.textContent;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const t0 = performance.now();
  const changed = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('the count did not change')), 120000);
    const o = new MutationObserver(() => {
      const now = document.querySelector('[data-testid="tx-count"]')?.textContent;
      if (now !== undefined && now !== before) { o.disconnect(); clearTimeout(timer); res(null); }
    });
    o.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  set.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await changed;
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  return performance.now() - t0;
}`;

/**
 * Clicks a column's sort button; ms until the header says the new order and the first rendered row has
 * changed, painted. Returns the aria-sort it ended with.
 */
export const SORT = `async (column) => {
  const head = document.querySelector('[role="columnheader"][data-column="' + column + '"]');
  const button = head.querySelector('button.sort');
  const was = head.getAttribute('aria-sort');
  const firstRow = () => document.querySelector('[data-testid="tx-row"]')?.textContent;
  const before = firstRow();
  const t0 = performance.now();
  const done = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('the sort did not show')), 120000);
    const check = () => {
      if (head.getAttribute('aria-sort') !== was && firstRow() !== before) { o.disconnect(); clearTimeout(timer); res(null); return true; }
      return false;
    };
    const o = new MutationObserver(check);
    o.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  button.click();
  await done;
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  return { ms: performance.now() - t0, sort: head.getAttribute('aria-sort') };
}`;

/** Clicks a column's sort button until the column is not sorted (each click waits for the header). */
export const UNSORT = `async (column) => {
  const head = () => document.querySelector('[role="columnheader"][data-column="' + column + '"]');
  for (let i = 0; i < 3 && head().getAttribute('aria-sort') !== 'none'; i += 1) {
    const was = head().getAttribute('aria-sort');
    head().querySelector('button.sort').click();
    const until = performance.now() + 120000;
    while (head().getAttribute('aria-sort') === was && performance.now() < until)
      await new Promise((r) => setTimeout(r, 20));
  }
  return head().getAttribute('aria-sort');
}`;

/**
 * Scrolls `selector` 900 px a frame for `frames` frames, marking each frame's start in the trace
 * (performance.mark 'rd-frame'), from the top.
 */
export const SCROLL = `async ({ selector, frames }) => {
  const grid = document.querySelector(selector);
  grid.scrollTop = 0;
  for (let i = 0; i < 3; i += 1) await new Promise((r) => requestAnimationFrame(() => r(null)));
  for (let i = 0; i < frames; i += 1) {
    performance.mark('rd-frame');
    grid.scrollTop += 900;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
  }
  performance.mark('rd-frame');
  return document.querySelectorAll(selector + ' [data-row]').length || document.querySelectorAll('[data-testid="tx-row"]').length;
}`;

const openDb = `
function openDb() {
  return new Promise((res, rej) => {
    const open = indexedDB.open('refund-desk');
    open.onsuccess = () => res(open.result);
    open.onerror = () => rej(open.error);
  });
}`;

/**
 * The floor of the first rows: a fresh page of the app's origin that opens the database and reads one
 * screen (25 rows) of the profile's rows through the profileId index, stamped in ms since navigation
 * start; then (for the longest-task floor) the plain getAll() of all of them, with the longest task
 * that made.
 */
export const floorPage = (profileId: string, screen: number) => `<!doctype html><meta charset="utf-8"><script>
${openDb}
const out = (window.__rdFloor = { longest: 0 });
new PerformanceObserver((l) => { for (const e of l.getEntries()) out.longest = Math.max(out.longest, e.duration); }).observe({ type: 'longtask', buffered: true });
openDb().then((db) => {
  const index = db.transaction('transactions', 'readonly').objectStore('transactions').index('profileId');
  const first = index.getAll(${JSON.stringify(profileId)}, ${screen});
  first.onsuccess = () => {
    out.firstRows = performance.now();
    out.firstN = first.result.length;
    const all = db.transaction('transactions', 'readonly').objectStore('transactions').index('profileId').getAll(${JSON.stringify(profileId)});
    all.onsuccess = () => {
      out.all = performance.now();
      out.n = all.result.length;
      window.__rdRows = all.result;
      setTimeout(() => { out.done = true; }, 200);
    };
    all.onerror = () => { out.error = String(all.error); };
  };
  first.onerror = () => { out.error = String(first.error); };
}, (e) => { out.error = String(e); });
</script>`;

/**
 * The floor of scrolling: a plain virtual list of the same rows — a scroller, one block of 25 rows
 * translated as one (as the app's grid does), each row 15 cells whose text is set from the row's
 * fields — and nothing else: no framework, no formatting beyond String().
 */
export const plainListPage = (
  profileId: string,
  rowHeight: number,
  height: number,
) => `<!doctype html><meta charset="utf-8">
<style>
  body { margin: 0; font: 13px system-ui, sans-serif; }
  #grid { height: ${height}px; overflow: auto; position: relative; }
  #win { position: absolute; top: 0; left: 0; will-change: transform; }
  .r { display: flex; height: ${rowHeight}px; align-items: center; white-space: nowrap; }
  .c { width: 140px; overflow: hidden; text-overflow: ellipsis; padding: 0 6px; flex: none; }
</style>
<div id="grid"><div id="body"><div id="win"></div></div></div>
<script>
${openDb}
const FIELDS = ['transactionNo', 'reference', 'createdAt', 'paidAt', 'status', 'status', 'refunded', 'vendor', 'vendor', 'settleCurrency', 'fetchedAt', 'amountMinor', 'currency', 'refundedMinor', 'remainingMinor'];
const ROWS = 25;
openDb().then((db) => {
  const req = db.transaction('transactions', 'readonly').objectStore('transactions').index('profileId').getAll(${JSON.stringify(profileId)});
  req.onsuccess = () => {
    const rows = req.result;
    const grid = document.getElementById('grid');
    document.getElementById('body').style.height = rows.length * ${rowHeight} + 'px';
    const win = document.getElementById('win');
    const cells = [];
    for (let i = 0; i < ROWS; i += 1) {
      const r = document.createElement('div');
      r.className = 'r';
      r.dataset.row = '';
      const row = [];
      for (const f of FIELDS) { const c = document.createElement('span'); c.className = 'c'; r.appendChild(c); row.push(c); }
      win.appendChild(r);
      cells.push(row);
    }
    let first = -1;
    const paint = () => {
      const top = Math.min(rows.length - ROWS, Math.max(0, Math.floor(grid.scrollTop / ${rowHeight})));
      if (top === first) return;
      first = top;
      win.style.transform = 'translateY(' + top * ${rowHeight} + 'px)';
      for (let i = 0; i < ROWS; i += 1) {
        const row = rows[top + i];
        for (let j = 0; j < FIELDS.length; j += 1) cells[i][j].textContent = row ? String(row[FIELDS[j]] ?? '') : '';
      }
    };
    grid.addEventListener('scroll', paint, { passive: true });
    paint();
    window.__rdPlain = { rows: rows.length };
  };
});
</script>`;
