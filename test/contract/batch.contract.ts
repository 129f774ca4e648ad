import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRowResult } from '../../shared/batch/result';
import type { BatchRecord, BatchRowRecord, BatchStore } from '../../electron/core/services/batch/store-port';
import type { IntentStore } from '../../electron/core/services/engine/port';
import { payment, record } from './records';

/**
 * How the batch store contract reaches an implementation: `fresh` makes an empty shared location (a
 * file, a database); every `open` of it is another connection — another process or desk.
 */
export interface BatchStoreFactory {
  fresh(): Promise<string>;
  open(location: string): Promise<{ batches: BatchStore; intents: IntentStore; close(): Promise<void> }>;
}

const ACCOUNT = { merchantNo: '200043', storeNo: '300014' };

function batch(id: string, over: Partial<BatchRecord> = {}): BatchRecord {
  const at = over.createdAt ?? new Date().toISOString();
  return {
    id,
    profileId: 'p',
    profileName: 'Shop',
    environment: 'demo',
    baseUrl: '',
    ...ACCOUNT,
    fileName: 'claims.csv',
    fileDigest: createHash('sha256').update(id).digest('hex'),
    operator: 'alice',
    state: 'running',
    createdAt: at,
    updatedAt: at,
    facts: {
      moneyMode: 'local',
      checkedAt: at,
      mapping: { transactionNo: 'Transaction No' },
      dataRows: 3,
      counts: { will_refund: 2, duplicate: 1 },
      totals: [{ currency: 'USD', amountMinor: 300, rows: 2 }],
    },
    ...over,
  };
}

const dryRow = (line: number, over: Partial<BatchRowResult> = {}): BatchRowResult => ({
  line,
  class: 'will_refund',
  transactionNo: `T${line}`,
  currency: 'USD',
  amountMinor: 100 * line,
  key: `key-${line}`,
  reason: 'recall',
  ...over,
});

function rowsOf(id: string): BatchRowRecord[] {
  return [
    { batchId: id, line: 1, state: 'pending', dry: dryRow(1) },
    { batchId: id, line: 2, state: 'pending', dry: dryRow(2) },
    {
      batchId: id,
      line: 3,
      state: 'skipped',
      dry: { line: 3, class: 'duplicate', message: 'duplicate of row 1', duplicateOf: 1, key: 'key-1' },
    },
  ];
}

/**
 * Every rule of the refund batch store port (electron/core/services/batch/store-port.ts), drawn from
 * what the batch executor relies on. SQLite (a single desk) and PostgreSQL (the team database) pass it
 * unchanged.
 */
