import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, reason } from './harness';

/**
 * The previous release on the same data directory: the last commit before the database (its refund
 * journal was `refund-journal.jsonl`, and it never reads `refund-desk.db`). Its own sources are taken
 * from git history and its own CLI is run, as it ran (`tsx electron/cli/index.ts`), against the sandbox.
 */
const PREVIOUS_RELEASE = 'd3cc16c183e8a04e1f39f2631c347a0f1f5bfb38';
const repo = resolve(import.meta.dirname, '../../..');

let sb: RunningSandbox;
let oldRelease: string;
const sandboxLog: string[] = [];
const used = new Set<string>();

/** Its sources (CLI, main-process code, shared) in a temporary folder, using today's node_modules. */
function checkOutPreviousRelease(): string {
  try {
    execFileSync('git', ['-C', repo, 'cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `The previous release's commit ${PREVIOUS_RELEASE} (the last before the database) is not in this clone's history, so the test against it cannot run. Fetch the full history (git fetch --unshallow) and run it again.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'rd-previous-release-'));
  const tar = execFileSync('git', [
    '-C',
    repo,
    'archive',
    '--format=tar',
    PREVIOUS_RELEASE,
    'package.json',
    'electron/cli',
    'electron/main',
    'shared',
  ]);
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

beforeAll(async () => {
  oldRelease = checkOutPreviousRelease();
  sb = await startSandbox({
    seed: 11,
    transactions: 200,
    refundSettleMs: 30,
    ipnSchedule: [10],
    log: (l) => void sandboxLog.push(l),
  });
});
afterAll(async () => {
  await sb?.close();
  if (oldRelease) rmSync(oldRelease, { recursive: true, force: true });
});

/** Refund requests that reached the sandbox: what was sent, counted where it arrives. */
const refundRequests = () => sandboxLog.filter((l) => / \/app-data-search\/v\d+\/refund /.test(l)).length;

/** `refund` with the previous release's CLI, on `dataDir`. */
function previousReleaseRefund(
  dataDir: string,
  transactionNo: string,
  amount: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [
    '--import',
    'tsx',
    'electron/cli/index.ts',
    'refund',
    '--base-url',
    sb.baseUrl,
    '--merchant',
    DEMO_MERCHANT.merchantNo,
    '--store',
    DEMO_MERCHANT.storeNo,
    '--transaction-no',
    transactionNo,
    '--amount',
    amount,
    '--currency',
    'USD',
    '--reason',
    'previous release',
    '--yes',
    '--data-dir',
    dataDir,
  ];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: oldRelease,
      env: { ...process.env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const journalPath = (dir: string) => join(dir, 'refund-journal.jsonl');

describe('the previous release on a data directory this version uses', () => {
  it('cannot send a refund there, not even of a payment this version holds 4.00 of as unresolved', async () => {
    // Control: on a folder of its own the previous release sends (it works against this sandbox).
    const control = freshPayment(sb, used);
    let before = refundRequests();
    const own = await previousReleaseRefund(
      mkdtempSync(join(tmpdir(), 'rd-prev-own-')),
      control.transactionNo,
      '1.00',
    );
    expect(own.stdout).toMatch(/outcome\s+accepted/);
    expect(refundRequests()).toBe(before + 1);

    // This version sends 4.00; the service fails before answering, so its outcome is unknown.
    const p = freshPayment(sb, used);
    const dir = mkdtempSync(join(tmpdir(), 'rd-prev-shared-'));
    const desk = buildRefunds(sb, dir);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    try {
      const held = await desk.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 400,
        currency: 'USD',
        ...reason,
      });
      expect(held).toMatchObject({ state: 'outcome_unknown', amountMinor: 400 });
    } finally {
      sb.resetFaults();
      desk.close();
    }

    // The previous release, same payment, same data directory: it stops before sending anything.
    before = refundRequests();
    const old = await previousReleaseRefund(dir, p.transactionNo, '4.00');
    expect(refundRequests()).toBe(before);
    expect(old.code).not.toBe(0);
    expect(old.stdout).not.toMatch(/accepted/);
    expect(old.stderr).toMatch(/EISDIR/);
    // It wrote no journal of its own, and this version's record is as it was.
    expect(statSync(journalPath(dir)).isDirectory()).toBe(true);
    const again = buildRefunds(sb, dir);
    try {
      expect(again.service.list()).toEqual([
        expect.objectContaining({
          state: 'outcome_unknown',
          amountMinor: 400,
          transactionNo: p.transactionNo,
        }),
      ]);
    } finally {
      again.close();
    }
  }, 60_000);

  it('a journal it writes after the import (on a data directory without the guard) is imported at the next start, not renamed unread', async () => {
    const p = freshPayment(sb, used);
    const dir = mkdtempSync(join(tmpdir(), 'rd-prev-later-'));
    // The previous release's data directory: a refund of 1.00 in its journal.
    const first = await previousReleaseRefund(dir, p.transactionNo, '1.00');
    expect(first.stdout).toMatch(/outcome\s+accepted/);
    // This version starts there: it imports that journal.
    buildRefunds(sb, dir).close();
    // A data directory taken over by the first version with the database has no guard (that version
    // also renames the guard away as an old file): the previous release can write a journal again.
    rmSync(journalPath(dir), { recursive: true, force: true });
    const later = await previousReleaseRefund(dir, p.transactionNo, '3.00');
    expect(later.stdout).toMatch(/outcome\s+accepted/);
    const refundTransactionNo = /refundTransactionNo\s+(\d+)/.exec(later.stdout)![1];
    expect(statSync(journalPath(dir)).isFile()).toBe(true);

    const desk = buildRefunds(sb, dir);
    try {
      expect(
        desk.store
          .forPayment(DEMO_MERCHANT.merchantNo, DEMO_MERCHANT.storeNo, p.transactionNo)
          .map((i) => [i.amountMinor, i.state, i.refundTransactionNo === refundTransactionNo]),
      ).toEqual([
        [100, 'accepted', false],
        [300, 'accepted', true],
      ]);
      expect(desk.storage.problems()).toEqual([]);
      // The guard is back in the journal's place; both journals are kept, renamed.
      expect(statSync(journalPath(dir)).isDirectory()).toBe(true);
      expect(readdirSync(dir).filter((n) => n.startsWith('refund-journal.imported-'))).toHaveLength(2);
    } finally {
      desk.close();
    }
  }, 60_000);
});
