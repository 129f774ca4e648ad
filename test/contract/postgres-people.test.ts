import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../electron/core/adapters/postgres/migrations';
import { addPerson, setPolicy } from '../../electron/core/adapters/postgres/team-admin';
import { startPostgres, type TestCluster } from '../support/postgres';

/**
 * People, not desks, and four-eyes — tested THROUGH `psql` (the real client) AS EACH PERSON'S LOGIN,
 * with passwords (SCRAM), against a real throw-away cluster: what the database refuses whatever a desk
 * (or a person with psql) tries. alice is a maker; bob a checker up to 1000.00 USD; carol a checker up
 * to 50.00 USD; dave is both maker and checker (a DBA may do that), to show self-approval is refused by
 * the database's rule and not only by group membership. The account's policy: approval above 100.00 USD.
 */
let cluster: TestCluster;
let db: string;
const PW = { alice: 'alice-pw-1', bob: 'bob-pw-2', carol: 'carol-pw-3', dave: 'dave-pw-4' } as const;
type Person = keyof typeof PW;

beforeAll(async () => {
  cluster = await startPostgres();
  db = `people_${process.pid}`;
  await cluster.createDatabase(db);
  const owner = { connectionString: cluster.url(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, {
    login: 'bob',
    role: 'checker',
    limits: [{ currency: 'USD', upToMinor: 100_000 }],
  });
  await addPerson(owner, {
    login: 'carol',
    role: 'checker',
    limits: [{ currency: 'USD', upToMinor: 5_000 }],
  });
  await addPerson(owner, {
    login: 'dave',
    role: 'checker',
    limits: [{ currency: 'USD', upToMinor: 100_000 }],
  });
  await ownerSql('GRANT refund_maker TO dave');
  await setPolicy(owner, {
    merchantNo: '200043',
    storeNo: '300014',
    currency: 'USD',
    approvalAboveMinor: 10_000,
    expireHours: 24,
  });
}, 60_000);
afterAll(() => cluster?.stop());

async function ownerSql(sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: cluster.url(db) });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as Array<Record<string, unknown>>;
  } finally {
    await c.end();
  }
}

/** psql as a person (with their password), from their desk. */
const as = (who: Person, sql: string, desk = `desk-${who}`) =>
  cluster.psql(sql, { user: who, password: PW[who], database: db, desk });