export function batchStoreContract(name: string, factory: BatchStoreFactory): void {
  describe(`batch store contract: ${name}`, () => {
    const open: Array<{ close(): Promise<void> }> = [];
    const opened = async (location: string) => {
      const o = await factory.open(location);
      open.push(o);
      return o;
    };
    afterEach(async () => {
      for (const o of open.splice(0)) await o.close();
    });

    it('keeps a batch and every row as created, rows in file order, and tallies them by class, state and outcome', async () => {
      const { batches } = await opened(await factory.fresh());
      const b = batch('RB1');
      const stored = await batches.create(b, [...rowsOf('RB1')].reverse());
      expect(stored.state).toBe('running');
      const got = (await batches.get('RB1'))!;
      const { approval: _approval, ...same } = got;
      expect(same).toEqual(b);
      expect(await batches.get('RB-none')).toBeUndefined();
      const rows = await batches.rows('RB1');
      expect(rows.map((r) => [r.line, r.state, r.dry.class])).toEqual([
        [1, 'pending', 'will_refund'],
        [2, 'pending', 'will_refund'],
        [3, 'skipped', 'duplicate'],
      ]);
      expect(rows[0]).toEqual({ batchId: 'RB1', line: 1, state: 'pending', dry: dryRow(1) });
      const tally = (await batches.tally('RB1')).sort((a, b) => a.dryClass.localeCompare(b.dryClass));
      expect(tally).toEqual([
        { dryClass: 'duplicate', state: 'skipped', rows: 1 },
        { dryClass: 'will_refund', state: 'pending', rows: 2 },
      ]);
    });

    it('lists the unfinished batches of an account oldest first; finished and cancelled ones are not', async () => {
      const { batches } = await opened(await factory.fresh());
      await batches.create(batch('RB-b', { createdAt: '2025-01-02T00:00:00.000Z' }), rowsOf('RB-b'));
      await batches.create(batch('RB-a', { createdAt: '2025-01-01T00:00:00.000Z' }), rowsOf('RB-a'));
      await batches.create(batch('RB-c', { createdAt: '2025-01-03T00:00:00.000Z' }), rowsOf('RB-c'));
      await batches.create(batch('RB-other', { storeNo: '999' }), rowsOf('RB-other'));
      await batches.setState('RB-b', 'paused', '2025-01-04T00:00:00.000Z');
      await batches.setState('RB-c', 'finished', '2025-01-04T00:00:00.000Z');
      const u = await batches.unfinished(ACCOUNT);
      expect(u.map((b) => [b.id, b.state])).toEqual([
        ['RB-a', 'running'],
        ['RB-b', 'paused'],
      ]);
      expect((await batches.get('RB-b'))!.updatedAt).toBe('2025-01-04T00:00:00.000Z');
      await batches.setState('RB-b', 'running', '2025-01-05T00:00:00.000Z');
      await batches.setState('RB-b', 'cancelled', '2025-01-05T00:00:00.000Z');
      expect((await batches.unfinished(ACCOUNT)).map((b) => b.id)).toEqual(['RB-a']);
    });

    it('lists every batch of an account newest first, a page at a time, whatever its state; by state when asked', async () => {
      const { batches } = await opened(await factory.fresh());
      const days = ['03', '01', '05', '02', '04'];
      for (const d of days)
        await batches.create(
          batch(`RB-${d}`, { createdAt: `2025-01-${d}T00:00:00.000Z` }),
          rowsOf(`RB-${d}`),
        );
      // Same time, different ids: the id orders them (newest first = larger id first).
      await batches.create(batch('RB-05b', { createdAt: '2025-01-05T00:00:00.000Z' }), rowsOf('RB-05b'));
      await batches.create(batch('RB-other', { storeNo: '999' }), rowsOf('RB-other'));
      await batches.setState('RB-02', 'finished', '2025-01-06T00:00:00.000Z');
      await batches.setState('RB-04', 'paused', '2025-01-06T00:00:00.000Z');
      const first = await batches.list(ACCOUNT, { limit: 4 });
      expect(first.map((b) => b.id)).toEqual(['RB-05b', 'RB-05', 'RB-04', 'RB-03']);
      expect(first[2]!.state).toBe('paused');
      expect(first[0]!.facts.totals).toEqual([{ currency: 'USD', amountMinor: 300, rows: 2 }]);
      const last = first.at(-1)!;
      const second = await batches.list(ACCOUNT, {
        limit: 4,
        before: { createdAt: last.createdAt, id: last.id },
      });
      expect(second.map((b) => [b.id, b.state])).toEqual([
        ['RB-02', 'finished'],
        ['RB-01', 'running'],
      ]);
      expect((await batches.list(ACCOUNT, { limit: 10, state: 'finished' })).map((b) => b.id)).toEqual([
        'RB-02',
      ]);
      expect(
        (await batches.list({ merchantNo: '200043', storeNo: '999' }, { limit: 10 })).map((b) => b.id),
      ).toEqual(['RB-other']);
    });

    it('moves a row only from one of the states named, sets the patch and clears what it leaves out', async () => {
      const { batches } = await opened(await factory.fresh());
      await batches.create(batch('RB1'), rowsOf('RB1'));
      expect(await batches.moveRow('RB1', 1, ['pending'], 'sending', {})).toBe(true);
      // A second taker of the same row finds it gone: exactly one executor sends it.
      expect(await batches.moveRow('RB1', 1, ['pending'], 'sending', {})).toBe(false);
      const patch = {
        intentId: 'RD1',
        outcome: 'sending',
        detail: 'sent',
        at: '2025-01-01T00:00:00.000Z',
        operator: 'bob',
      };
      expect(await batches.moveRow('RB1', 1, ['sending'], 'sent', patch)).toBe(true);
      expect((await batches.rows('RB1'))[0]).toMatchObject({ state: 'sent', ...patch });
      // The intent id stays when a later move does not give it; the rest is what the move says.
      expect(await batches.moveRow('RB1', 1, ['sent'], 'sent', { outcome: 'succeeded' })).toBe(true);
      const row = (await batches.rows('RB1'))[0]!;
      expect(row).toEqual({
        batchId: 'RB1',
        line: 1,
        state: 'sent',
        dry: dryRow(1),
        intentId: 'RD1',
        outcome: 'succeeded',
      });
      expect(await batches.moveRow('RB1', 2, ['sending', 'sent'], 'refused', {})).toBe(false);
      expect(await batches.moveRow('RB1', 2, ['pending'], 'skipped', { outcome: 'cancelled' })).toBe(true);
      expect(await batches.moveRow('RB1', 9, ['pending'], 'sending', {})).toBe(false);
      const tally = await batches.tally('RB1');
      expect(tally).toContainEqual({ dryClass: 'will_refund', state: 'sent', outcome: 'succeeded', rows: 1 });
      expect(tally).toContainEqual({
        dryClass: 'will_refund',
        state: 'skipped',
        outcome: 'cancelled',
        rows: 1,
      });
    });

    it('one runner holds a batch at a time, across connections; it renews, releases, and a lapsed lease is taken over', async () => {
      const location = await factory.fresh();
      const a = (await opened(location)).batches;
      const b = (await opened(location)).batches;
      await a.create(batch('RB1'), rowsOf('RB1'));
      const now = Date.now();
      expect(await a.claim('RB1', 'desk-a:1', now, now + 60_000)).toBe(true);
      expect(await b.claim('RB1', 'desk-b:2', Date.now(), Date.now() + 60_000)).toBe(false);
      expect(await a.claim('RB1', 'desk-a:1', Date.now(), Date.now() + 60_000)).toBe(true);
      // Releasing someone else's claim does nothing.
      await b.release('RB1', 'desk-b:2');
      expect(await b.claim('RB1', 'desk-b:2', Date.now(), Date.now() + 60_000)).toBe(false);
      await a.release('RB1', 'desk-a:1');
      expect(await b.claim('RB1', 'desk-b:2', Date.now(), Date.now() + 200)).toBe(true);
      // desk-b stops without releasing: once its lease ran out, desk-a takes the batch over.
      expect(await a.claim('RB1', 'desk-a:1', Date.now(), Date.now() + 60_000)).toBe(false);
      await new Promise((r) => setTimeout(r, 400));
      expect(await a.claim('RB1', 'desk-a:1', Date.now(), Date.now() + 60_000)).toBe(true);
    });

    it("finds the refunds a batch row made from the intents' own row keys, counting only those that may have moved money", async () => {
      const location = await factory.fresh();
      const { batches, intents } = await opened(location);
      await batches.create(batch('RB1'), rowsOf('RB1'));
      const at = () => new Date().toISOString();
      const put = async (id: string, tx: string, state: string, mark: Record<string, unknown>) => {
        await intents.decide([{ payment: payment(tx) }], (d) =>
          d.insert(record(id, tx, { state, data: { reasonCode: 'other', batch: mark } }), undefined, {
            at: at(),
            type: 'decided',
          }),
        );
      };
      await put('RD1', 'T1', 'sending', { id: 'RB1', line: 1, rowKey: 'key-1' });
      await put('RD2', 'T2', 'rejected', { id: 'RB1', line: 2, rowKey: 'key-2' });
      await put('RD3', 'T3', 'succeeded', { id: 'RB0', line: 7, rowKey: 'key-3' });
      await intents.decide([{ payment: payment('T4') }], (d) =>
        d.insert(record('RD4', 'T4', { state: 'succeeded' }), undefined, { at: at(), type: 'decided' }),
      );
      const done = await batches.doneKeys(ACCOUNT);
      expect([...done.entries()].sort()).toEqual([
        ['key-1', { batchId: 'RB1', intentId: 'RD1', line: 1 }],
        ['key-3', { batchId: 'RB0', intentId: 'RD3', line: 7 }],
      ]);
      expect((await batches.doneKeys({ merchantNo: '200043', storeNo: '999' })).size).toBe(0);
      expect(await batches.intentOfRow(ACCOUNT, 'RB1', 'key-1')).toBe('RD1');
      // A row whose refund was rejected still made that intent (it is that row's, whatever its outcome).
      expect(await batches.intentOfRow(ACCOUNT, 'RB1', 'key-2')).toBe('RD2');
      expect(await batches.intentOfRow(ACCOUNT, 'RB1', 'key-3')).toBeUndefined();
      expect(await batches.intentOfRow(ACCOUNT, 'RB0', 'key-3')).toBe('RD3');
    });
  });
}
