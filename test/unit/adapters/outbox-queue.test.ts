import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterTransition, disagrees } from '../../../electron/core/adapters/outbox-store';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createOutboxQueue } from '../../../electron/core/adapters/sqlite/outbox-table';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { IntentRecord } from '../../../electron/core/services/engine/port';

const file = () => join(mkdtempSync(join(tmpdir(), 'rd-outbox-q-')), 'refund-desk.db');

const rec: IntentRecord = {
  id: 'RD1',
  kind: 'refund',
  state: 'sending',
  profileId: 'p',
  profileName: 'P',
  environment: 'demo',
  baseUrl: 'http://x',
  merchantNo: '1',
  storeNo: '2',
  transactionNo: 'T1',
  amountMinor: 100,
  currency: 'USD',
  operator: 'o',
  createdAt: 't0',
  updatedAt: 't0',
  leaseUntil: 5,
  detail: 'was',
  checks: 0,
  attempts: 1,
  data: { reasonCode: 'x', refundStatus: 'old' },
};

describe('the outbox table (SQLite v11)', () => {
  it('keeps entries per team database, oldest first, across a reopen; one process replays at a time', () => {
    const path = file();
    let now = 1_000;
    const db = openDatabase(path, MIGRATIONS);
    const q = createOutboxQueue(db, 'postgres://alice@h/db', () => now);
    const other = createOutboxQueue(db, 'postgres://alice@h/other', () => now);
    q.append({ onceKey: 'k1', op: 'transition', intentId: 'RD1', queuedAt: 't1', body: { a: 1 } });
    q.append({ onceKey: 'k2', op: 'audit', intentId: '', queuedAt: 't2', body: { b: 2 } });
    other.append({ onceKey: 'k3', op: 'check', intentId: 'RD9', queuedAt: 't3', body: {} });
    // The same key twice is refused: an entry is kept once.
    expect(() =>
      q.append({ onceKey: 'k1', op: 'check', intentId: 'RD1', queuedAt: 't', body: {} }),
    ).toThrow();
    db.close();
    const again = openDatabase(path, MIGRATIONS);
    const q2 = createOutboxQueue(again, 'postgres://alice@h/db', () => now);
    expect(q2.all().map((e) => [e.onceKey, e.op, e.body])).toEqual([
      ['k1', 'transition', { a: 1 }],
      ['k2', 'audit', { b: 2 }],
    ]);
    expect(q2.has('RD1')).toBe(true);
    expect(q2.has('RD9')).toBe(false);
    expect(q2.elsewhere()).toEqual([{ database: 'postgres://alice@h/other', count: 1 }]);
    expect(q2.claim('A', 100)).toBe(true);
    expect(q2.claim('B', 100)).toBe(false);
    now += 101;
    // A claim that ran out (its process died) is taken over.
    expect(q2.claim('B', 100)).toBe(true);
    q2.release('B');
    expect(q2.claim('A', 100)).toBe(true);
    q2.failed(q2.first()!.seq, 'boom');
    expect(q2.first()).toMatchObject({ attempts: 1, lastError: 'boom' });
    q2.remove(q2.first()!.seq);
    expect(q2.count()).toBe(1);
    again.close();
  });

  it('each file has its own random id (what an import is keyed by)', () => {
    const ids = [file(), file()].map((p) => {
      const db = openDatabase(p, MIGRATIONS);
      const id = db.get<{ file_id: string }>('SELECT file_id FROM desk_file')!.file_id;
      db.close();
      return id;
    });
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('what a queued transition reads back as, and when a dropped one disagrees', () => {
  it('applies the patch as the database does: null clears, data merges, the lease ends with sending', () => {
    const next = afterTransition(rec, {
      to: 'accepted',
      patch: { detail: null, data: { refundTransactionNo: 'R1', refundStatus: null } },
      event: { at: 't1', type: 'accepted' },
    });
    expect(next).toMatchObject({
      state: 'accepted',
      updatedAt: 't1',
      data: { reasonCode: 'x', refundTransactionNo: 'R1' },
    });
    expect(next.detail).toBeUndefined();
    expect(next.leaseUntil).toBeUndefined();
    expect(next.data).not.toHaveProperty('refundStatus');
  });

  it('the same refund (accepted vs succeeded) agrees; another refund number, another final state, or none disagree', () => {
    const accepted = { to: 'accepted', patch: { data: { refundTransactionNo: 'R1' } } };
    expect(disagrees(accepted, { ...rec, state: 'succeeded', data: { refundTransactionNo: 'R1' } })).toBe(
      false,
    );
    expect(disagrees(accepted, { ...rec, state: 'accepted', data: { refundTransactionNo: 'R2' } })).toBe(
      true,
    );
    expect(disagrees(accepted, { ...rec, state: 'rejected', data: {} })).toBe(true);
    expect(disagrees(accepted, undefined)).toBe(true);
    const rejected = { to: 'rejected', patch: { retCode: 'X' } };
    expect(disagrees(rejected, { ...rec, state: 'rejected' })).toBe(false);
    expect(disagrees(rejected, { ...rec, state: 'accepted', data: { refundTransactionNo: 'R1' } })).toBe(
      true,
    );
    // "Unknown" says nothing another desk's answer could contradict.
    expect(
      disagrees({ to: 'outcome_unknown', patch: { detail: 'timeout' } }, { ...rec, state: 'succeeded' }),
    ).toBe(false);
  });
});
