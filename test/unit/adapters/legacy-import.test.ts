import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { createFakeLogger } from '../../fakes/logger';

/** A line as earlier versions wrote it: `{"c":"<sha256(d), 16 hex>","d":<json>}`. */
const line = (value: unknown) => {
  const d = JSON.stringify(value);
  return `{"c":"${createHash('sha256').update(d).digest('hex').slice(0, 16)}","d":${d}}`;
};
const draft = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  profileId: 'P1',
  profileName: 'Live',
  environment: 'production',
  merchantNo: '200043',
  storeNo: '300014',
  transactionNo: `29755363830070${id.slice(-4)}`,
  amountMinor: 1000,
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'duplicate',
  reasonNote: '',
  operator: 'Ana',
  createdAt: '2026-11-01T10:00:00.000Z',
  ...over,
});
const at = '2026-11-01T10:00:01.000Z';
const open = (dataDir: string) =>
  openAppStorage({
    dataDir,
    now: () => Date.parse('2026-11-22T12:00:00Z'),
    log: createFakeLogger(),
    baseUrlFor: (id) => (id === 'P1' ? 'https://mapi.yuansfer.com' : undefined),
  });

describe('one-time import of the earlier JSON-lines files', () => {
  it('imports every intent it can, reports every line it cannot, and keeps the originals renamed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-import-'));
    const journal = [
      // RD0001: a complete, settled refund.
      line({ type: 'created', at, intent: draft('RD0001') }),
      line({ type: 'sent', at, id: 'RD0001', intent: draft('RD0001') }),
      line({
        type: 'accepted',
        at,
        id: 'RD0001',
        refundTransactionNo: '900000000000000001',
        refundStatus: 'pending',
        via: 'response',
      }),
      line({ type: 'final', at, id: 'RD0001', status: 'succeeded', refundStatus: 'success' }),
      // RD0002: sent, never answered (the app stopped) → unknown, resolved later by query.
      line({ type: 'created', at, intent: draft('RD0002') }),
      line({ type: 'sent', at, id: 'RD0002', intent: draft('RD0002') }),
      // RD0003: its `created` line has a bad checksum; the `sent` line still carries the whole intent.
      line({ type: 'created', at, intent: draft('RD0003') }).replace(
        /"c":"(.)/,
        (_m, c: string) => `"c":"${c === '0' ? '1' : '0'}`,
      ),
      line({ type: 'sent', at, id: 'RD0003', intent: draft('RD0003') }),
      // Duplicates (a line written twice).
      line({ type: 'sent', at, id: 'RD0002', intent: draft('RD0002') }),
      // Wrong shape, though correctly checksummed.
      line({ type: 'created', at, intent: { id: 'RD0004' } }),
      line({ type: 'teleported', at, id: 'RD0001' }),
      // Garbage.
      'this is not a journal line',
      // RD0005 from the CLI: address unknown.
      line({
        type: 'created',
        at,
        intent: draft('RD0005', { profileId: 'cli:200043:300014', profileName: 'CLI' }),
      }),
      line({
        type: 'sent',
        at,
        id: 'RD0005',
        intent: draft('RD0005', { profileId: 'cli:200043:300014', profileName: 'CLI' }),
      }),
      line({ type: 'outcome_unknown', at, id: 'RD0005', detail: 'HTTP 503' }),
      // RD0006: created, never sent — but the journal is damaged, so "not sent" cannot be proven.
      line({ type: 'created', at, intent: draft('RD0006') }),
    ];
    // CRLF endings (edited on Windows) and a torn last line (the app died while writing).
    writeFileSync(
      join(dataDir, 'refund-journal.jsonl'),
      journal.join('\r\n') + '\r\n' + line({ type: 'created', at, intent: draft('RD0007') }).slice(0, 40),
    );
    writeFileSync(
      join(dataDir, 'audit.jsonl'),
      [
        line({
          at,
          outcome: 'accepted',
          operator: 'Ana',
          profileId: 'P1',
          profileName: 'Live',
          environment: 'production',
          intentId: 'RD0001',
          transactionNo: '1',
          amountMinor: 1000,
          currency: 'USD',
          reasonCode: 'duplicate',
          reasonNote: '',
        }),
        line({ nonsense: true }),
      ].join('\n') + '\n',
    );
    writeFileSync(
      join(dataDir, 'ipn-events.jsonl'),
      line({ profileId: 'P1', kind: 'payment', transactionNo: '1', status: 'success', receivedAt: at }) +
        '\n',
    );
    mkdirSync(join(dataDir, 'recon'));
    writeFileSync(
      join(dataDir, 'recon', 'RC1.job.json'),
      JSON.stringify({
        version: 1,
        id: 'RC1',
        profileId: 'P1',
        label: 'ledger.csv',
        createdAt: at,
        keys: ['tx:1', 'tx:2'],
      }),
    );
    writeFileSync(
      join(dataDir, 'recon', 'RC1.results.jsonl'),
      JSON.stringify({ key: 'tx:1', lookup: { kind: 'not_found' } }) + '\n{"key":"tx:2","lo',
    );

    const storage = open(dataDir);
    const intents = new Map(storage.refunds.list().map((i) => [i.id, i]));

    expect(intents.get('RD0001')).toMatchObject({
      state: 'succeeded',
      baseUrl: 'https://mapi.yuansfer.com',
      refundTransactionNo: '900000000000000001',
    });
    expect(intents.get('RD0002')).toMatchObject({
      state: 'outcome_unknown',
      detail: expect.stringMatching(/stopped before the service answered/),
    });
    expect(intents.get('RD0003')).toMatchObject({ state: 'outcome_unknown', amountMinor: 1000 });
    expect(intents.get('RD0005')).toMatchObject({
      state: 'outcome_unknown',
      baseUrl: '',
      profileId: 'cli:200043:300014',
    });
    expect(intents.get('RD0006')).toMatchObject({
      state: 'outcome_unknown',
      detail: expect.stringMatching(/damaged lines/),
    });

    // Every line that was not imported reaches the person (health), with its line number and why.
    const problems = storage.problems().find((p) => p.name === 'journal-import')!;
    expect(problems.detail).toMatch(/^8 line\(s\) of the earlier refund files could not be imported/);
    expect(problems.detail).toMatch(
      /refund-journal\.jsonl line 7: checksum mismatch .*it mentions refund RD0003/,
    );
    expect(intents.has('RD0004')).toBe(false);
    expect(intents.has('RD0007')).toBe(false);
    expect(storage.refunds.audit.list()).toHaveLength(1);
    storage.close();
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(join(dataDir, 'refund-desk.db'));
    const rows = raw.prepare('SELECT source, line, reason FROM import_problems ORDER BY id').all() as {
      source: string;
      line: number;
      reason: string;
    }[];
    raw.close();
    expect(rows.map((r) => `${r.source}:${r.line}: ${r.reason}`)).toEqual([
      'refund-journal.jsonl:7: checksum mismatch (the line was changed or damaged); it mentions refund RD0003',
      'refund-journal.jsonl:9: duplicate or out of order: intent RD0002 is already sent',
      'refund-journal.jsonl:10: wrong shape (the intent is incomplete)',
      'refund-journal.jsonl:11: wrong shape (unknown event type)',
      'refund-journal.jsonl:12: not a journal line',
      'refund-journal.jsonl:17: incomplete last line (the app stopped while writing it)',
      'audit.jsonl:2: wrong shape',
      'recon/RC1.results.jsonl:2: unreadable answer; it will be looked up again',
    ]);

    const names = readdirSync(dataDir);
    for (const f of ['refund-journal', 'audit', 'ipn-events'])
      expect(names.some((n) => n.startsWith(`${f}.imported-`) && n.endsWith('.jsonl'))).toBe(true);
    expect(names.some((n) => n.startsWith('recon.imported-'))).toBe(true);
    // In the old journal's place: the guard that keeps versions before the database from refunding here.
    expect(statSync(join(dataDir, 'refund-journal.jsonl')).isDirectory()).toBe(true);

    // A second start imports nothing again.
    const again = open(dataDir);
    expect(again.refunds.list()).toHaveLength(5);
    expect(again.refunds.audit.list()).toHaveLength(1);
    again.close();
  });

  it('lists every import problem in the database with line and reason', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-import-'));
    writeFileSync(
      join(dataDir, 'refund-journal.jsonl'),
      [
        'garbage',
        line({ type: 'sent', at, id: 'RD9' }),
        line({ type: 'created', at, intent: draft('RD0010') }),
      ].join('\n'),
    );
    const storage = open(dataDir);
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(join(dataDir, 'refund-desk.db'));
    const rows = raw.prepare('SELECT source, line, reason FROM import_problems ORDER BY id').all();
    raw.close();
    expect(rows).toEqual([
      { source: 'refund-journal.jsonl', line: 1, reason: 'not a journal line' },
      {
        source: 'refund-journal.jsonl',
        line: 2,
        reason: 'refers to intent RD9, which no earlier line creates',
      },
    ]);
    // The last line had no newline after it but is whole: imported. Damage elsewhere → not provably unsent.
    expect(storage.refunds.get('RD0010')).toMatchObject({ state: 'outcome_unknown' });
    storage.close();
  });
});

