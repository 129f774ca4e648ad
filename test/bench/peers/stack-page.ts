/**
 * The cold start's second reference (cold-start.bench.ts): the renderer packages the product fixes
 * (react, @tanstack/react-query, @tanstack/react-table, dexie), each doing for a page what the first
 * screen needs of it, and nothing of the app — no host core, no shell, no IPC. It opens a fresh
 * IndexedDB database with the cache's indexes, reads the newest rows of a profile through a query, builds
 * the table model over them and renders the search box with the rows or the empty state. Bundled and
 * minified for production as the floor is, served the same way: how much of the cold start's ratio the
 * fixed packages alone take on this machine, measured in the same run.
 */
import { writeBundledPage } from './bundled-page';

/** The page's module: plain JS (createElement, no JSX), as the floor's. */
const SOURCE = `
import { createRoot } from 'react-dom/client';
import { createElement, useState } from 'react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import Dexie from 'dexie';
const db = new Dexie('stack-page');
db.version(1).stores({
  transactions: '[profileId+transactionNo], [profileId+reference], [profileId+createdAt], [profileId+fetchedAt], profileId',
  meta: 'key',
});
const client = new QueryClient();
const columns = [
  { accessorKey: 'transactionNo', header: 'Transaction' },
  { accessorKey: 'amountMinor', header: 'Amount' },
  { accessorKey: 'status', header: 'Status' },
];
const newest = () => db.table('transactions').where('[profileId+createdAt]')
  .between(['demo', Dexie.minKey], ['demo', Dexie.maxKey]).reverse().limit(50).toArray();
function List() {
  const [q, setQ] = useState('');
  const rows = useQuery({ queryKey: ['rows'], queryFn: newest });
  const table = useReactTable({ data: rows.data ?? [], columns, getCoreRowModel: getCoreRowModel() });
  const body = rows.data === undefined ? null : rows.data.length === 0
    ? createElement('p', { 'data-testid': 'tx-empty' }, 'Nothing cached yet')
    : table.getRowModel().rows.map((r) => createElement('div', { key: r.id, 'data-testid': 'tx-row' }, r.getValue('transactionNo')));
  return createElement('main', null,
    createElement('input', { 'data-testid': 'tx-search', value: q, onChange: (e) => setQ(e.target.value) }),
    body);
}
createRoot(document.getElementById('root')).render(
  createElement(QueryClientProvider, { client }, createElement(List)));
`;

/** Writes the page (index.html, app.js) into `dir`. */
export function buildStackPage(dir: string): Promise<void> {
  return writeBundledPage(dir, SOURCE, 'Stack');
}
