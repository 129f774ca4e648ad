import { afterEach, describe, expect, it } from 'vitest';
import type { ExceptionRecord } from '../../shared/recon/exceptions';
import type { ReconItem } from '../../shared/recon/match';
import type { RunFacts } from '../../shared/recon/run';
import type { SignOff } from '../../shared/recon/seal';
import type { ReconSummary } from '../../shared/recon/summary';
import type { CloseStore, PublishedRun } from '../../electron/core/services/reconciliation/close-store';

/**
 * How the close contract reaches an implementation. `fresh` makes an empty shared location (a file, a
 * database); every `open` of it is another connection, as another desk would have — as a clerk (works
 * exceptions) or as the controller (signs). `seed` stores an ended run the way that implementation gets
 * one: a single desk's own record, or the team database's published copy.
 */
export interface CloseFactory {
  fresh(): Promise<string>;
  open(
    location: string,
    as: 'clerk' | 'controller',
  ): Promise<{ store: CloseStore; seed(run: ContractRun): Promise<void>; close(): Promise<void> }>;
}

/** An ended run: its whole record (every item) and what publishing it takes. */
export interface ContractRun {
  facts: RunFacts;
  summary: ReconSummary;
  statement: string[];
  items: ReconItem[];
  published: PublishedRun;
}

let runs = 0;

const item = (line: number, outcome: ReconItem['outcome'], no: string): ReconItem => ({
  line,
  outcome,
  ledger: {
    line,
    transactionNo: no,
    amountMinor: 1000 + line,
    currency: 'USD',
    status: 'paid',
    date: '2025-06-10',
    day: '2025-06-10',
  },
  deltas: outcome === 'matched' ? [] : [{ currency: 'USD', amountMinor: 1000 + line }],
  detail: outcome === 'matched' ? '' : `line ${line}: ${outcome}`,
});

/** A run of 5 items: lines 2 and 4 matched; 3, 5 and 6 exceptions (seq 1, 3, 4). */
export function contractRun(): ContractRun {
  runs += 1;
  const runId = `RC-CONTRACT-${process.pid}-${runs}`;
  const facts = {
    runId,
    label: 'june.csv',
    profileId: 'p1',
    profileName: 'Main',
    createdAt: '2025-07-01T10:00:00.000Z',
    endedAt: '2025-07-01T10:01:00.000Z',
    endedAs: 'completed',
    options: {
      days: 'service',
      timeZone: 'UTC',
      dateToleranceDays: 1,
      refundLookbackDays: 30,
      period: { from: '2025-06-01', to: '2025-06-30' },
    },
  } as unknown as RunFacts;
  const items = [
    item(2, 'matched', '100001'),
    item(3, 'amount_mismatch', '100002'),
    item(4, 'matched', '100003'),
    item(5, 'missing_at_service', '100004'),
    item(6, 'missing_at_service', '100005'),
  ];
  const summary = { rows: 5, read: 5, unusable: 0, exceptions: 3 } as unknown as ReconSummary;
  const statement = ['5 rows read', '3 exceptions'];
  return {
    facts,
    summary,
    statement,
    items,
    published: {
      facts,
      summary,
      statement,
      items: items.length,
      exceptionItems: items.flatMap((it, seq) => (it.outcome === 'matched' ? [] : [{ seq, item: it }])),
      recordHash: 'a'.repeat(64),
    },
  };
}

const open = (runId: string, seq: number): ExceptionRecord => ({
  runId,
  id: `i${seq}`,
  state: 'open',
  notes: [],
  ageFrom: '2025-06-10',
  ageFromWhat: 'ledger',
  updatedAt: '2025-07-01T10:02:00.000Z',
  version: 0,
});

/**
 * Every rule of the month-end close port (electron/core/services/reconciliation/close-store.ts). SQLite
 * (one desk) and PostgreSQL (the team: as the owner, and as a maker and a checker login) pass it unchanged.
 */
