/**
 * A refund whose answer came but could not be recorded (the disk was full) is told as exactly that —
 * never as a process that "stopped before the service answered" — and is settled by a query of its
 * reference. The refund goes to the real sandbox over HTTP except where the service's refusal is
 * played at the gateway edge; the database is a real SQLite file whose writes fail as SQLite's do on a
 * full disk, and a second desk on the same folder is the restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, translate } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteRefundStore } from '../../../electron/core/adapters/sqlite/refund-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { rejectionError } from '../../../electron/core/services/gateway/errors';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

/** A desk whose every state change fails as on a full disk while `disk.full` is set. */
function deskOnFullDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'rd-unrecorded-'));
  const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
  const store = createSqliteRefundStore(db);
  const disk = { full: false };
  const full = Object.assign(new Error('database or disk is full'), { errcode: 13 });
  const failing = {
    ...store,
    transition: (...args: Parameters<typeof store.transition>) => {
      if (disk.full) throw translate(full, db.path);
      return store.transition(...args);
    },
  };
  const desk = buildRefunds(sb, dir, {}, 3000, { store: failing });
  return { dir, disk, desk };
}

/** The service refuses the refund outright (000023): no money moves. */
const refusing = (desk: ReturnType<typeof buildRefunds>) =>
  Object.assign(desk.gateway, {
    refund: async () => {
      throw rejectionError('refund', '000023', 'refundAmount is not valid');
    },
  });

async function rejectedOnFullDisk() {
  const { dir, disk, desk } = deskOnFullDisk();
  refusing(desk);
  const p = freshPayment(sb, used);
  disk.full = true;
  await expect(
    desk.service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: 'USD', ...reason }),
  ).rejects.toMatchObject({ code: 'unavailable', details: { moneyMoved: 'no' } });
  expect(desk.service.list()[0]!.state).toBe('sending');
  return { dir, disk, desk };
}

/** A restart: another desk on the same data directory, whose sender process is gone. */
async function restartedIntent(dir: string) {
  const restarted = buildRefunds(sb, dir, {}, 3000, { senderAlive: () => false });
  await restarted.service.resumeAll();
  return restarted.service.list()[0]!;
}

describe('an answer that could not be recorded', () => {
  it('a refund the service rejected on a full disk says so after the disk is freed and the desk restarts', async () => {
    const { dir, disk, desk } = await rejectedOnFullDisk();
    // The disk is freed while the app still runs: its sweep records what it knows, then checks.
    disk.full = false;
    await desk.service.sweepOrphans();
    const intent = await restartedIntent(dir);
    expect(intent.state).toBe('outcome_unknown');
    expect(intent.detail).toMatch(
      /^The service rejected this refund “refundAmount is not valid” \(000023\), but Refund Desk could not record its answer \(the disk is full\)\. It is settled by looking the refund up by its reference\.$/,
    );
    // Settled by query: the service lists no refund with this reference.
    expect(intent.lastCheck).toMatchObject({
      found: false,
      note: expect.stringMatching(/none carries reference/),
    });
  });

  it('a sender gone before anything could be recorded does not claim the service never answered', async () => {
    const { dir } = await rejectedOnFullDisk();
    // The process is killed with the disk still full: the restarted desk knows only that much.
    const intent = await restartedIntent(dir);
    expect(intent.state).toBe('outcome_unknown');
    expect(intent.detail).toMatch(/stopped before it recorded an answer from the service/);
    expect(intent.detail).not.toMatch(/before the service answered/);
  });
});
