/**
 * Month-end close in main (issue 28): exceptions worked beside the run's record, each change audited,
 * manual matches, sign-off (immutable, hash reproducible, open exceptions listed), carry-forward.
 * Real SQLite file through the app storage; the service is a fake at the gateway's edge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import { reportCsv, reportRows, summaryCsv } from '../../../shared/recon/export';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { ReconOptions } from '../../../shared/recon/period';
import type { LedgerFileInfo } from '../../../shared/recon/run';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import type { QueryKey } from '../../../electron/core/services/gateway/client';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import { tx } from './fixtures';

const log = { info() {}, warn() {}, error() {} };
const UTC8 = 8 * 3_600_000;
const at = (day: string, hour = 12) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - UTC8 + hour * 3_600_000).toISOString();

/** tran-query and the period's list over `payments` (mutable: a month later the service knows more). */
function fakeService(payments: Transaction[]) {
  const queried: string[] = [];
  return {
    queried,
    async queryTransaction(key: QueryKey) {
      const k = 'transactionNo' in key ? key.transactionNo : 'reference' in key ? key.reference : '';
      queried.push(k);
      await new Promise((r) => setTimeout(r, 1));
      const p = payments.find((x) => x.transactionNo === k || x.reference === k);
      if (!p) throw new AppError('not_found', 'no such payment');
      return { transaction: p };
    },
    async listTransactions(range: { startMs: number; endMs: number }) {
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
const month = (from: string, to: string): ReconOptions => ({
  days: 'service',
  timeZone: 'UTC',
  dateToleranceDays: 1,
  refundLookbackDays: 30,
  period: { from, to },
});
const row = (
  line: number,
  transactionNo: string,
  amountMinor: number,
  day: string,
  currency = 'USD',
): LedgerRow => ({
  line,
  transactionNo,
  amountMinor,
  currency: currency as 'USD',
  status: 'paid',
  date: day,
  day,
});
const paid = (no: string, amountMinor: number, day: string, currency: 'USD' | 'EUR' = 'USD') =>
  tx(no, amountMinor, currency, { createdAt: at(day), paidAt: at(day) });

describe('month-end close (main)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  let now = Date.parse('2025-07-02T04:00:00Z');
  const clock = { now: () => now };

  function setup(payments: Transaction[], dataDir = mkdtempSync(join(tmpdir(), 'rd-close-'))) {
    if (!dirs.includes(dataDir)) dirs.push(dataDir);
    const gw = fakeService(payments);
    const storage = openAppStorage({ dataDir, now: clock.now, log });
    const service = createReconciliationService({
      runs: storage.runs,
      closing: storage.closing,
      jobs: storage.jobs,
      clock,
      log,
      gatewayFor: () => gw,
      profile: (id) => ({ id, name: id === 'p2' ? 'Second' : 'Main' }),
      onProgress: () => undefined,
      concurrency: 2,
    });
    return { service, storage, gw, dataDir };
  }
  async function run(
    service: ReturnType<typeof setup>['service'],
    rows: LedgerRow[],
    options: ReconOptions,
    more: { carryForwardOf?: string; profileId?: string } = {},
  ) {
    const { runId } = service.create({
      label: 'ledger.csv',
      file: file(rows.length),
      mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy', date: 'Date' },
      options,
      profileId: more.profileId ?? 'p1',
      ...(more.carryForwardOf ? { carryForwardOf: more.carryForwardOf } : {}),
    });
    service.addInput(runId, 'row', rows);
    service.start(runId);
    await service.settled(runId);
    return runId;
  }

  // June: 100001 matches; 100002 differs in amount; 100009 is in the ledger, not (yet) at the service;
  // 100003 was paid at the service on the 30th, not in June's ledger; 200001 (EUR) not in the ledger;
  // 100004 is in the ledger, the service has it as 100005 under another number (a manual match).
  const june = () => [
    paid('100001', 100, '2025-06-10'),
    paid('100002', 250, '2025-06-12'),
    paid('100003', 300, '2025-06-30'),
    paid('100005', 400, '2025-06-20'),
    paid('200001', 500, '2025-06-21', 'EUR'),
  ];
  const juneLedger = [
    row(2, '100001', 100, '2025-06-10'),
    row(3, '100002', 200, '2025-06-12'),
    row(4, '100009', 900, '2025-06-29'),
    row(5, '100004', 400, '2025-06-20'),
  ];

  it('working exceptions never changes the run’s figures; each change is one audited record', async () => {
    const { service, storage, dataDir } = setup(june());
    const runId = await run(service, juneLedger, month('2025-06-01', '2025-06-30'));
    const first = { report: service.report(runId), csv: reportCsv(service.items(runId, 0, 100).items) };
    const x = service.exceptions;
    const list = await x.list(runId);
    // Every non-matched item is an exception, open, aged from the ledger's day (or the service's).
    expect(list.exceptions.map((e) => [e.item.line ?? null, e.item.outcome, e.state])).toEqual([
      [3, 'amount_mismatch', 'open'],
      [4, 'missing_at_service', 'open'],
      [5, 'missing_at_service', 'open'],
      [null, 'missing_in_ledger', 'open'],
      [null, 'missing_in_ledger', 'open'],
      [null, 'missing_in_ledger', 'open'],
    ]);
    const byLine = (l: number) => list.exceptions.find((e) => e.item.line === l)!;
    expect(byLine(3)).toMatchObject({
      ageFrom: '2025-06-12',
      ageFromWhat: 'ledger',
      ageDays: 20,
      age: '8-30',
    });
    const svc = list.exceptions.find((e) => e.item.service?.transactionNo === '100003')!;
    expect(svc).toMatchObject({ ageFrom: '2025-06-30', ageFromWhat: 'service', age: '0-7' });

    // Leaving "open" needs a reason.
    await expect(x.update(runId, byLine(3).id, { version: 0, state: 'explained' }, 'Ann')).rejects.toThrow(
      /Say why in a note/,
    );
    const explained = await x.update(
      runId,
      byLine(3).id,
      { version: 0, state: 'explained', owner: 'Ann', note: 'Shipping fee booked separately.' },
      'Ann',
    );
    expect(explained).toMatchObject({ state: 'explained', owner: 'Ann', version: 1 });
    // A stale version is refused, not merged.
    await expect(x.update(runId, byLine(3).id, { version: 0, note: 'again' }, 'Bob')).rejects.toThrow(
      /changed this exception meanwhile/,
    );
    // Manual match: ledger line 5 (100004) is the service's 100005 (not in the ledger); both resolved.
    const other = list.exceptions.find((e) => e.item.service?.transactionNo === '100005')!;
    const matched = await x.match(
      runId,
      byLine(5).id,
      { version: 0, kind: 'payment', id: '100005', reason: 'Typo in the order system.' },
      'Ann',
    );
    expect(matched).toMatchObject({
      state: 'resolved',
      match: { id: '100005', foundIn: 'run', pairedWith: other.id },
    });
    // Currencies are never paired.
    await expect(
      x.match(runId, byLine(4).id, { version: 0, kind: 'payment', id: '200001', reason: 'r' }, 'Ann'),
    ).rejects.toThrow(/currencies are never paired/);

    const after = await x.list(runId);
    expect(after.exceptions.find((e) => e.id === other.id)).toMatchObject({ state: 'resolved' });
    // Filters by state, owner, outcome, age.
    expect((await x.list(runId, { states: ['resolved'] })).exceptions).toHaveLength(2);
    expect((await x.list(runId, { owner: 'Ann' })).exceptions.map((e) => e.id)).toEqual([byLine(3).id]);
    expect((await x.list(runId, { outcomes: ['missing_in_ledger'] })).exceptions).toHaveLength(3);
    expect((await x.list(runId, { ages: ['8-30'] })).exceptions.map((e) => e.item.line)).toEqual([
      3,
      5,
      undefined,
      undefined,
    ]);

    // Audit: one record per change and side, who, what, before/after.
    const audit = await x.audit(runId);
    expect(audit.map((a) => [a.action, a.exceptionId, a.by])).toEqual([
      ['update', byLine(3).id, 'Ann'],
      ['match', byLine(5).id, 'Ann'],
      ['match', other.id, 'Ann'],
    ]);
    expect(audit[0]).toMatchObject({
      before: { state: 'open', version: 0 },
      after: { state: 'explained', owner: 'Ann' },
    });

    // The record is line for line what it was, re-opened after a restart too.
    storage.close();
    const b = setup(june(), dataDir);
    expect(b.service.report(runId)).toEqual(first.report);
    expect(reportCsv(b.service.items(runId, 0, 100).items)).toBe(first.csv);
    expect(
      (await b.service.exceptions.list(runId)).exceptions.find((e) => e.id === byLine(3).id),
    ).toMatchObject({
      state: 'explained',
      notes: [{ by: 'Ann', text: 'Shipping fee booked separately.' }],
    });
    b.storage.close();
  });

  it('sign-off: open exceptions listed, then immutable (service and database); the hash is reproduced', async () => {
    const { service, storage, dataDir } = setup(june());
    const runId = await run(service, juneLedger, month('2025-06-01', '2025-06-30'));
    const x = service.exceptions;
    const list = await x.list(runId);
    const first = list.exceptions[0]!;
    await x.update(runId, first.id, { version: 0, state: 'written_off', note: 'Below threshold.' }, 'Ann');
    const open = (await x.list(runId)).outstanding;
    expect(open).toHaveLength(5);
    // Signing without listing every open exception is refused.
    await expect(x.signOff(runId, { comment: 'June closed.', open: open.slice(1) }, 'Chris')).rejects.toThrow(
      /1 exception is still open and not listed/,
    );
    await expect(
      x.signOff(runId, { comment: 'June closed.', open: [...open, first.id] }, 'Chris'),
    ).rejects.toThrow(/not open/);
    const signed = await x.signOff(runId, { comment: 'June closed.', open }, 'Chris');
    expect(signed).toMatchObject({ by: 'Chris', comment: 'June closed.', openAtSignOff: [...open].sort() });
    expect(signed.contentHash).toMatch(/^[0-9a-f]{64}$/);
    // Immutable: refused with the reason, and by the database itself under the service.
    await expect(x.update(runId, open[0]!, { version: 0, note: 'late' }, 'Ann')).rejects.toThrow(
      /signed by Chris on .*a signed run cannot change/,
    );
    await expect(x.signOff(runId, { comment: 'again', open }, 'Dana')).rejects.toThrow(/signed by Chris/);
    const recs = await storage.closing.listExceptions(runId);
    expect(
      await storage.closing.changeExceptions(
        runId,
        [{ before: recs[1]!, after: { ...recs[1]!, state: 'resolved' } }],
        {
          at: 'x',
          by: 'y',
          action: 'update',
        },
      ),
    ).toEqual({ ok: false, reason: 'signed' });
    // Reproducible: computed again it is the same hash, and two exports carry it and the signature.
    const again = await x.seal(runId);
    expect(again).toMatchObject({ contentHash: signed.contentHash, intact: true });
    const exportNow = async () => {
      const s = await x.seal(runId);
      const signature = { signOff: s.signOff!, contentHash: s.contentHash! };
      const items = service.items(runId, 0, 100).items;
      const rep = service.report(runId);
      return {
        report: reportCsv(reportRows(items, (await x.list(runId)).exceptions, signature)),
        summary: summaryCsv(rep.summary.currencies, '2025-07-02T04:00:00.000Z', {
          run: rep.facts,
          signature,
        }),
      };
    };
    const e1 = await exportNow();
    const e2 = await exportNow();
    expect(e2).toEqual(e1);
    expect(e1.summary).toContain(`,Chris,`);
    expect(e1.summary).toContain(`June closed.,5,${signed.contentHash}`);
    expect(e1.report.split('\r\n')[2]).toMatch(
      new RegExp(`Written off,.*Below threshold\\.,.*Chris,.*,${signed.contentHash}$`),
    );
    storage.close();
    const raw = new DatabaseSync(join(dataDir, 'refund-desk.db'));
    expect(() =>
      raw.exec(`UPDATE recon_exceptions SET state = 'resolved' WHERE run_id = '${runId}'`),
    ).toThrow(/run signed/);
    // Its items are stored in pages (schema v13): none can be removed, changed or added.
    expect(
      (raw.prepare('SELECT count(*) AS n FROM recon_item_pages WHERE job_id = ?').get(runId) as { n: number })
        .n,
    ).toBeGreaterThan(0);
    expect(() => raw.exec(`DELETE FROM recon_item_pages WHERE job_id = '${runId}'`)).toThrow(/run signed/);
    expect(() => raw.exec(`UPDATE recon_item_pages SET data = '[]' WHERE job_id = '${runId}'`)).toThrow(
      /run signed/,
    );
    expect(() =>
      raw.exec(
        `INSERT INTO recon_item_pages (job_id, first_seq, count, data) VALUES ('${runId}', 9999, 1, '["{}"]')`,
      ),
    ).toThrow(/run signed/);
    // A figure changed behind the app's back is seen: the hash no longer matches.
    raw.exec(`UPDATE recon_jobs SET statement = '["tampered"]' WHERE id = '${runId}'`);
    raw.close();
    const b = setup(june(), dataDir);
    expect(await b.service.exceptions.seal(runId)).toMatchObject({ intact: false });
    b.storage.close();
  });

  it('carry-forward: the next month re-checks the open exceptions against the service and its ledger', async () => {
    const payments = june();
    const { service, gw } = setup(payments);
    const juneId = await run(service, juneLedger, month('2025-06-01', '2025-06-30'));
    const x = service.exceptions;
    const jl = await x.list(juneId);
    const line = (l: number) => jl.exceptions.find((e) => e.item.line === l)!;
    await x.update(juneId, line(3).id, { version: 0, state: 'explained', owner: 'Ann', note: 'Fee.' }, 'Ann');
    const eur = jl.exceptions.find((e) => e.item.service?.transactionNo === '200001')!;
    await x.update(juneId, eur.id, { version: 0, state: 'written_off', note: 'Test payment.' }, 'Ann');
    await x.signOff(juneId, { comment: 'June.', open: (await x.list(juneId)).outstanding }, 'Chris');

    // July: the service now has 100009 (late settlement); 100003 is booked in July's ledger.
    payments.push(paid('100009', 900, '2025-06-29'));
    payments.push(paid('100010', 700, '2025-07-03'));
    now = Date.parse('2025-08-02T04:00:00Z');
    // Not into the same or an earlier period, not across profiles.
    expect(() =>
      service.create({
        label: 'x',
        file: file(1),
        mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy' },
        options: month('2025-06-15', '2025-07-31'),
        profileId: 'p1',
        carryForwardOf: juneId,
      }),
    ).toThrow(/next period/);
    expect(() =>
      service.create({
        label: 'x',
        file: file(1),
        mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy' },
        options: month('2025-07-01', '2025-07-31'),
        profileId: 'p2',
        carryForwardOf: juneId,
      }),
    ).toThrow(/within one account only/);
    gw.queried.length = 0;
    const julyId = await run(
      service,
      [row(2, '100003', 300, '2025-07-01'), row(3, '100010', 700, '2025-07-03')],
      month('2025-07-01', '2025-07-31'),
      { carryForwardOf: juneId },
    );
    // Re-checked with a fresh tran-query each (the carried keys), not from June's answers.
    expect(gw.queried.sort()).toEqual(['100002', '100003', '100004', '100005', '100009']);
    const carried = (await x.list(julyId, { carried: true })).exceptions;
    const of = (no: string) =>
      carried.find((e) => (e.item.ledger?.transactionNo ?? e.item.service?.transactionNo) === no)!;
    expect(carried).toHaveLength(5);
    expect(of('100004')).toMatchObject({
      state: 'open',
      carried: { check: { result: 'still_open', why: expect.stringMatching(/has no payment/) } },
    });
    expect(of('100005').carried?.check?.why).toMatch(/this ledger still does not/);
    expect(of('100009')).toMatchObject({
      state: 'resolved',
      carried: { runId: juneId, check: { result: 'cleared', how: 'service' } },
    });
    expect(of('100003')).toMatchObject({
      state: 'resolved',
      carried: { check: { result: 'cleared', how: 'ledger', why: expect.stringMatching(/line 2/) } },
    });
    // Still different: stays as it was (explained, Ann's, its notes), aged from June's ledger day.
    expect(of('100002')).toMatchObject({
      state: 'explained',
      owner: 'Ann',
      ageFrom: '2025-06-12',
      carried: { check: { result: 'still_open', why: expect.stringMatching(/differ/i) } },
    });
    expect(of('100002').notes.map((n) => n.text)).toEqual(['Fee.']);
    // June (signed) is unchanged.
    expect((await x.seal(juneId)).intact).toBe(true);
    // Carried again from July to August keeps where it was first seen.
    const aug = await run(service, [row(2, '100010', 700, '2025-08-03')], month('2025-08-01', '2025-08-31'), {
      carryForwardOf: julyId,
    });
    const twice = (await x.list(aug, { carried: true })).exceptions;
    expect(twice.map((e) => [e.carried?.firstRunId, e.carried?.runId])).toEqual([
      [juneId, julyId],
      [juneId, julyId],
      [juneId, julyId],
    ]);
  });
});
