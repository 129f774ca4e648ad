import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/core/adapters/sqlite/app-storage';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { runCli } from '../../../electron/hosts/cli/main';
import { createFakeLogger } from '../../fakes/logger';

/**
 * A database that cannot be opened (damaged, or written by a newer version) leaves the app running on
 * an empty stand-in. Its lists must then say the database cannot be read and what to do — never
 * "0 refunds", which a person (or a script exporting them) would take for the truth.
 */
const damaged = (d: string) =>
  writeFileSync(join(d, DATABASE_FILE), Buffer.from('not a database at all'.padEnd(8192, '#')));
const newer = (d: string) => {
  const raw = new DatabaseSync(join(d, DATABASE_FILE));
  raw.exec('PRAGMA user_version = 99');
  raw.close();
};

describe('an unreadable database is told, not listed as empty', () => {
  it.each([
    ['damaged', damaged, /damaged.*restore it from a backup/s],
    ['written by a newer version', newer, /newer version.*Install the newer Refund Desk again/s],
  ])(
    '%s: refunds.list and audit.list answer that it cannot be read, and what to do',
    async (_what, make, todo) => {
      const d = mkdtempSync(join(tmpdir(), 'rd-unreadable-'));
      make(d);
      const core = await createNodeCore({
        host: 'browser',
        dataDir: d,
        demo: false,
        log: createFakeLogger(),
      });
      try {
        for (const channel of ['refunds.list', 'audit.list']) {
          const r = await core.dispatch(channel, { allProfiles: true });
          expect(r, channel).toMatchObject({
            ok: false,
            error: {
              code: 'unavailable',
              message: expect.stringMatching(/^Refund Desk cannot read its database/),
              details: { storage: 'unreadable' },
            },
          });
          expect((r as { error: { message: string } }).error.message).toMatch(todo);
        }
      } finally {
        await core.close();
      }
    },
  );

  it('`export refunds` from a damaged database fails with the reason instead of writing an empty file', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rd-unreadable-'));
    damaged(d);
    const err: string[] = [];
    const io: CliIo = { out: () => undefined, err: (l) => void err.push(l), env: {} };
    const out = join(d, 'refunds.csv');
    expect(await runCli(['export', 'refunds', '--data-dir', d, '--out', out], io)).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(err.join('\n')).toMatch(/cannot read its database.*damaged/s);
  });
});