export function closeContract(name: string, factory: CloseFactory): void {
  describe(`close store contract: ${name}`, () => {
    const opened: Array<{ close(): Promise<void> }> = [];
    afterEach(async () => {
      for (const o of opened.splice(0)) await o.close();
    });
    async function setup() {
      const location = await factory.fresh();
      const clerk = await factory.open(location, 'clerk');
      opened.push(clerk);
      const run = contractRun();
      await clerk.seed(run);
      const runId = run.facts.runId;
      const base = [open(runId, 1), open(runId, 3), open(runId, 4)];
      return { location, clerk: clerk.store, run, runId, base };
    }
    const by = { at: '2025-07-02T09:00:00.000Z', by: 'Ann', action: 'update' };

    it('reads the run’s non-matched items with their order', async () => {
      const { clerk, run, runId } = await setup();
      const items = await clerk.readExceptionItems(runId);
      expect(items.map((i) => i.seq)).toEqual([1, 3, 4]);
      expect(items[0]!.item).toEqual(run.items[1]);
      expect(await clerk.readExceptionItems('RC-NO-SUCH-RUN')).toEqual([]);
    });

    it('adds exceptions once: an existing id is left as it is; audited only when asked', async () => {
      const { clerk, runId, base } = await setup();
      expect(await clerk.addExceptions(runId, base)).toEqual({ ok: true });
      expect(await clerk.readExceptionAudit(runId)).toEqual([]);
      const carried: ExceptionRecord = {
        ...open(runId, 0),
        id: 'c0',
        owner: 'Ben',
        notes: [{ at: 't', by: 'Ben', text: 'from May' }],
        carried: {
          runId: 'RC-MAY',
          exceptionId: 'i7',
          firstRunId: 'RC-MAY',
          item: item(9, 'amount_mismatch', '9'),
        },
      };
      const again = { ...base[0]!, state: 'resolved' as const, owner: 'Zed' };
      expect(
        await clerk.addExceptions(runId, [again, carried], { at: 'a', by: 'Refund Desk', action: 'carry' }),
      ).toEqual({ ok: true });
      const list = await clerk.listExceptions(runId);
      // Own items by their order, carried ones after; the second add did not touch i1.
      expect(list.map((e) => e.id)).toEqual(['i1', 'i3', 'i4', 'c0']);
      expect(list[0]).toEqual(base[0]);
      expect(list[3]).toEqual(carried);
      const audit = await clerk.readExceptionAudit(runId);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        runId,
        exceptionId: 'c0',
        at: 'a',
        by: 'Refund Desk',
        action: 'carry',
      });
      expect(audit[0]!.after).toEqual(carried);
    });

    it('changes with the version it was made on: one audit entry each, all or none', async () => {
      const { clerk, runId, base } = await setup();
      await clerk.addExceptions(runId, base);
      const [a, b] = base as [ExceptionRecord, ExceptionRecord];
      const a1 = { ...a, state: 'explained' as const, notes: [{ at: by.at, by: 'Ann', text: 'timing' }] };
      expect(await clerk.changeExceptions(runId, [{ before: a, after: a1 }], by)).toEqual({ ok: true });
      const now = await clerk.listExceptions(runId);
      expect(now[0]).toEqual({ ...a1, version: 1, updatedAt: by.at });
      // A stale version: refused, and the other change of the same call is not written either.
      const b1 = { ...b, owner: 'Ben' };
      expect(
        await clerk.changeExceptions(
          runId,
          [
            { before: b, after: b1 },
            { before: a, after: { ...a, state: 'resolved' } },
          ],
          by,
        ),
      ).toEqual({ ok: false, reason: 'changed', id: 'i1' });
      expect(await clerk.changeExceptions(runId, [{ before: { ...a, id: 'i99' }, after: a }], by)).toEqual({
        ok: false,
        reason: 'missing',
        id: 'i99',
      });
      expect((await clerk.listExceptions(runId))[1]).toEqual(b);
      const audit = await clerk.readExceptionAudit(runId);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ runId, exceptionId: 'i1', ...by });
      expect(audit[0]!.before).toEqual(a);
      expect(audit[0]!.after).toEqual(a1);
    });

    it('two connections changing the same version: exactly one is written', async () => {
      const { location, clerk, runId, base } = await setup();
      const other = await factory.open(location, 'clerk');
      opened.push(other);
      await clerk.addExceptions(runId, base);
      const a = base[0]!;
      const results = await Promise.all([
        clerk.changeExceptions(runId, [{ before: a, after: { ...a, owner: 'Ann' } }], by),
        other.store.changeExceptions(runId, [{ before: a, after: { ...a, owner: 'Ben' } }], by),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'changed', id: 'i1' }]);
      const stored = (await other.store.listExceptions(runId))[0]!;
      expect(stored.version).toBe(1);
      expect((await clerk.readExceptionAudit(runId)).map((e) => (e.after as ExceptionRecord).owner)).toEqual([
        stored.owner,
      ]);
    });

    it('the controller signs once, on another connection, what the clerk worked; a signed run never changes', async () => {
      const { location, clerk, runId, base } = await setup();
      await clerk.addExceptions(runId, base);
      const a = base[0]!;
      await clerk.changeExceptions(runId, [{ before: a, after: { ...a, state: 'written_off' } }], by);
      const controller = await factory.open(location, 'controller');
      opened.push(controller);
      // The clerk's change is what the controller's connection reads.
      expect((await controller.store.listExceptions(runId))[0]).toMatchObject({
        state: 'written_off',
        version: 1,
      });
      expect(await controller.store.readSignOff(runId)).toBeUndefined();
      const s: SignOff = {
        runId,
        by: 'Chris',
        at: '2025-07-03T08:00:00.000Z',
        comment: 'June closed.',
        openAtSignOff: ['i3', 'i4'],
        contentHash: 'b'.repeat(64),
      };
      expect(await controller.store.signOff(s)).toEqual({ ok: true });
      expect(await controller.store.signOff({ ...s, by: 'Dana', comment: 'again' })).toEqual({
        ok: false,
        reason: 'signed',
      });
      expect(await clerk.readSignOff(runId)).toEqual(s);
      const before = await clerk.listExceptions(runId);
      expect(
        await clerk.changeExceptions(
          runId,
          [{ before: before[1]!, after: { ...before[1]!, state: 'resolved' } }],
          by,
        ),
      ).toEqual({ ok: false, reason: 'signed' });
      expect(await clerk.addExceptions(runId, [{ ...open(runId, 0), id: 'c5' }])).toEqual({
        ok: false,
        reason: 'signed',
      });
      expect(await clerk.listExceptions(runId)).toEqual(before);
      const audit = await clerk.readExceptionAudit(runId);
      expect(audit.map((e) => e.action)).toEqual(['update', 'sign_off']);
      expect(audit[1]).toMatchObject({ runId, at: s.at, by: 'Chris', action: 'sign_off' });
      expect(audit[1]!.exceptionId).toBeUndefined();
      expect(audit[1]!.after).toEqual(s);
    });
  });
}
