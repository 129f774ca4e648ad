import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import { reportCsv } from '../../../shared/recon/export';
import type { LedgerRow, UnusableRow } from '../../../shared/recon/ledger';
import type { ReconOptions } from '../../../shared/recon/period';
import type { LedgerFileInfo } from '../../../shared/recon/run';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import type { QueryKey } from '../../../electron/core/services/gateway/client';
import {
  createReconciliationService,
  type ViewProgress,
} from '../../../electron/core/services/reconciliation/service';
import { tx } from './fixtures';

const log = { info() {}, warn() {}, error() {} };
const clock = { now: () => Date.now() };
const UTC8 = 8 * 3_600_000;
const at = (day: string, hour = 12) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - UTC8 + hour * 3_600_000).toISOString();

/**
 * A service whose answers the test controls: `payments` answer tran-query (by number or reference) and
 * the period's list (by creation time, UTC+8 days); unknown numbers are not found.
 */
function fakeService(
  payments: Transaction[],
  opts: {
    fail?: (no: string) => AppError | undefined;
    listFails?: () => AppError | undefined;
    delayMs?: number;
  } = {},
) {
  const queried: string[] = [];
  const listed: string[] = [];
  return {
    queried,
    listed,
    async queryTransaction(key: QueryKey, o: { signal?: AbortSignal } = {}) {
      const k = 'transactionNo' in key ? key.transactionNo : 'reference' in key ? key.reference : '';
      queried.push(k);
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
      if (o.signal?.aborted) throw new AppError('cancelled', 'cancelled');
      const err = opts.fail?.(k);
      if (err) throw err;
      const p = payments.find((x) => x.transactionNo === k || x.reference === k);
      if (!p) throw new AppError('not_found', 'no such payment');
      return { transaction: p };
    },
    async listTransactions(range: { startMs: number; endMs: number }) {
      listed.push(new Date(range.startMs + UTC8).toISOString().slice(0, 10));
      const err = opts.listFails?.();
      if (err) throw err;
      return payments.filter((p) => {
        const ms = Date.parse(p.createdAt ?? '');
        return ms >= range.startMs && ms < range.endMs + 86_400_000;
      });
    },
  };
}

const file = (dataRows: number): LedgerFileInfo => ({
  name: 'ledger.csv',
  encoding: 'utf-8',
  delimiter: ',',
  dataRows,
  decimal: '.',
  decimalSource: 'detected',
  dateOrder: 'ymd',
  dateOrderSource: 'detected',
});
const options = (more: Partial<ReconOptions> = {}): ReconOptions => ({
  days: 'service',
  timeZone: 'UTC',
  dateToleranceDays: 1,
  refundLookbackDays: 30,
  ...more,
});
const row = (line: number, transactionNo: string, amountMinor = 100, day = '2025-06-10'): LedgerRow => ({
  line,
  transactionNo,
  amountMinor,
  currency: 'USD' as const,
  status: 'paid',
  date: day,
  day,
});

