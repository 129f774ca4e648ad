// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { MappingStep } from '../../../../renderer/src/features/reconciliation/MappingStep';
import { createLedgerHandler } from '../../../../renderer/src/features/reconciliation/ledger-handler';
import type {
  FromLedgerWorker,
  ToLedgerWorker,
} from '../../../../renderer/src/features/reconciliation/ledger-protocol';
import { type LedgerPort, openLedger } from '../../../../renderer/src/features/reconciliation/parse-client';
import type { ImportedLedger } from '../../../../renderer/src/features/reconciliation/use-recon-run';

const closers: Array<() => void> = [];
afterEach(() => {
  cleanup();
  for (const c of closers.splice(0)) c();
});

/** The worker's handler behind a real MessageChannel; its answer to "rows" waits until released. */
function heldRowsPort() {
  const { port1: page, port2: worker } = new MessageChannel();
  const handler = createLedgerHandler({
    post: (m) => worker.postMessage(m),
    later: (fn) => setTimeout(fn, 0),
  });
  const held: ToLedgerWorker[] = [];
  worker.on('message', (m: ToLedgerWorker) => (m.kind === 'rows' ? held.push(m) : handler.onMessage(m)));
  const port: LedgerPort = {
    post: (m, transfer) => page.postMessage(m, transfer as never),
    listen: (onMessage) => void page.on('message', (m: FromLedgerWorker) => onMessage(m)),
    terminate: () => {
      page.close();
      worker.close();
    },
  };
  closers.push(() => port.terminate());
  return { port, release: () => held.splice(0).forEach((m) => handler.onMessage(m)), held };
}

describe('mapping step', () => {
  it('says the rows are being prepared while they come over from the worker, then starts the run', async () => {
    const lines = ['Transaction No,Amount,Currency,Date'];
    for (let i = 0; i < 40; i += 1)
      lines.push(`${3_000_000_000 + i},${i + 1}.00,USD,2025-03-${(i % 28) + 1}`);
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`).buffer as ArrayBuffer;
    const { port, release, held } = heldRowsPort();
    const ledger = await openLedger(bytes, port);
    const runs: ImportedLedger[] = [];
    render(
      <PrefsProvider>
        <MappingStep
          ledger={ledger}
          label="march.csv"
          profileId="P-A"
          initial={{ transactionNo: 'Transaction No', amount: 'Amount', currency: 'Currency', date: 'Date' }}
          onBack={() => {}}
          onRun={(l) => runs.push(l)}
        />
      </PrefsProvider>,
    );
    const check = await screen.findByRole('button', { name: 'Check 40 rows against the service' });
    await waitFor(() => expect((check as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByTestId('recon-handing-over')).toBeNull();

    await userEvent.click(check);
    await waitFor(() => expect(held).toHaveLength(1));
    expect(screen.getByTestId('recon-handing-over').textContent).toBe('Preparing 40 rows for the run…');
    expect((check as HTMLButtonElement).disabled).toBe(true);

    release();
    await waitFor(() => expect(runs).toHaveLength(1));
    expect(runs[0]?.rows).toHaveLength(40);
    await waitFor(() => expect(screen.queryByTestId('recon-handing-over')).toBeNull());
  });
});

describe('mapping step: what the walkthrough missed (issue 28)', () => {
  /** The walkthrough's file: all 30 ids shortened by Excel, an intact Order ID. */
  const shortened = () => {
    const lines = ['Transaction No,Order ID,Amount,Currency,Date'];
    for (let i = 0; i < 30; i += 1) lines.push(`6.2393E+17,SO-${100 + i},12.30,USD,2025-03-${(i % 28) + 1}`);
    lines.push('297553638300708562,SO-200,n/a,USD,2025-03-01');
    return new TextEncoder().encode(`${lines.join('\n')}\n`).buffer as ArrayBuffer;
  };

  const renderStep = async (initial: Record<string, string>, remembered: boolean) => {
    const { port } = heldRowsPort();
    const ledger = await openLedger(shortened(), port);
    render(
      <PrefsProvider>
        <MappingStep
          ledger={ledger}
          label="november.csv"
          profileId="P-A"
          initial={initial}
          remembered={remembered}
          onBack={() => {}}
          onRun={() => {}}
        />
      </PrefsProvider>,
    );
  };

  it('rows with a shortened id are checked by reference, said once with their lines; the list takes the keyboard', async () => {
    await renderStep(
      {
        transactionNo: 'Transaction No',
        reference: 'Order ID',
        amount: 'Amount',
        currency: 'Currency',
        date: 'Date',
      },
      false,
    );
    await waitFor(() =>
      expect(screen.getByTestId('recon-row-accounting').textContent).toContain(
        '31 data rows: 30 read · 1 cannot be used',
      ),
    );
    const notes = screen.getByTestId('recon-key-notes');
    expect(notes.textContent).toContain('30 rows are checked by reference');
    expect(notes.textContent).toContain(
      'Lines 2–31 (30 rows): Transaction No “6.2393E+17” looks shortened by Excel (scientific notation): its last digits are lost: matched by Order ID instead',
    );
    expect(notes.querySelectorAll('li')).toHaveLength(1);
    // The scrolling list is a region in the tab order (axe: scrollable-region-focusable).
    const list = screen.getByRole('region', { name: 'Rows that cannot be used' });
    expect(list.tabIndex).toBe(0);
    expect(list.textContent).toContain('Line 32: amount: “n/a” is not an amount');
    await userEvent.tab();
    for (let i = 0; i < 20 && document.activeElement !== list; i += 1) await userEvent.tab();
    expect(document.activeElement).toBe(list);
  });

  it('a remembered mapping that leaves out the Transaction No column is pointed out, with a way to use it', async () => {
    await renderStep({ reference: 'Order ID', amount: 'Amount', currency: 'Currency', date: 'Date' }, true);
    const notice = await screen.findByTestId('recon-omitted');
    expect(notice.textContent).toContain(
      'The columns remembered from an earlier file leave out “Transaction No”, which looks like the transaction number column.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use “Transaction No”' }));
    expect((screen.getByLabelText('Transaction number') as HTMLSelectElement).value).toBe('Transaction No');
    await waitFor(() => expect(screen.queryByTestId('recon-omitted')).toBeNull());
  });
});