describe('files an older version writes after the import', () => {
  const journalLines = (ids: string[]) =>
    ids.flatMap((id) => [
      line({ type: 'created', at, intent: draft(id) }),
      line({ type: 'sent', at, id, intent: draft(id) }),
    ]);
  const auditLine = (intentId: string) =>
    line({
      at,
      outcome: 'outcome_unknown',
      operator: 'Ana',
      profileId: 'P1',
      profileName: 'Live',
      environment: 'production',
      intentId,
      transactionNo: '1',
      amountMinor: 1000,
      currency: 'USD',
      reasonCode: 'duplicate',
      reasonNote: '',
    });
  const importedName = (dataDir: string, base: string) =>
    readdirSync(dataDir).find((n) => n.startsWith(`${base}.imported-`))!;
  const importProblems = async (dataDir: string) => {
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(join(dataDir, 'refund-desk.db'));
    const n = (raw.prepare('SELECT COUNT(*) AS n FROM import_problems').get() as { n: number }).n;
    raw.close();
    return n;
  };

  it('a journal imported before and since appended to: only its new lines are imported', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-import-'));
    const head = journalLines(['RD0101', 'RD0102']).join('\n') + '\n';
    writeFileSync(join(dataDir, 'refund-journal.jsonl'), head);
    writeFileSync(join(dataDir, 'audit.jsonl'), auditLine('RD0101') + '\n');
    open(dataDir).close();
    // The same files again (an older version kept them open and wrote on): what they held is known.
    rmSync(join(dataDir, 'refund-journal.jsonl'), { recursive: true, force: true });
    const journalAgain = readFileSync(join(dataDir, importedName(dataDir, 'refund-journal')), 'utf8');
    const auditAgain = readFileSync(join(dataDir, importedName(dataDir, 'audit')), 'utf8');
    writeFileSync(
      join(dataDir, 'refund-journal.jsonl'),
      journalAgain +
        [
          line({
            type: 'accepted',
            at,
            id: 'RD0102',
            refundTransactionNo: '900000000000000102',
            refundStatus: 'pending',
            via: 'query',
          }),
          ...journalLines(['RD0103']),
        ].join('\n') +
        '\n',
    );
    writeFileSync(join(dataDir, 'audit.jsonl'), auditAgain + auditLine('RD0103') + '\n');

    const storage = open(dataDir);
    expect(storage.refunds.list().map((i) => [i.id, i.state])).toEqual([
      ['RD0103', 'outcome_unknown'],
      ['RD0102', 'outcome_unknown'],
      ['RD0101', 'outcome_unknown'],
    ]);
    // RD0102's new line changes what it was imported as: said, with what to do (it stays unknown,
    // blocks its payment and is resolved by query).
    expect(storage.problems().find((p) => p.name === 'journal-import')?.detail).toMatch(
      /refund RD0102 is already in the database \(imported earlier as outcome_unknown\); this copy \(accepted\) was not imported/,
    );
    expect(storage.refunds.audit.list().map((e) => e.intentId)).toEqual(['RD0103', 'RD0101']);
    storage.close();
    expect(await importProblems(dataDir)).toBe(1);
  });

  it('a journal imported before, found again unchanged: only renamed, nothing imported twice or reported', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-import-'));
    const text = journalLines(['RD0201']).join('\n') + '\n';
    writeFileSync(join(dataDir, 'refund-journal.jsonl'), text);
    writeFileSync(join(dataDir, 'audit.jsonl'), auditLine('RD0201') + '\n');
    open(dataDir).close();
    rmSync(join(dataDir, 'refund-journal.jsonl'), { recursive: true, force: true });
    writeFileSync(join(dataDir, 'refund-journal.jsonl'), text);
    writeFileSync(join(dataDir, 'audit.jsonl'), auditLine('RD0201') + '\n');

    const log = createFakeLogger();
    const storage = openAppStorage({ dataDir, now: () => Date.parse('2026-11-23T12:00:00Z'), log });
    expect(log.lines.filter((l) => l.event === 'storage.imported')).toEqual([]);
    expect(storage.refunds.list()).toHaveLength(1);
    expect(storage.refunds.audit.list()).toHaveLength(1);
    expect(storage.problems()).toEqual([]);
    storage.close();
    expect(readdirSync(dataDir).filter((n) => n.startsWith('refund-journal.imported-'))).toHaveLength(2);
    expect(readdirSync(dataDir).filter((n) => n.startsWith('audit.imported-'))).toHaveLength(2);
  });

  it('a file the first database version imported and could not rename: only renamed; one written after that import: imported', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-import-'));
    writeFileSync(join(dataDir, 'refund-journal.jsonl'), journalLines(['RD0301']).join('\n') + '\n');
    writeFileSync(join(dataDir, 'audit.jsonl'), auditLine('RD0301') + '\n');
    open(dataDir).close();
    // As that version recorded its import: one record, no per-file records, taken after the files were
    // written.
    const raw = new DatabaseSync(join(dataDir, 'refund-desk.db'));
    raw.exec(`DELETE FROM meta`);
    const importedAt = new Date(Date.now() + 60_000);
    raw
      .prepare(`INSERT INTO meta (key, value) VALUES ('legacy_import', ?)`)
      .run(JSON.stringify({ at: importedAt.toISOString(), intents: 1, auditEntries: 1, problems: 0 }));
    raw.close();
    rmSync(join(dataDir, 'refund-journal.jsonl'), { recursive: true, force: true });
    // Its rename was interrupted: the audit file is still there, last written before the import.
    writeFileSync(join(dataDir, 'audit.jsonl'), auditLine('RD0301') + '\n');
    utimesSync(
      join(dataDir, 'audit.jsonl'),
      new Date(importedAt.getTime() - 1000),
      new Date(importedAt.getTime() - 1000),
    );
    // An older version wrote a new journal after that import.
    writeFileSync(join(dataDir, 'refund-journal.jsonl'), journalLines(['RD0302']).join('\n') + '\n');
    utimesSync(
      join(dataDir, 'refund-journal.jsonl'),
      new Date(importedAt.getTime() + 1000),
      new Date(importedAt.getTime() + 1000),
    );

    const storage = open(dataDir);
    expect(storage.refunds.list().map((i) => i.id)).toEqual(['RD0302', 'RD0301']);
    expect(storage.refunds.audit.list()).toHaveLength(1);
    expect(storage.problems()).toEqual([]);
    storage.close();
  });
});

