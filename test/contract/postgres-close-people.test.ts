import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresCloseStore } from '../../electron/core/adapters/postgres/close-store';
import { createPgPool } from '../../electron/core/adapters/postgres/connection';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../electron/core/adapters/postgres/migrations';
import { addPerson } from '../../electron/core/adapters/postgres/team-admin';
import type { ExceptionRecord } from '../../shared/recon/exceptions';
import { startPostgres, type TestCluster } from '../support/postgres';
import { contractRun } from './close.contract';

/**
 * Month-end close in the team database THROUGH `psql` AS EACH PERSON'S LOGIN (SCRAM passwords) against a
 * real throw-away cluster: what the database refuses or records whatever a desk (or a person with psql)
 * tries. alice is a clerk (maker), bob the controller (checker).
 */
let cluster: TestCluster;
let db: string;
const PW = { alice: 'alice-close-1', bob: 'bob-close-2' } as const;
type Person = keyof typeof PW;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
  db = `close_people_${process.pid}`;
  await cluster.createDatabase(db);
  const owner = { connectionString: cluster.url(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, { login: 'bob', role: 'checker', limits: [] });
}, 60_000);
afterAll(async () => {
  for (const p of pools) await p.end();
  cluster?.stop();
});

const as = (who: Person, sql: string) =>
  cluster.psql(sql, { user: who, password: PW[who], database: db, desk: `desk-${who}` });
const asOwner = (sql: string) => cluster.psql(sql, { user: 'postgres', database: db, desk: 'owner' });
const q = (v: unknown) => `'${JSON.stringify(v).replace(/'/g, "''")}'`;

/** A person's desk: their own login's pool and the close store on it. */
function desk(who: Person, o: { deskSchemaVersion?: number } = {}) {
  const pool = createPgPool({
    connectionString: cluster.loginUrl(who, PW[who], db),
    deskId: `desk-${who}`,
    ...o,
  });
  pools.push(pool);
  return createPostgresCloseStore(pool);
}

/** A run published by alice's desk with its three exceptions stored, as her desk does. */
async function published() {
  const run = contractRun();
  const alice = desk('alice');
  expect(await alice.team!.publish(run.published)).toBe('published');
  const runId = run.facts.runId;
  const recs: ExceptionRecord[] = [1, 3, 4].map((seq) => ({
    runId,
    id: `i${seq}`,
    state: 'open',
    notes: [],
    ageFrom: '2025-06-10',
    ageFromWhat: 'ledger',
    updatedAt: 't0',
    version: 0,
  }));
  await alice.addExceptions(runId, recs);
  return { run, runId, recs, alice };
}
const signOff = (runId: string, by = 'Bob') => ({
  runId,
  by,
  at: '2025-07-03T08:00:00.000Z',
  comment: 'June closed.',
  openAtSignOff: ['i3', 'i4'],
  contentHash: 'c'.repeat(64),
});

