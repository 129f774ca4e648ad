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
