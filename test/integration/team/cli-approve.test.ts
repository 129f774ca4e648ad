import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson, setPolicy } from '../../../electron/core/adapters/postgres/team-admin';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * Four-eyes from scripts (issue 26 item 8): `refund` and `approve` run as CHILD PROCESSES of the real CLI,
 * each as its person's own login on a real throw-away PostgreSQL, refunding at the embedded sandbox over
 * real HTTP. What the sandbox received is read from its own request log. The addresses are 127.0.0.1
 * given by --base-url, which the app treats as live money: the amount is typed again (--amount).
 *
 * People: alice (maker), bob (checker up to 1000.00 USD), dave (checker and maker, to try approving his
 * own request). Policy: refunds above 2.00 USD of the sandbox's account need approval.
 */
let cluster: TestCluster;
let dbName: string;
let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
const used = new Set<string>();
const PW = { alice: 'Al1ce-cli!', bob: 'B0b-cli%pw', dave: 'Dav3-cli' } as const;
type Person = keyof typeof PW;
const url = (who: Person, password: string = PW[who]) => cluster.loginUrl(who, password, dbName);
const dataDirs = new Map<Person, string>();
const ROOT = resolve(import.meta.dirname, '../../..');

const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

beforeAll(async () => {
  cluster = await startPostgres();
  dbName = `team_cli_approve_${process.pid}`;
  const owner = await cluster.createDatabase(dbName);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  const o = { connectionString: owner };
  await addPerson(o, { login: 'alice', role: 'maker', limits: [] });
  for (const login of ['bob', 'dave'])
    await addPerson(o, { login, role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  // dave is a maker too (a DBA may do that): his own request is refused by the database's rule.
  const admin = new pg.Client({ connectionString: owner });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query('GRANT refund_maker TO dave');
  await admin.end();
  await setPolicy(o, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: 200,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 268,
    transactions: 80,
    refundSettleMs: 20,
    ipnSchedule: [],
    log: (line) => void sandboxLog.push(line),
  });
  for (const who of Object.keys(PW) as Person[])
    dataDirs.set(who, mkdtempSync(join(tmpdir(), `rd-cli-approve-${who}-`)));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  cluster?.stop();
});

function freshPayment() {
  const p = sandbox.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.storeNo === DEMO_MERCHANT.storeNo &&
        x.status === 'success' &&
        x.currency === 'USD' &&
        x.refunds.length === 0 &&
        x.amountMinor >= 1_000 &&
        !used.has(x.transactionNo),
    );
  if (!p) throw new Error('no fresh payment in the seed');
  used.add(p.transactionNo);
  return p;
}

/** The real CLI in a child process (async: the sandbox answers from this process meanwhile). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'electron/hosts/cli/index.ts', ...args],
      { cwd: ROOT, env: { ...process.env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token }, encoding: 'utf8' },
      (err, stdout, stderr) =>
        done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const account = () => [
  '--base-url',
  sandbox.baseUrl,
  '--merchant',
  DEMO_MERCHANT.merchantNo,
  '--store',
  DEMO_MERCHANT.storeNo,
];
const refund = (who: Person, transactionNo: string, amount: string, extra: string[] = []) =>
  cli([
    'refund',
    ...account(),
    '--transaction-no',
    transactionNo,
    '--amount',
    amount,
    '--currency',
    'USD',
    '--reason',
    'parcel never arrived',
    '--yes',
    '--data-dir',
    dataDirs.get(who)!,
    '--database-url',
    url(who),
    ...extra,
  ]);
const approve = (who: Person, id: string, extra: string[] = [], password?: string) =>
  cli([
    'approve',
    id,
    ...account(),
    '--data-dir',
    dataDirs.get(who)!,
    '--database-url',
    url(who, password),
    ...extra,
  ]);

/** A maker's request above the policy, through the CLI: its id. */
async function requested(who: Person, amount: string): Promise<{ id: string; transactionNo: string }> {
  const p = freshPayment();
  const r = await refund(who, p.transactionNo, amount, ['--json']);
  expect(r.code, r.stderr).toBe(7);
  const out = JSON.parse(r.stdout) as { intentId: string; outcome: string };
  expect(out.outcome).toBe('awaiting_approval');
  return { id: out.intentId, transactionNo: p.transactionNo };
}

