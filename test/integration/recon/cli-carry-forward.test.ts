/**
 * `cli reconcile --carry-forward RUN_ID` over real HTTP: June is reconciled by the app's service into an
 * app database (three paid payments left out of the ledger); July's ledger books them late. The CLI's
 * July run carries June's outstanding exceptions, re-checks them against the sandbox and its ledger,
 * prints which cleared and why, and writes them after the run's rows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runReconcile } from '../../../electron/hosts/cli/commands/reconcile';
import { cliGateway } from '../../../electron/hosts/cli/connection';
import { chunked } from '../../../electron/hosts/cli/recon-run';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { prepareLedgerFile } from '../../../electron/core/services/reconciliation/pipeline';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import {
  DEMO_LEDGER_ANCHOR_MS,
  DEMO_LEDGER_COUNT,
  DEMO_LEDGER_SEED,
  buildDemoLedger,
} from '../../../electron/core/demo-ledger';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { parseCsvText } from '../../../shared/csv/parser';
import { formatMinor } from '../../../shared/domain/money';

const LEDGER = resolve(import.meta.dirname, '../../../resources/demo-ledger.csv');
const log = { info() {}, warn() {}, error() {} };

describe('cli reconcile --carry-forward', () => {
  let sb: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    const t0 = Date.now();
    sb = await startSandbox({
      seed: DEMO_LEDGER_SEED,
      transactions: DEMO_LEDGER_COUNT,
      refundSettleMs: 20,
      now: () => DEMO_LEDGER_ANCHOR_MS + (Date.now() - t0),
    });
    dir = mkdtempSync(join(tmpdir(), 'rd-carry-'));
  });
  afterAll(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries June’s open exceptions into July, says which cleared and why; bad ids exit 2', async () => {
    const demo = buildDemoLedger();
    const text = readFileSync(LEDGER, 'utf8');
    const parsed = parseCsvText(text);
    const [no, amount, currency] = ['Transaction No', 'Amount', 'Currency'].map((h) =>
      parsed.headers.indexOf(h),
    ) as [number, number, number];
    const lines = text.replace(/^\uFEFF/, '').split('\n');
    // Three payments paid on June's last day, left out of June's ledger and booked on July 1st.
    const late = parsed.rows
      .filter((r) => {
        if (r.cells[0] !== demo.period.to) return false;
        const p = sb.state.payment(r.cells[no] ?? '');
        return (
          p &&
          p.status === 'success' &&
          p.refunds.length === 0 &&
          p.currency === r.cells[currency] &&
          formatMinor(p.amountMinor, p.currency) === (r.cells[amount] ?? '').replace(/,/g, '')
        );
      })
      .slice(0, 3);
    expect(late).toHaveLength(3);
    const lateNos = late.map((r) => r.cells[no]!);
    const june = lines.filter((l) => !lateNos.some((n) => l.includes(n))).join('\n');
    const july = [
      lines[0],
      ...late.map((r) => {
        const c = [...r.cells];
        c[0] = '2025-07-01';
        return c.map((x) => (x.includes(',') ? `"${x}"` : x)).join(',');
      }),
    ].join('\n');

    // June, by the app's own service, into an app database.
    const dataDir = join(dir, 'app');
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    const conn = {
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      token: DEMO_MERCHANT.token,
    };
    const io = { out: () => {}, err: () => {}, env: {} };
    const service = createReconciliationService({
      runs: storage.runs,
      closing: storage.closing,
      jobs: storage.jobs,
      clock: { now: Date.now },
      log,
      gatewayFor: () => cliGateway(conn, io),
      profile: () => ({ id: 'p1', name: 'Demo' }),
      onProgress: () => undefined,
      concurrency: 4,
    });
    const prepared = await prepareLedgerFile(new TextEncoder().encode(june), 'june.csv');
    const { runId } = service.create({
      label: 'June',
      profileId: 'p1',
      file: prepared.file,
      mapping: prepared.mapping,
      options: {
        days: 'service',
        timeZone: 'UTC',
        dateToleranceDays: 1,
        refundLookbackDays: 90,
        period: demo.period,
      },
    });
    for (const c of chunked(prepared.imported.rows)) service.addInput(runId, 'row', c);
    for (const c of chunked(prepared.imported.unusable)) service.addInput(runId, 'unusable', c);
    service.start(runId);
    await service.settled(runId);
    const juneOpen = (await service.exceptions.list(runId)).outstanding.length;
    expect(juneOpen).toBeGreaterThan(3);
    storage.close();

    const julyFile = join(dir, 'july.csv');
    writeFileSync(julyFile, july);
    const out: string[] = [];
    const err: string[] = [];
    const report = join(dir, 'july-report.csv');
    const args = [
      julyFile,
      '--base-url',
      sb.baseUrl,
      '--merchant',
      DEMO_MERCHANT.merchantNo,
      '--store',
      DEMO_MERCHANT.storeNo,
      '--from',
      '2025-07-01',
      '--to',
      '2025-07-31',
      '--out',
      report,
      '--quiet',
      '--data-dir',
      dataDir,
    ];
    const env = { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token };
    const code = await runReconcile([...args, '--carry-forward', runId], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env,
    });
    const said = out.join('\n');
    expect(said).toContain(
      `carried forward from ${runId}: ${juneOpen} exception(s), 3 cleared, ${juneOpen - 3} still open`,
    );
    for (const n of lateNos)
      expect(said).toMatch(
        new RegExp(`cleared: Paid at service, not in ledger ${n}: booked in this ledger at line \\d`),
      );
    // Still-open carried exceptions are differences.
    expect(code).toBe(EXIT.differences);
    const rep = parseCsvText(readFileSync(report, 'utf8'));
    const from = rep.headers.indexOf('Carried from run');
    const check = rep.headers.indexOf('Carry-forward check');
    const carriedRows = rep.rows.filter((r) => r.cells[from] === runId);
    expect(carriedRows).toHaveLength(juneOpen);
    expect(carriedRows.filter((r) => r.cells[check]?.startsWith('Cleared:'))).toHaveLength(3);

    // Not a run of that database, or not a later period: bad input, nothing sent.
    const bad = async (more: string[]) => {
      const e: string[] = [];
      const c = await runReconcile(more, { out: () => {}, err: (l) => e.push(l), env });
      return { c, e: e.join('\n') };
    };
    expect(await bad([...args, '--carry-forward', 'RCnope'])).toMatchObject({
      c: EXIT.badInput,
      e: /no run RCnope/,
    });
    const early = args.map((a) => (a === '2025-07-01' ? '2025-06-15' : a));
    expect(await bad([...early, '--carry-forward', runId])).toMatchObject({
      c: EXIT.badInput,
      e: /next period/,
    });
  });
});
