import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../../electron/sandbox/index';
import { acceptedRefund, journalLine, legacyDraft, sentUnanswered, writeJournal } from './legacy-journal';

const PROCESSES = 6;
const INTENTS = 2000;
const AUDIT_ENTRIES = 500;

/** The files of a version before the database, with many refunds: its first start takes a while. */
function bigOldDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rd-first-start-'));
  const lines: string[] = [];
  for (let i = 0; i < INTENTS; i += 1) {
    const draft = legacyDraft(
      `RD0OLD${String(i).padStart(6, '0')}`,
      `2975536383${String(i).padStart(8, '0')}`,
    );
    if (i % 4 === 0) lines.push(...sentUnanswered(draft));
    else
      lines.push(
        ...acceptedRefund(draft, `9${String(i).padStart(17, '0')}`),
        journalLine({
          type: 'final',
          at: '2026-11-01T10:05:00.000Z',
          id: draft['id'],
          status: 'succeeded',
          refundStatus: 'success',
        }),
      );
  }
  writeJournal(dir, lines);
  const audit = Array.from({ length: AUDIT_ENTRIES }, (_, i) =>
    journalLine({
      at: `2026-11-01T10:00:01.${String(i).padStart(3, '0')}Z`,
      outcome: 'accepted',
      operator: 'Ana',
      profileId: 'cli:200043:300014',
      profileName: 'CLI',
      environment: 'custom',
      intentId: `RD0OLD${String(i).padStart(6, '0')}`,
      transactionNo: `2975536383${String(i).padStart(8, '0')}`,
      amountMinor: 1000,
      currency: 'USD',
      reasonCode: 'other',
      reasonNote: '',
      merchantNo: DEMO_MERCHANT.merchantNo,
    }),
  );
  writeFileSync(join(dir, 'audit.jsonl'), audit.join('\n') + '\n');
  return dir;
}

interface ChildReport {
  crashed?: string;
  imported: { intents: number; problems: number }[];
  errors: unknown[];
  untrusted: string | null;
  problems: { name: string; detail: string }[];
  intents: number;
}

const message = (c: ChildProcess) => new Promise<unknown>((done) => c.once('message', done));

it(`${PROCESSES} processes starting at once on one data directory import the old journal exactly once; the others do nothing`, async () => {
  const dir = bigOldDataDir();
  const children = Array.from({ length: PROCESSES }, () =>
    fork(resolve(import.meta.dirname, 'first-start-child.ts'), [dir], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
  try {
    // Barrier: every child has loaded the app before any of them opens the data directory.
    expect(await Promise.all(children.map(message))).toEqual(children.map(() => 'ready'));
    const reports = children.map(message) as Promise<ChildReport>[];
    for (const c of children) c.send('go');
    const seen = await Promise.all(reports);

    expect(seen.filter((r) => r.crashed)).toEqual([]);
    // Exactly one import, of everything; the others imported nothing and reported nothing.
    expect(seen.flatMap((r) => r.imported)).toEqual([
      expect.objectContaining({ intents: INTENTS, problems: 0 }),
    ]);
    for (const r of seen) {
      // No ENOENT on a rename another process did first, so refunds are not paused anywhere.
      expect(r.errors).toEqual([]);
      expect(r.untrusted).toBeNull();
      expect(r.problems).toEqual([]);
      expect(r.intents).toBe(INTENTS);
    }
  } finally {
    for (const c of children) c.kill();
  }

  const db = new DatabaseSync(join(dir, 'refund-desk.db'));
  try {
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    expect(count('SELECT COUNT(*) AS n FROM import_problems')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM intents')).toBe(INTENTS);
    expect(count('SELECT COUNT(*) AS n FROM audit')).toBe(AUDIT_ENTRIES);
    // The record of the import is the import's own, not overwritten by a process that imported nothing.
    const record = db.prepare(`SELECT value FROM meta WHERE key = 'legacy_import'`).get() as {
      value: string;
    };
    expect(JSON.parse(record.value)).toMatchObject({
      intents: INTENTS,
      auditEntries: AUDIT_ENTRIES,
      problems: 0,
    });
  } finally {
    db.close();
  }
  const names = readdirSync(dir);
  expect(names.filter((n) => n.startsWith('refund-journal.imported-'))).toHaveLength(1);
  expect(names.filter((n) => n.startsWith('audit.imported-'))).toHaveLength(1);
  expect(statSync(join(dir, 'refund-journal.jsonl')).isDirectory()).toBe(true);
}, 120_000);