describe('cli refund and approve in team mode (child processes, real PostgreSQL, sandbox over HTTP)', () => {
  it('a maker’s refund above the policy prints the request id and exits 7: nothing was sent', async () => {
    const p = freshPayment();
    const posts = refundPosts();
    const r = await refund('alice', p.transactionNo, '3.00');
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toMatch(/intentId\s+RD[0-9A-Z]+/);
    expect(r.stdout).toMatch(/outcome\s+awaiting_approval/);
    expect(r.stdout).toMatch(/requestedBy\s+alice/);
    const id = /intentId\s+(RD[0-9A-Z]+)/.exec(r.stdout)![1]!;
    expect(r.stderr).toContain(`Request ${id} is awaiting approval — nothing was sent.`);
    expect(refundPosts()).toBe(posts);
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toEqual([]);
    // With --json: the same, as one object.
    const j = await requested('alice', '4.00');
    expect(j.id).toMatch(/^RD/);
    expect(refundPosts()).toBe(posts);
  }, 120_000);

  it('a checker’s approve <id> --yes approves and sends in one action: exit 0, exactly one refund at the sandbox', async () => {
    const r = await requested('alice', '4.50');
    const posts = refundPosts();
    // Without --yes, or with the live-money amount missing or different: bad usage, nothing sent.
    expect((await approve('bob', r.id)).code).toBe(2);
    const untyped = await approve('bob', r.id, ['--yes']);
    expect(untyped.code).toBe(2);
    expect(untyped.stderr).toMatch(/live-money address: run it again with --amount/);
    const wrong = await approve('bob', r.id, ['--yes', '--amount', '5.00']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not the amount of request .*4\.50 USD.*cannot change a request/);
    expect(refundPosts()).toBe(posts);

    const ok = await approve('bob', r.id, ['--yes', '--amount', '4.50', '--json']);
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    const out = JSON.parse(ok.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      intentId: r.id,
      outcome: expect.stringMatching(/^(accepted|succeeded)$/),
      amount: '4.50 USD',
      requestedBy: 'alice',
      approvedBy: 'bob',
    });
    expect(refundPosts()).toBe(posts + 1);
    const refunds = sandbox.state.payment(r.transactionNo)!.refunds;
    expect(refunds).toHaveLength(1);
    expect(sandbox.state.refund(refunds[0]!)).toMatchObject({
      refundAmountMinor: 450,
      refundReference: r.id,
    });

    // Sent once: approving it again is refused by the database (no longer awaiting), nothing more sent.
    const again = await approve('bob', r.id, ['--yes', '--amount', '4.50']);
    expect(again.code).toBe(4);
    expect(refundPosts()).toBe(posts + 1);
  }, 180_000);

  it('the requester’s own approve exits 4 with the database’s words; a maker may not approve at all; nothing is sent', async () => {
    const own = await requested('dave', '6.00');
    const posts = refundPosts();
    const self = await approve('dave', own.id, ['--yes', '--amount', '6.00']);
    expect(self.code, self.stderr + self.stdout).toBe(4);
    expect(self.stdout).toContain(
      `request ${own.id} is your own: another person with the checker role approves it`,
    );
    const maker = await approve('alice', own.id, ['--yes', '--amount', '6.00']);
    expect(maker.code).toBe(4);
    expect(maker.stdout).toMatch(/permission denied for function approve_and_claim/);
    expect(refundPosts()).toBe(posts);
    expect(sandbox.state.payment(own.transactionNo)!.refunds).toEqual([]);
  }, 120_000);

  it('approve of an unknown id exits 3; a wrong password exits 5 without showing it', async () => {
    const unknown = await approve('bob', 'RDNOSUCHREQUEST1', ['--yes', '--amount', '1.00']);
    expect(unknown.code, unknown.stderr + unknown.stdout).toBe(3);
    expect(unknown.stdout).toMatch(/There is no refund request RDNOSUCHREQUEST1/);
    const SECRET = 'Wr0ng-pass-never-shown';
    const denied = await approve('bob', 'RDNOSUCHREQUEST1', ['--yes'], SECRET);
    expect(denied.code).toBe(5);
    expect(denied.stderr).toMatch(/refused this login: check the login and password/);
    expect(denied.stdout + denied.stderr).not.toContain(SECRET);
    expect(denied.stdout + denied.stderr).not.toContain(encodeURIComponent(SECRET));
  }, 120_000);
});
