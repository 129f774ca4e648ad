// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadExport } from '../../../../renderer/src/lib/download';
import { type ExportWorker, exportFailure, runExportJob } from '../../../../renderer/src/lib/export-job';
import type { ExportMessage, ExportReply } from '../../../../renderer/src/lib/export-work';
import { ExportButtons } from '../../../../renderer/src/lib/ui/ExportButtons';
import type { CsvColumn } from '../../../../shared/csv/writer';
import { UTC_ZONE } from '../../../../shared/domain/zones';

afterEach(cleanup);

/** A worker that takes the rows and answers only when told, so the job stays visibly running. */
function heldWorker() {
  const received: ExportMessage['type'][] = [];
  let onMessage: (e: { data: ExportReply }) => void = () => {};
  const state = { terminated: false };
  const worker: ExportWorker = {
    postMessage: (msg) => void received.push(msg.type),
    addEventListener: (type: 'message' | 'error', fn: never) => {
      if (type === 'message') onMessage = fn;
    },
    terminate: () => {
      state.terminated = true;
    },
  };
  return { worker, received, state, reply: (data: ExportReply) => onMessage({ data }) };
}

const columns: CsvColumn<{ n: number }>[] = [{ header: 'N', kind: 'integer', value: (r) => r.n }];
const rows = Array.from({ length: 10 }, (_, n) => ({ n }));
/** An export of those rows as a screen asks for one. */
const request = {
  area: 'transactions',
  profileName: 'Demo',
  sheetName: 'N',
  columns,
  rows,
  zone: UTC_ZONE,
  excelDateFormat: 'yyyy-mm-dd hh:mm',
};

describe('export buttons', () => {
  it('show the running export where it was started, with progress and Cancel; the others wait', async () => {
    const held = heldWorker();
    const results: Array<Promise<Blob | null>> = [];
    const start = (kind: 'csv' | 'xlsx') =>
      results.push(
        runExportJob(kind, columns, rows, { csv: {}, xlsx: { sheetName: 'N' } }, () => held.worker),
      );
    render(
      <>
        <ExportButtons onExport={start} csvLabel="Report CSV" xlsxLabel="Report Excel" />
        <ExportButtons onExport={start} csvLabel="Summary CSV" xlsxLabel="Summary Excel" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Report Excel' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toMatch(/^Writing Excel… \d+% · /);
    expect(screen.getAllByRole('status')).toHaveLength(1);
    for (const name of ['Report CSV', 'Report Excel', 'Summary CSV', 'Summary Excel'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled, name).toBe(true);

    await waitFor(() => expect(held.received).toContain('end'));
    // Progress is the share of rows the worker has written into the file (the rest is its end).
    held.reply({ type: 'progress', written: 5, total: 10 });
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/ 49% · /));

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(results[0]).resolves.toBeNull();
    expect(held.state.terminated).toBe(true);
    expect(screen.queryByRole('status')).toBeNull();
    expect((screen.getByRole('button', { name: 'Summary CSV' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('say why an export was not written, from a button or the palette alike, until dismissed', async () => {
    // jsdom has no Worker: the export worker cannot start, as when a page cannot create one.
    render(<ExportButtons onExport={(kind) => void downloadExport(kind, request)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export Excel' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /^The Excel export was not written: this window could not start its export worker\. Try again; if it fails again, restart/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    // A second export while one is running (the palette can start one) is refused in words, not thrown.
    const held = heldWorker();
    const running = runExportJob(
      'csv',
      columns,
      rows,
      { csv: {}, xlsx: { sheetName: 'N' } },
      () => held.worker,
    );
    await expect(downloadExport('csv', request)).resolves.toBeUndefined();
    expect(exportFailure.snapshot()).toMatch(/^Another export is still being written\./);
    await waitFor(() => expect(held.received).toContain('end'));
    held.reply({ type: 'done', file: new Blob([new Uint8Array([1])]) });
    await expect(running.then(async (f) => new Uint8Array(await f!.arrayBuffer()))).resolves.toEqual(
      new Uint8Array([1]),
    );
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringMatching(/^Another export/),
    );
  });

  it('say why once on a screen of several groups: in the group that started it, else the first', async () => {
    const start = (kind: 'csv' | 'xlsx') => void downloadExport(kind, request);
    const { container, rerender } = render(
      <>
        <ExportButtons onExport={start} csvLabel="Report CSV" xlsxLabel="Report Excel" className="g1" />
        <ExportButtons onExport={start} csvLabel="Summary CSV" xlsxLabel="Summary Excel" className="g2" />
        <ExportButtons onExport={start} csvLabel="Refunds CSV" xlsxLabel="Refunds Excel" className="g3" />
      </>,
    );
    // jsdom has no Worker, so every export fails to start.
    await userEvent.click(screen.getByRole('button', { name: 'Summary Excel' }));
    await screen.findByRole('alert');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(container.querySelector('.g2 [role="alert"]')).not.toBeNull();

    // Started elsewhere (the command palette): the first group on screen says it.
    await downloadExport('csv', request);
    await waitFor(() => expect(container.querySelector('.g1 [role="alert"]')).not.toBeNull());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toMatch(/^The CSV export was not written/);

    // The group that started it has gone: the words stay, with the first group still on screen.
    await userEvent.click(screen.getByRole('button', { name: 'Refunds CSV' }));
    await waitFor(() => expect(container.querySelector('.g3 [role="alert"]')).not.toBeNull());
    rerender(
      <>
        <ExportButtons onExport={start} csvLabel="Report CSV" xlsxLabel="Report Excel" className="g1" />
        <ExportButtons onExport={start} csvLabel="Summary CSV" xlsxLabel="Summary Excel" className="g2" />
      </>,
    );
    await waitFor(() => expect(container.querySelector('.g1 [role="alert"]')).not.toBeNull());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