describe('reconciliation runs (main)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function setup(gateway: ReturnType<typeof fakeService>, more: { concurrency?: number } = {}) {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-recon-run-'));
    dirs.push(dataDir);
    return open(dataDir, gateway, more);
  }
  function open(
    dataDir: string,
    gateway: ReturnType<typeof fakeService>,
    more: { concurrency?: number } = {},
  ) {
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    const events: Array<{ runId: string } & ViewProgress> = [];
    const service = createReconciliationService({
      runs: storage.runs,
      closing: storage.closing,
      jobs: storage.jobs,
      clock,
      log,
      gatewayFor: () => gateway,
      profile: (id) =>
        id === 'gone' ? undefined : { id: id ?? 'p1', name: id === 'p2' ? 'Second' : 'Main' },
      onProgress: (runId, p) => events.push({ runId, ...p }),
      ...more,
    });
    return { service, events, storage, dataDir };
  }
  /** Creates, hands over and starts a run as the renderer does. */
  function begin(
    service: ReturnType<typeof open>['service'],
    rows: LedgerRow[],
    more: {
      unusable?: UnusableRow[];
      options?: ReconOptions;
      cached?: Array<{ key: string; transaction: Transaction; fetchedAt: string }>;
      profileId?: string;
    } = {},
  ) {
    const unusable = more.unusable ?? [];
    const { runId } = service.create({
      label: 'ledger.csv',
      file: file(rows.length + unusable.length),
      mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy', date: 'Date' },
      options: more.options ?? options(),
      profileId: more.profileId ?? 'p1',
    });
    if (rows.length) service.addInput(runId, 'row', rows);
    if (unusable.length) service.addInput(runId, 'unusable', unusable);
    if (more.cached?.length) service.addInput(runId, 'cached', more.cached);
    return service.start(runId);
  }

  it('a run that ends before anyone listens is still read whole: get() and the stored report', async () => {
    // Every row from the cache: the run ends at once (the defect: the screen waited for ever).
    const payments = [tx('100001', 100, 'USD', { paidAt: at('2025-06-10') }), tx('100002', 200)];
    const gw = fakeService(payments);
    const { service } = setup(gw);
    const cached = payments.map((p) => ({
      key: `tx:${p.transactionNo}`,
      transaction: p,
      fetchedAt: at('2025-06-11'),
    }));
    const run = begin(service, [row(2, '100001'), row(3, '100002', 200)], { cached });
    await service.settled(run.runId);
    expect(service.get(run.runId).progress).toMatchObject({ state: 'completed', phase: 'done' });
    expect(gw.queried).toEqual([]);
    const report = service.report(run.runId);
    expect(report.summary.counts.matched).toBe(2);
    expect(report.facts).toMatchObject({ usedCache: true, offline: false, sources: { cache: 2 } });
    expect(report.statement.join(' ')).toMatch(/2 from data fetched earlier/);
    const items = service.items(run.runId, 0, 10).items;
    expect(items.map((i) => i.service?.source)).toEqual(['cache', 'cache']);
    expect(items[0]?.service?.fetchedAt).toBe(at('2025-06-11'));
  });

  it('re-opening shows exactly the stored record, cache-satisfied rows included, after a restart', async () => {
    const payments = [tx('100001', 100), tx('100002', 250)];
    const gw = fakeService(payments);
    const a = setup(gw);
    const cached = [{ key: 'tx:100001', transaction: payments[0]!, fetchedAt: at('2025-06-11') }];
    const run = begin(a.service, [row(2, '100001'), row(3, '100002'), row(5, '999')], {
      cached,
      unusable: [{ line: 4, reason: 'has no currency', cause: 'currency' }],
    });
    await a.service.settled(run.runId);
    const first = { report: a.service.report(run.runId), items: a.service.items(run.runId, 0, 100).items };
    a.storage.close();
    const b = open(a.dataDir, fakeService([]));
    const again = { report: b.service.report(run.runId), items: b.service.items(run.runId, 0, 100).items };
    expect(again.report.summary).toEqual(first.report.summary);
    expect(again.report.statement).toEqual(first.report.statement);
    expect(reportCsv(again.items)).toBe(reportCsv(first.items));
    expect(first.items.map((i) => [i.line, i.outcome])).toEqual([
      [2, 'matched'],
      [3, 'amount_mismatch'],
      [4, 'unreadable'],
      [5, 'missing_at_service'],
    ]);
    b.storage.close();
  });

  it('pause, resume and cancel always end in a report of what was done', async () => {
    const gw = fakeService([], { delayMs: 5 });
    const { service, events } = setup(gw, { concurrency: 1 });
    const rows = Array.from({ length: 40 }, (_, i) => row(i + 2, `9${String(i).padStart(5, '0')}`));
    const run = begin(service, rows);
    await new Promise((r) => setTimeout(r, 30));
    expect(service.pause(run.runId).progress.state).toBe('paused');
    const asked = gw.queried.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(gw.queried.length).toBeLessThanOrEqual(asked + 1);
    service.resume(run.runId);
    await new Promise((r) => setTimeout(r, 20));
    service.cancel(run.runId);
    const end = await service.settled(run.runId);
    expect(end.progress).toMatchObject({ state: 'cancelled', phase: 'done' });
    const report = service.report(run.runId);
    expect(report.facts.endedAs).toBe('cancelled');
    expect(report.summary.rows).toBe(40);
    expect(report.summary.counts.missing_at_service + report.summary.counts.not_checked).toBe(40);
    expect(report.summary.counts.not_checked).toBeGreaterThan(0);
    expect(report.statement.join(' ')).toMatch(/cancelled/);
    expect(events.at(-1)).toMatchObject({ runId: run.runId, state: 'cancelled', phase: 'done' });
  });

  it('a run interrupted by a restart comes back paused; resume finishes it asking only what is left, cancel reports it', async () => {
    const gw1 = fakeService([], { delayMs: 4 });
    const a = setup(gw1, { concurrency: 2 });
    const rows = Array.from({ length: 60 }, (_, i) => row(i + 2, `9${String(i).padStart(5, '0')}`));
    const run = begin(a.service, rows);
    await new Promise((r) => setTimeout(r, 30));
    a.service.pause(run.runId);
    await a.service.close();
    await new Promise((r) => setTimeout(r, 20));
    const before = gw1.queried.length;
    a.storage.close();

    const gw2 = fakeService([]);
    const b = open(a.dataDir, gw2);
    expect(b.service.list('p1')[0]).toMatchObject({ runId: run.runId, progress: { state: 'paused' } });
    b.service.resume(run.runId);
    const end = await b.service.settled(run.runId);
    expect(end.progress.state).toBe('completed');
    expect(gw2.queried.length).toBeLessThanOrEqual(60 - before + 2);
    expect(b.service.report(run.runId).summary.counts.missing_at_service).toBe(60);
    b.storage.close();

    // A paused run that is cancelled without resuming still gets its report.
    const c = setup(fakeService([], { delayMs: 4 }), { concurrency: 1 });
    const r2 = begin(c.service, rows.slice(0, 20));
    await new Promise((r) => setTimeout(r, 15));
    c.service.pause(r2.runId);
    await c.service.close();
    c.storage.close();
    const d = open(c.dataDir, fakeService([]));
    d.service.cancel(r2.runId);
    await d.service.settled(r2.runId);
    expect(d.service.report(r2.runId).facts.endedAs).toBe('cancelled');
    d.storage.close();
  });

  it('both directions: the period’s list answers rows, and what the ledger lacks is reported', async () => {
    const refund = (n: string, amountMinor: number, createdAt: string) => ({
      refundTransactionNo: n,
      refundAmountMinor: amountMinor,
      currency: 'USD' as const,
      status: 'success' as const,
      createdAt,
    });
    const payments = [
      tx('100001', 100, 'USD', { createdAt: at('2025-06-10'), paidAt: at('2025-06-10') }),
      tx('100002', 200, 'USD', { createdAt: at('2025-06-12'), paidAt: at('2025-06-12'), reference: 'INV-2' }),
      // Paid in the period, not in the ledger.
      tx('100003', 300, 'USD', { createdAt: at('2025-06-15'), paidAt: at('2025-06-15') }),
      // Closed in the period, not in the ledger: no money, not reported.
      tx('100004', 400, 'USD', { createdAt: at('2025-06-16'), status: 'closed' }),
      // Made before the period, refunded in it, not in the ledger.
      tx('100005', 500, 'USD', {
        createdAt: at('2025-05-20'),
        paidAt: at('2025-05-20'),
        refunds: [refund('R1', 50, at('2025-06-05')), refund('R2', 60, at('2025-05-25'))],
      }),
      // Dated far from the ledger's date.
      tx('100006', 600, 'USD', { createdAt: at('2025-06-20'), paidAt: at('2025-06-20') }),
    ];
    const gw = fakeService(payments);
    const { service } = setup(gw);
    const run = begin(
      service,
      [
        row(2, '100001'),
        {
          line: 3,
          reference: 'INV-2',
          amountMinor: 200,
          currency: 'USD' as const,
          status: 'paid',
          date: '2025-06-13',
          day: '2025-06-13',
        },
        row(4, '100006', 600, '2025-06-25'),
        row(5, '555555'),
      ],
      { options: options({ period: { from: '2025-06-01', to: '2025-06-30' } }) },
    );
    await service.settled(run.runId);
    // Only the row the list does not have is looked up.
    expect(gw.queried).toEqual(['555555']);
    expect(gw.listed).toEqual(['2025-05-02', '2025-05-17', '2025-06-01', '2025-06-16']);
    const items = service.items(run.runId, 0, 100).items;
    expect(items.map((i) => [i.line ?? null, i.outcome])).toEqual([
      [2, 'matched'],
      [3, 'matched'],
      [4, 'date_mismatch'],
      [5, 'missing_at_service'],
      [null, 'missing_in_ledger'],
      [null, 'refund_missing_in_ledger'],
    ]);
    expect(items[2]?.dayOffset).toBe(5);
    expect(items[4]?.service).toMatchObject({ transactionNo: '100003', source: 'list' });
    expect(items[5]?.refund).toMatchObject({ refundTransactionNo: 'R1', amountMinor: 50 });
    const report = service.report(run.runId);
    expect(report.run.twoWay).toBe(true);
    const usd = report.summary.currencies.find((c) => c.currency === 'USD')!;
    expect(usd.serviceTotalMinor).toBe(100 + 200 + 600 + 300);
    expect(usd.differenceMinor).toBe(usd.explainedMinor);
    expect(report.statement.join(' ')).toMatch(
      /Period 2025-06-01 to 2025-06-30 in the service's days \(UTC\+8\)/,
    );
  });

  it('reads the stored list once per run; a row keyed by a reference the list holds once is answered by it, one the list holds twice is looked up', async () => {
    const payments = [
      tx('100001', 100, 'USD', { reference: 'INV-1', createdAt: at('2025-06-05'), paidAt: at('2025-06-05') }),
      tx('100002', 200, 'USD', { reference: 'DUP', createdAt: at('2025-06-06'), paidAt: at('2025-06-06') }),
      tx('100003', 300, 'USD', { reference: 'DUP', createdAt: at('2025-06-07'), paidAt: at('2025-06-07') }),
    ];
    const gw = fakeService(payments);
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-recon-run-'));
    dirs.push(dataDir);
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    let reads = 0;
    const service = createReconciliationService({
      runs: {
        ...storage.runs,
        readWindows: (runId) => {
          reads += 1;
          return storage.runs.readWindows(runId);
        },
        // The same windows with their payments as columns (what a run reads): a read too.
        readWindowColumns: (runId) => {
          reads += 1;
          return storage.runs.readWindowColumns!(runId);
        },
      },
      closing: storage.closing,
      jobs: storage.jobs,
      clock,
      log,
      gatewayFor: () => gw,
      profile: () => ({ id: 'p1', name: 'Main' }),
      onProgress: () => undefined,
    });
    const byRef = (line: number, reference: string, amountMinor: number, day: string): LedgerRow => ({
      line,
      reference,
      amountMinor,
      currency: 'USD',
      status: 'paid',
      date: day,
      day,
    });
    const run = begin(
      service,
      [
        byRef(2, 'INV-1', 100, '2025-06-05'),
        byRef(3, 'DUP', 200, '2025-06-06'),
        row(4, '100003', 300, '2025-06-07'),
      ],
      { options: options({ period: { from: '2025-06-01', to: '2025-06-30' } }) },
    );
    await service.settled(run.runId);
    expect(reads).toBe(1);
    expect(gw.queried).toEqual(['DUP']);
    const items = service.items(run.runId, 0, 100).items;
    expect(
      items.map((i) => [i.line, i.outcome, i.matchedBy, i.service?.transactionNo, i.service?.source]),
    ).toEqual([
      [2, 'matched', 'reference', '100001', 'list'],
      [3, 'matched', 'reference', '100002', 'lookup'],
      [4, 'matched', 'transactionNo', '100003', 'list'],
    ]);
    expect(service.report(run.runId).facts.sources).toMatchObject({ list: 2, lookup: 1, cache: 0 });
    storage.close();
  });

  it('says so, and checks one way, when the service does not offer its list; pauses when it cannot be reached', async () => {
    const unsupported = fakeService([tx('100001', 100)], {
      listFails: () => new AppError('unavailable', 'Not found', { details: { httpStatus: 404 } }),
    });
    const a = setup(unsupported);
    const run = begin(a.service, [row(2, '100001')], {
      options: options({ period: { from: '2025-06-01', to: '2025-06-10' } }),
    });
    await a.service.settled(run.runId);
    const report = a.service.report(run.runId);
    expect(report.facts.listing.state).toBe('unsupported');
    expect(report.summary.counts.matched).toBe(1);
    expect(report.statement.join(' ')).toMatch(/NOT looked for — This payment service does not offer/);

    let down = true;
    const flaky = fakeService([tx('100001', 100, 'USD', { createdAt: at('2025-06-10') })], {
      listFails: () => (down ? new AppError('network', 'The service did not answer.') : undefined),
    });
    const b = setup(flaky);
    const r2 = begin(b.service, [row(2, '100001')], {
      options: options({ period: { from: '2025-06-01', to: '2025-06-10' }, refundLookbackDays: 0 }),
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(b.service.get(r2.runId).progress).toMatchObject({
      state: 'paused',
      phase: 'listing',
      stoppedBecause: { code: 'network' },
    });
    down = false;
    b.service.resume(r2.runId);
    await b.service.settled(r2.runId);
    const rep = b.service.report(r2.runId);
    expect(rep.facts).toMatchObject({ offline: false, listing: { state: 'complete' } });
    expect(rep.summary.counts.matched).toBe(1);
  });

  it('labels a run made while the service was unreachable, and re-checks its rows not checked', async () => {
    let down = true;
    const payments = [tx('100001', 100), tx('100002', 200)];
    const gw = fakeService(payments, {
      fail: (no) =>
        down && no === '100002' ? new AppError('network', 'The service did not answer.') : undefined,
    });
    const { service } = setup(gw);
    const run = begin(service, [row(2, '100001'), row(3, '100002', 200)]);
    await service.settled(run.runId);
    const first = service.report(run.runId);
    expect(first.facts.offline).toBe(true);
    // The failed key counts as asked and failed, not as a source of service data.
    expect(first.facts.lookups).toEqual({ asked: 2, failed: 1, failedByCode: { network: 1 } });
    expect(first.facts.sources).toEqual({ list: 0, lookup: 1, cache: 0 });
    expect(first.run).toMatchObject({ offline: true });
    expect(first.summary.counts.not_checked).toBe(1);
    expect(first.statement.join(' ')).toMatch(/could not be reached/);
    down = false;
    gw.queried.length = 0;
    const again = await service.recheck(run.runId);
    await service.settled(again.runId);
    expect(gw.queried).toEqual(['100002']);
    const second = service.report(again.runId);
    expect(second.facts).toMatchObject({ recheckOf: run.runId, offline: false, usedCache: true });
    expect(second.facts.sources).toMatchObject({ lookup: 1, cache: 1 });
    expect(second.summary.counts.matched).toBe(2);
    // The first record is unchanged.
    expect(service.report(run.runId).summary.counts.not_checked).toBe(1);
  });

  it('runs belong to a profile; the ledger must be handed over whole; options and profile are checked', async () => {
    const { service } = setup(fakeService([tx('1', 100)]));
    const mine = begin(service, [row(2, '1')]);
    const theirs = begin(service, [row(2, '1')], { profileId: 'p2' });
    await service.settled(mine.runId);
    await service.settled(theirs.runId);
    expect(service.list('p1').map((r) => r.runId)).toEqual([mine.runId]);
    expect(service.list('p2')).toEqual([
      expect.objectContaining({ runId: theirs.runId, profileName: 'Second' }),
    ]);

    const { runId } = service.create({
      profileId: 'p1',
      label: 'x',
      file: file(3),
      mapping: {},
      options: options(),
    });
    service.addInput(runId, 'row', [row(2, '1')]);
    expect(() => service.start(runId)).toThrow(/1 of 3 data rows/);
    expect(() => service.addInput(runId, 'row', [row(3, '2'), row(4, '3'), row(5, '4')])).toThrow(
      /more were handed over/,
    );
    expect(() =>
      service.create({
        profileId: 'p1',
        label: 'x',
        file: file(1),
        mapping: {},
        options: options({ period: { from: '2025-06-10', to: '2025-06-01' } }),
      }),
    ).toThrow(/ends before it starts/);
    expect(() =>
      service.create({ label: 'x', profileId: 'gone', file: file(1), mapping: {}, options: options() }),
    ).toThrow(/profile no longer exists/);
  });
});