describe('the guard against versions before the database', () => {
  it('is placed on every data directory this version opens, with why in it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-guard-'));
    open(dataDir).close();
    expect(statSync(join(dataDir, 'refund-journal.jsonl')).isDirectory()).toBe(true);
    expect(readFileSync(join(dataDir, 'refund-journal.jsonl', 'README.txt'), 'utf8')).toMatch(
      /Do not delete or rename this folder/,
    );
    // Opening again leaves it as it is.
    open(dataDir).close();
    expect(statSync(join(dataDir, 'refund-journal.jsonl')).isDirectory()).toBe(true);
  });

  it('with a database that cannot be read: placed where no old journal is; an old journal stays untouched', () => {
    for (const withJournal of [false, true]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'rd-guard-'));
      writeFileSync(
        join(dataDir, 'refund-desk.db'),
        'this is not a database, it is long enough to look like one',
      );
      const journal = journalLine();
      if (withJournal) writeFileSync(join(dataDir, 'refund-journal.jsonl'), journal);
      const storage = open(dataDir);
      expect(storage.untrusted()).toBeDefined();
      storage.close();
      if (withJournal) expect(readFileSync(join(dataDir, 'refund-journal.jsonl'), 'utf8')).toBe(journal);
      else expect(statSync(join(dataDir, 'refund-journal.jsonl')).isDirectory()).toBe(true);
    }
  });
});

function journalLine(): string {
  return line({ type: 'created', at, intent: draft('RD0401') }) + '\n';
}