describe('month-end close in the team database, through psql as each person', () => {
  it('a maker cannot sign, not even when given the function by mistake; nor write the tables directly', async () => {
    const { runId } = await published();
    const sign = as('alice', `SELECT refund_desk.sign_recon_run(${q(signOff(runId, 'Alice'))})`);
    expect(sign.status).not.toBe(0);
    expect(sign.stderr).toMatch(/permission denied for function sign_recon_run/);
    for (const sql of [
      `INSERT INTO refund_desk.recon_signoffs (run_id, by, at, comment, open_ids, content_hash)
         VALUES ('${runId}', 'Alice', 'x', 'x', '[]', '${'d'.repeat(64)}')`,
      `UPDATE refund_desk.recon_exceptions SET state = 'resolved'`,
      `DELETE FROM refund_desk.recon_exceptions`,
    ])
      expect(as('alice', sql).stderr).toMatch(/permission denied for table recon_(signoffs|exceptions)/);
    // A DBA's mistake (EXECUTE granted to makers) is still refused by the function: only checkers sign.
    expect(
      asOwner('GRANT EXECUTE ON FUNCTION refund_desk.sign_recon_run(jsonb) TO refund_maker').status,
    ).toBe(0);
    try {
      const again = as('alice', `SELECT refund_desk.sign_recon_run(${q(signOff(runId, 'Alice'))})`);
      expect(again.stderr).toMatch(/alice is not a checker: only members of refund_checker sign a run/);
    } finally {
      asOwner('REVOKE EXECUTE ON FUNCTION refund_desk.sign_recon_run(jsonb) FROM refund_maker');
    }
    expect(
      as('bob', `SELECT count(*) FROM refund_desk.recon_signoffs WHERE run_id = '${runId}'`).stdout.trim(),
    ).toBe('0');
  });

  it('the audit is append-only: UPDATE, DELETE and TRUNCATE refused for a maker and for the owner', async () => {
    const { runId, recs, alice } = await published();
    const a = recs[0]!;
    await alice.changeExceptions(runId, [{ before: a, after: { ...a, owner: 'Ann' } }], {
      at: 't1',
      by: 'Alice',
      action: 'update',
    });
    for (const sql of [
      `UPDATE refund_desk.recon_exception_audit SET by = 'someone else'`,
      `DELETE FROM refund_desk.recon_exception_audit`,
      `TRUNCATE refund_desk.recon_exception_audit`,
    ]) {
      const maker = as('alice', sql);
      expect(maker.status).not.toBe(0);
      expect(maker.stderr).toMatch(/permission denied for table recon_exception_audit/);
      const owner = asOwner(sql);
      expect(owner.status).not.toBe(0);
      expect(owner.stderr).toMatch(/recon_exception_audit is append-only/);
    }
    // A published run's figures are never rewritten either.
    expect(asOwner(`UPDATE refund_desk.recon_runs SET items = 0`).stderr).toMatch(
      /recon_runs is append-only/,
    );
    expect(asOwner(`DELETE FROM refund_desk.recon_run_items`).stderr).toMatch(
      /recon_run_items is append-only/,
    );
    const audit = as(
      'bob',
      `SELECT by, by_login, desk_id FROM refund_desk.recon_exception_audit WHERE run_id = '${runId}'`,
    );
    expect(audit.stdout.trim()).toBe('Alice|alice|desk-alice');
  });

  it('a clerk’s change on her connection is what the controller’s connection reads, with her login and desk', async () => {
    const { runId, recs, alice } = await published();
    const a = recs[1]!;
    const note = { at: 't1', by: 'Alice', text: 'Booked on the 1st; clears in July.' };
    expect(
      await alice.changeExceptions(
        runId,
        [{ before: a, after: { ...a, state: 'explained', notes: [note] } }],
        {
          at: 't1',
          by: 'Alice',
          action: 'update',
        },
      ),
    ).toEqual({ ok: true });
    const seen = as(
      'bob',
      `SELECT state, version, notes ->> 0 IS NOT NULL, changed_by, changed_desk FROM refund_desk.recon_exceptions
        WHERE run_id = '${runId}' AND id = 'i3'`,
    );
    expect(seen.stdout.trim()).toBe('explained|1|t|alice|desk-alice');
    const bob = desk('bob');
    expect((await bob.listExceptions(runId)).find((e) => e.id === 'i3')).toMatchObject({
      state: 'explained',
      notes: [note],
      version: 1,
    });
    // The run waits for the controller.
    expect((await bob.team!.awaitingSignOff()).map((r) => r.runId)).toContain(runId);
  });

  it('the controller’s sign-off records session_user and desk; then the run refuses every change, the owner’s too', async () => {
    const { runId, recs, alice } = await published();
    const signed = as('bob', `SELECT refund_desk.sign_recon_run(${q(signOff(runId))})`);
    expect(signed.stderr).toBe('');
    expect(signed.stdout.trim()).toBe('ok');
    const row = as(
      'alice',
      `SELECT by, signed_login, signed_desk FROM refund_desk.recon_signoffs WHERE run_id = '${runId}'`,
    );
    expect(row.stdout.trim()).toBe('Bob|bob|desk-bob');
    expect(
      as(
        'alice',
        `SELECT action, by_login, desk_id FROM refund_desk.recon_exception_audit WHERE run_id = '${runId}' AND action = 'sign_off'`,
      ).stdout.trim(),
    ).toBe('sign_off|bob|desk-bob');
    // Through the function: refused; directly, as the owner: the trigger refuses.
    const a = recs[0]!;
    expect(
      await alice.changeExceptions(runId, [{ before: a, after: { ...a, state: 'resolved' } }], {
        at: 't2',
        by: 'Alice',
        action: 'update',
      }),
    ).toEqual({ ok: false, reason: 'signed' });
    for (const sql of [
      `UPDATE refund_desk.recon_exceptions SET state = 'resolved' WHERE run_id = '${runId}'`,
      `DELETE FROM refund_desk.recon_exceptions WHERE run_id = '${runId}'`,
      `INSERT INTO refund_desk.recon_exceptions (run_id, id, state, notes, age_from, age_from_what, updated_at, version)
         VALUES ('${runId}', 'c9', 'open', '[]', 'd', 'run', 't', 0)`,
    ])
      expect(asOwner(sql).stderr).toMatch(new RegExp(`run ${runId} signed: its exceptions cannot change`));
    expect(asOwner(`UPDATE refund_desk.recon_signoffs SET by = 'Eve'`).stderr).toMatch(/append-only/);
    expect((await desk('bob').team!.awaitingSignOff()).map((r) => r.runId)).not.toContain(runId);
  });

  it('a run is published once: the same record again changes nothing, another record is refused', async () => {
    const { run } = await published();
    const bob = desk('bob');
    expect(await bob.team!.publish(run.published)).toBe('already');
    await expect(bob.team!.publish({ ...run.published, recordHash: 'e'.repeat(64) })).rejects.toThrow(
      /was published with another record \(by alice at desk desk-alice\)/,
    );
    // Items are added only in the publishing transaction.
    const late = as('alice', `SELECT refund_desk.add_recon_run_items('${run.facts.runId}', '[]')`);
    expect(late.stderr).toMatch(/added only in the transaction that publishes it/);
    const read = await bob.team!.readRun(run.facts.runId);
    expect(read).toMatchObject({ runId: run.facts.runId, publishedBy: 'alice', publishedDesk: 'desk-alice' });
    expect(read!.facts).toEqual(run.facts);
  });

  it('a desk of another schema version refuses to write the close', async () => {
    const { runId, recs } = await published();
    const old = desk('alice', { deskSchemaVersion: DESK_SCHEMA_VERSION - 1 });
    const a = recs[0]!;
    await expect(
      old.changeExceptions(runId, [{ before: a, after: { ...a, owner: 'Old' } }], {
        at: 't',
        by: 'Alice',
        action: 'update',
      }),
    ).rejects.toThrow(/update Refund Desk/);
    expect(
      as(
        'bob',
        `SELECT owner IS NULL FROM refund_desk.recon_exceptions WHERE run_id = '${runId}' AND id = 'i1'`,
      ).stdout.trim(),
    ).toBe('t');
  });
});