/** psql as the database owner (the superuser here): the owner's ordinary session. */
const asOwner = (sql: string) => cluster.psql(sql, { user: 'postgres', database: db, desk: 'owner' });

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A refund as a desk sends it to the functions (jsonb with the table's column names). */
const refund = (
  id: string,
  transactionNo: string,
  amountMinor: number,
  extra: Record<string, unknown> = {},
) =>
  q(
    JSON.stringify({
      id,
      kind: 'refund',
      state: 'sending',
      profile_id: 'p',
      profile_name: 'P',
      environment: 'demo',
      base_url: '',
      merchant_no: '200043',
      store_no: '300014',
      transaction_no: transactionNo,
      amount_minor: amountMinor,
      currency: 'USD',
      settle_currency: 'USD',
      operator: 'x',
      created_at: '2026-11-26T00:00:00.000Z',
      updated_at: '2026-11-26T00:00:00.000Z',
      data: { reasonCode: 'other' },
      ...extra,
    }),
  );
const request = (who: Person, id: string, tx: string, amountMinor: number, reason = 'customer complaint') =>
  as(
    who,
    `SELECT id, state, requested_by, requested_desk FROM refund_desk.request_refund(${refund(id, tx, amountMinor, { reason })}, '{}')`,
  );

describe('team database through psql as each person', () => {
  it('a password is required: a wrong one is refused, the right one connects as that person', () => {
    const wrong = cluster.psql('SELECT 1', { user: 'alice', password: 'nope', database: db });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toMatch(/password authentication failed for user "alice"/);
    expect(as('alice', 'SELECT session_user').stdout.trim()).toBe('alice');
  });

  it('a maker cannot INSERT, UPDATE or DELETE the tables directly, only call the functions', () => {
    const insert = as(
      'alice',
      `INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url,
         merchant_no, store_no, transaction_no, amount_minor, currency, settle_currency, operator, created_at, updated_at)
       VALUES ('RAW', 'refund', 'sending', 'p', 'P', 'demo', '', '200043', '300014', '1', 100, 'USD', 'USD', 'x', 'x', 'x')`,
    );
    expect(insert.status).not.toBe(0);
    expect(insert.stderr).toMatch(/permission denied for table intents/);
    expect(as('alice', `UPDATE refund_desk.intents SET state = 'succeeded'`).stderr).toMatch(
      /permission denied/,
    );
    expect(as('alice', 'DELETE FROM refund_desk.approval_policies').stderr).toMatch(/permission denied/);
    expect(as('alice', `INSERT INTO refund_desk.approval_limits VALUES ('alice', 'USD', 1)`).stderr).toMatch(
      /permission denied/,
    );
    // Through the function: recorded, stamped with the person and the desk the connection announced.
    const ok = as(
      'alice',
      `SELECT state, created_by, created_desk FROM refund_desk.insert_intent(${refund('RM1', '1001', 5_000)}, 60000, '{"at":"t","type":"decided"}')`,
      'desk-7',
    );
    expect(ok.stderr).toBe('');
    expect(ok.stdout.trim()).toBe('sending|alice|desk-7');
    // A viewer group member reads; nothing was written by the refused statements.
    expect(as('alice', `SELECT count(*) FROM refund_desk.intents WHERE id = 'RAW'`).stdout.trim()).toBe('0');
  });

  it('above the policy a refund cannot be recorded as sending: it is requested, awaiting approval, nothing sent, and counts as open', () => {
    const direct = as(
      'alice',
      `SELECT * FROM refund_desk.insert_intent(${refund('RBIG', '2001', 15_000)}, 60000, '{"at":"t","type":"decided"}')`,
    );
    expect(direct.status).not.toBe(0);
    expect(direct.stderr).toMatch(/above this account's approval limit/);
    // Nor by moving a smaller-looking final record into sending.
    as(
      'alice',
      `SELECT 1 FROM refund_desk.insert_intent(${refund('RBIG2', '2002', 15_000, { state: 'refused' })}, NULL, '{"at":"t","type":"x"}')`,
    );
    const sneak = as(
      'alice',
      `SELECT * FROM refund_desk.transition_intent('RBIG2', '{refused}', 'sending', '{}', '{"at":"t","type":"x"}')`,
    );
    expect(sneak.stderr).toMatch(/above this account's approval limit/);

    const r = request('alice', 'RQ1', '2001', 15_000);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('RQ1|awaiting_approval|alice|desk-alice');
    // Awaiting approval is open: no second request, and no refund sent beside it, for the same payment.
    expect(request('alice', 'RQ1b', '2001', 1_000).stderr).toMatch(/intents_one_open_refund/);
    const beside = as(
      'alice',
      `SELECT count(*) FROM refund_desk.insert_intent(${refund('RSMALL', '2001', 1_000)}, 60000, '{"at":"t","type":"d"}')`,
    );
    expect(beside.stdout.trim()).toBe('0');
    // The request is audited with person, desk and server time; its exact amount, currency and reason kept.
    const audit = as(
      'alice',
      `SELECT outcome, by_login, desk_id, amount_minor, currency, detail, on_server > now() - interval '1 minute'
         FROM refund_desk.audit WHERE subject_id = 'RQ1'`,
    );
    expect(audit.stdout.trim()).toBe('approval_requested|alice|desk-alice|15000|USD|customer complaint|t');
  });

  it('self-approval is refused by the database (and a maker cannot approve at all)', () => {
    expect(request('dave', 'RQS', '3001', 20_000).stderr).toBe('');
    const self = as('dave', `SELECT state FROM refund_desk.approve_request('RQS')`);
    expect(self.status).not.toBe(0);
    expect(self.stderr).toMatch(/request RQS is your own: another person with the checker role approves it/);
    const maker = as('alice', `SELECT state FROM refund_desk.approve_request('RQS')`);
    expect(maker.stderr).toMatch(/permission denied for function approve_request/);
    // Even the owner cannot make the requester its approver: a CHECK on the table.
    const owner = asOwner(`UPDATE refund_desk.intents SET approved_by = requested_by WHERE id = 'RQS'`);
    expect(owner.stderr).toMatch(/intents_four_eyes/);
    expect(as('bob', `SELECT state FROM refund_desk.intents WHERE id = 'RQS'`).stdout.trim()).toBe(
      'awaiting_approval',
    );
  });

  it("approval above the checker's own limit is refused; within it, approved with person, desk and server time; only the approver sends it", () => {
    expect(request('alice', 'RQL', '4001', 15_000).stderr).toBe('');
    const carol = as('carol', `SELECT state FROM refund_desk.approve_request('RQL')`);
    expect(carol.status).not.toBe(0);
    expect(carol.stderr).toMatch(/above your approval limit \(5000 USD\)/);
    const bob = as(
      'bob',
      `SELECT state, approved_by, approved_desk FROM refund_desk.approve_request('RQL')`,
      'desk-2',
    );
    expect(bob.stderr).toBe('');
    expect(bob.stdout.trim()).toBe('approved|bob|desk-2');
    // Approved once: a second approval is refused (not awaiting any more).
    expect(as('bob', `SELECT 1 FROM refund_desk.approve_request('RQL')`).stderr).toMatch(
      /is approved, not awaiting/,
    );
    // Approved -> sending only by the approver (the approve-and-send desk), and only with a sender's lease.
    const ev = `'{"at":"t","type":"sending"}'`;
    expect(
      as(
        'alice',
        `SELECT state FROM refund_desk.transition_intent('RQL', '{approved}', 'sending', '{}', ${ev})`,
      ).stderr,
    ).toMatch(/only the person who approved it sends it/);
    expect(
      as(
        'bob',
        `SELECT state FROM refund_desk.transition_intent('RQL', '{approved}', 'sending', '{}', ${ev})`,
      ).stderr,
    ).toMatch(/intent RQL: an approved refund is sent only through approve_and_claim/);
    expect(
      as('alice', `SELECT state FROM refund_desk.approve_and_claim('RQL', 'desk-a:1', 60000, ${ev})`).stderr,
    ).toMatch(/permission denied for function approve_and_claim/);
    expect(
      as('carol', `SELECT state FROM refund_desk.approve_and_claim('RQL', 'desk-3:1', 60000, ${ev})`).stderr,
    ).toMatch(/is approved, not awaiting approval \(by bob\)/);
    // The approver takes it up: sending, its sender named, a lease on the server's clock it can renew.
    expect(
      as(
        'bob',
        `SELECT state, sender, lease_until > clock_timestamp() + interval '50 seconds'
           FROM refund_desk.approve_and_claim('RQL', 'desk-2:7', 60000, ${ev})`,
        'desk-2',
      ).stdout.trim(),
    ).toBe('sending|desk-2:7|t');
    expect(as('bob', `SELECT refund_desk.renew_lease('RQL', 'desk-2:7', 90000)`).stdout.trim()).toBe('t');
    const steps = as(
      'carol',
      `SELECT outcome || ':' || by_login || ':' || desk_id FROM refund_desk.audit WHERE subject_id = 'RQL' ORDER BY id`,
    );
    expect(steps.stdout.trim().split('\n')).toEqual([
      'approval_requested:alice:desk-alice',
      'approved:bob:desk-2',
    ]);
  });

  it('an expired request (server clock) cannot be approved; the sweep marks it expired and frees the payment', () => {
    // A request made 25 hours ago (server time): written by the owner, as request_refund would have then.
    expect(
      asOwner(
        `INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url, merchant_no,
           store_no, transaction_no, amount_minor, currency, settle_currency, operator, created_at, updated_at, reason,
           requested_by, requested_desk, requested_on_server, expires_at)
         VALUES ('RQX', 'refund', 'awaiting_approval', 'p', 'P', 'demo', '', '200043', '300014', '5001', 15000, 'USD',
           'USD', 'alice', 'x', 'x', 'late', 'alice', 'desk-alice', now() - interval '25 hours', now() - interval '1 hour')`,
      ).stderr,
    ).toBe('');
    const late = as('bob', `SELECT state FROM refund_desk.approve_request('RQX')`);
    expect(late.status).not.toBe(0);
    expect(late.stderr).toMatch(/request RQX expired at .* \(server time\): nothing was sent/);
    expect(as('bob', `SELECT state FROM refund_desk.intents WHERE id = 'RQX'`).stdout.trim()).toBe(
      'awaiting_approval',
    );
    // A new request for the payment sweeps it (expired, audited) and is recorded.
    expect(request('alice', 'RQX2', '5001', 15_000).stderr).toBe('');
    expect(
      as('bob', `SELECT state || ':' || closed_by FROM refund_desk.intents WHERE id = 'RQX'`).stdout.trim(),
    ).toBe('expired:alice');
    expect(
      as(
        'bob',
        `SELECT count(*) FROM refund_desk.audit WHERE subject_id = 'RQX' AND outcome = 'approval_expired'`,
      ).stdout.trim(),
    ).toBe('1');
  });

  it('reject needs a comment and another checker; nobody edits a request; the requester may cancel it', () => {
    expect(request('alice', 'RQR', '6001', 15_000).stderr).toBe('');
    expect(as('alice', `SELECT 1 FROM refund_desk.reject_request('RQR', 'no')`).stderr).toMatch(
      /permission denied/,
    );
    expect(as('bob', `SELECT 1 FROM refund_desk.reject_request('RQR', '  ')`).stderr).toMatch(
      /a comment is required/,
    );
    // No function edits a request, and the owner's own UPDATE of what was asked is refused.
    for (const set of [
      `amount_minor = 100`,
      `currency = 'EUR'`,
      `transaction_no = '6002'`,
      `reason = 'other'`,
    ])
      expect(asOwner(`UPDATE refund_desk.intents SET ${set} WHERE id = 'RQR'`).stderr).toMatch(
        /never edited/,
      );
    const rejected = as(
      'bob',
      `SELECT state, closed_by, close_comment FROM refund_desk.reject_request('RQR', 'duplicate of 5001')`,
    );
    expect(rejected.stdout.trim()).toBe('declined|bob|duplicate of 5001');
    // Another request for the payment is now possible; its requester cancels it; bob cannot.
    expect(request('alice', 'RQR2', '6001', 15_000).stderr).toBe('');
    expect(as('dave', `SELECT 1 FROM refund_desk.cancel_request('RQR2', 'x')`).stderr).toMatch(
      /only its requester cancels it/,
    );
    expect(
      as('alice', `SELECT state FROM refund_desk.cancel_request('RQR2', 'wrong amount')`).stdout.trim(),
    ).toBe('cancelled');
  });

  it('the audit is append-only: UPDATE, DELETE, TRUNCATE refused for people (revoked) and for the owner (triggers)', () => {
    expect(Number(as('alice', 'SELECT count(*) FROM refund_desk.audit').stdout.trim())).toBeGreaterThan(0);
    for (const who of ['alice', 'bob'] as const) {
      expect(as(who, `UPDATE refund_desk.audit SET outcome = 'x'`).stderr).toMatch(
        /permission denied for table audit/,
      );
      expect(as(who, 'DELETE FROM refund_desk.audit').stderr).toMatch(/permission denied for table audit/);
      expect(as(who, 'TRUNCATE refund_desk.audit').stderr).toMatch(/permission denied for table audit/);
    }
    for (const table of ['audit', 'intent_events']) {
      expect(asOwner(`UPDATE refund_desk.${table} SET at = 'x'`).stderr).toMatch(
        new RegExp(`refund_desk.${table} is append-only: UPDATE is refused`),
      );
      expect(asOwner(`DELETE FROM refund_desk.${table}`).stderr).toMatch(/append-only: DELETE is refused/);
      expect(asOwner(`TRUNCATE refund_desk.${table}`).stderr).toMatch(/append-only: TRUNCATE is refused/);
    }
    expect(Number(asOwner('SELECT count(*) FROM refund_desk.audit').stdout.trim())).toBeGreaterThan(0);
  });

  it('an owner who is not a superuser (as on a managed server, CREATEROLE only) migrates twice, adds people, and is refused by the audit triggers too', async () => {
    await ownerSql(`CREATE ROLE dbowner LOGIN CREATEROLE PASSWORD 'owner-pw'`);
    await ownerSql(`CREATE DATABASE people_owned_${process.pid} OWNER dbowner`);
    const url = cluster.loginUrl('dbowner', 'owner-pw', `people_owned_${process.pid}`);
    expect(await migratePostgres({ connectionString: url })).toEqual({ from: 0, to: DESK_SCHEMA_VERSION });
    expect(await migratePostgres({ connectionString: url })).toEqual({
      from: DESK_SCHEMA_VERSION,
      to: DESK_SCHEMA_VERSION,
    });
    await cluster.createLogin('erin', 'erin-pw');
    await addPerson(
      { connectionString: url },
      { login: 'erin', role: 'checker', limits: [{ currency: 'USD', upToMinor: 100 }] },
    );
    const asDbOwner = (sql: string) =>
      cluster.psql(sql, { user: 'dbowner', password: 'owner-pw', database: `people_owned_${process.pid}` });
    expect(
      asDbOwner(`SELECT proowner::regrole FROM pg_proc WHERE proname = 'approve_request'`).stdout.trim(),
    ).toBe('dbowner');
    expect(asDbOwner(`UPDATE refund_desk.audit SET at = 'x'`).stderr).toMatch(
      /append-only: UPDATE is refused/,
    );
    expect(asDbOwner('TRUNCATE refund_desk.audit').stderr).toMatch(/append-only: TRUNCATE is refused/);
    const erin = cluster.psql(
      `SELECT string_agg(currency || ':' || up_to_minor, ',') FROM refund_desk.approval_limits`,
      {
        user: 'erin',
        password: 'erin-pw',
        database: `people_owned_${process.pid}`,
      },
    );
    expect(erin.stdout.trim()).toBe('USD:100');
  });
});
