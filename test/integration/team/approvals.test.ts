import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson, setPolicy } from '../../../electron/core/adapters/postgres/team-admin';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import type { IntentView } from '../../../shared/domain/refund-intent';
import { createFakeLogger } from '../../fakes/logger';
import { startPostgres, type TestCluster } from '../../support/postgres';
import { openTeamDesk, type TeamDesk } from '../../support/team-desk';

/**
 * Four-eyes through the whole core (issue 26 item 4): desks whose intents are on a real throw-away
 * PostgreSQL, each as its own person's login, refunding at the embedded sandbox over real HTTP. What the
 * sandbox received is read from its own request log, so "nothing was sent" is what the service saw.
 *
 * People: alice (maker), bob and carol (checkers up to 1000.00 USD), dave (checker AND maker, so he can
 * try to approve his own request), erin (checker up to 1.00 USD). Policy: refunds above 2.00 USD of the
 * sandbox's account need approval.
 */
let cluster: TestCluster;
let owner: string;
let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
const PW = {
  alice: 'Al1ce-pw',
  bob: 'B0b-pw',
  carol: 'Car0l-pw',
  dave: 'Dav3-pw',
  erin: 'Er1n-pw',
} as const;
type Person = keyof typeof PW;
const desks = new Map<Person, TeamDesk>();
const ABOVE = 200; // 2.00 USD
const used = new Set<string>();

/** POSTs of a refund the sandbox received (its log: method, path, outcome; never bodies). */
const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

async function desk(who: Person, n: number): Promise<TeamDesk> {
  const d = await openTeamDesk({
    url: cluster.loginUrl(who, PW[who], new URL(owner).pathname.slice(1)),
    deskId: `desk-${n}`,
    sandbox,
  });
  desks.set(who, d);
  return d;
}
const at = (who: Person) => desks.get(who)!;

beforeAll(async () => {
  cluster = await startPostgres();
  owner = await cluster.createDatabase(`team_approvals_${process.pid}`);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  const o = { connectionString: owner };
  await addPerson(o, { login: 'alice', role: 'maker', limits: [] });
  for (const login of ['bob', 'carol', 'dave'])
    await addPerson(o, { login, role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  await addPerson(o, { login: 'erin', role: 'checker', limits: [{ currency: 'USD', upToMinor: 100 }] });
  // The DBA lets dave make requests too: the database, not the screen, must stop him approving his own.
  const admin = new pg.Client({ connectionString: owner });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query('GRANT refund_maker TO dave');
  await admin.end();
  await setPolicy(o, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: ABOVE,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 26,
    transactions: 200,
    refundSettleMs: 20,
    ipnSchedule: [],
    log: (line) => void sandboxLog.push(line),
  });
  await desk('alice', 1);
  await desk('bob', 2);
  await desk('carol', 3);
  await desk('dave', 4);
  await desk('erin', 5);
}, 120_000);

afterAll(async () => {
  for (const d of desks.values()) await d.close().catch(() => undefined);
  await sandbox?.close();
  cluster?.stop();
});

/** A successful sandbox payment of the desks' account with nothing refunded yet. */
function freshPayment(minAmount = 1_000) {
  const p = sandbox.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.storeNo === DEMO_MERCHANT.storeNo &&
        x.status === 'success' &&
        x.currency === 'USD' &&
        x.refunds.length === 0 &&
        x.amountMinor >= minAmount &&
        !used.has(x.transactionNo),
    );
  if (!p) throw new Error('no fresh payment in the seed');
  used.add(p.transactionNo);
  return p;
}

const refundInput = (who: Person, transactionNo: string, amountMinor: number) => ({
  profileId: at(who).profileId,
  transactionNo,
  amountMinor,
  currency: 'USD',
  reasonCode: 'customer_request',
  reasonNote: 'parcel never arrived',
  confirmation: {},
});

const request = (who: Person, transactionNo: string, amountMinor: number) =>
  at(who).call<IntentView>('refunds.submit', refundInput(who, transactionNo, amountMinor));

const approve = (who: Person, id: string) =>
  at(who).call<IntentView>('approvals.approveAndSend', {
    profileId: at(who).profileId,
    id,
    confirmation: {},
  });

/** The envelope's error of a call that must be refused. */
async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err as { code: string; message: string },
  );
  if (!e) throw new Error('the call was not refused');
  return e;
}

/** Follows a sent refund to a final state the way a person would: Check again, until it is final. */
async function settle(who: Person, id: string): Promise<IntentView> {
  for (let n = 0; n < 200; n++) {
    const i = await at(who).call<IntentView>('refunds.checkAgain', { profileId: at(who).profileId, id });
    if (i.state === 'succeeded' || i.state === 'failed' || i.state === 'rejected') return i;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`refund ${id} did not settle`);
}

describe('four-eyes in the refund engine (team database, real sandbox)', () => {
  it('a maker above the limit records a request: awaiting approval, with who, where and why, and the sandbox received nothing', async () => {
    const p = freshPayment();
    const posts = refundPosts();
    const r = await request('alice', p.transactionNo, 300);
    expect(r.state).toBe('awaiting_approval');
    expect(r.id).toMatch(/^RD/);
    expect(r.amountMinor).toBe(300);
    expect(r.approval).toMatchObject({
      requestedBy: 'alice',
      requestedDesk: 'desk-1',
      reason: 'customer_request: parcel never arrived',
    });
    expect(r.author).toEqual({ person: 'alice', desk: 'desk-1' });
    expect(refundPosts()).toBe(posts);
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toEqual([]);
    // Another desk sees it among the open requests of the account; a second refund of the payment waits.
    const open = await at('bob').call<IntentView[]>('approvals.list', { profileId: at('bob').profileId });
    expect(open.map((i) => i.id)).toContain(r.id);
    const second = await refusal(request('alice', p.transactionNo, 100));
    expect(second.code).toBe('conflict');
    expect(second.message).toMatch(new RegExp(`Refund ${r.id} for this payment is awaiting approval`));
    expect(refundPosts()).toBe(posts);
  });

  it('a maker at or under the limit refunds at once, as a single desk does', async () => {
    const p = freshPayment();
    const posts = refundPosts();
    const r = await request('alice', p.transactionNo, ABOVE);
    expect(['accepted', 'succeeded']).toContain(r.state);
    expect(r.approval).toBeUndefined();
    expect(refundPosts()).toBe(posts + 1);
  });

  it('a checker (another person) approves and sends in one action: exactly one refund at the sandbox, and it settles', async () => {
    const p = freshPayment();
    const r = await request('alice', p.transactionNo, 450);
    const posts = refundPosts();
    // The approver cannot change what was asked: the channel takes no amount (or anything else of it).
    const edited = await refusal(
      at('bob').call('approvals.approveAndSend', {
        profileId: at('bob').profileId,
        id: r.id,
        confirmation: {},
        amountMinor: 1,
      }),
    );
    expect(edited.code).toBe('invalid_input');
    const sent = await approve('bob', r.id);
    expect(sent.id).toBe(r.id);
    expect(['accepted', 'succeeded']).toContain(sent.state);
    expect(sent.approval).toMatchObject({ requestedBy: 'alice', approvedBy: 'bob', approvedDesk: 'desk-2' });
    expect(refundPosts()).toBe(posts + 1);
    const final = await settle('bob', r.id);
    expect(final.state).toBe('succeeded');
    const refunds = sandbox.state.payment(p.transactionNo)!.refunds;
    expect(refunds).toHaveLength(1);
    expect(sandbox.state.refund(refunds[0]!)).toMatchObject({ refundAmountMinor: 450 });
    // The maker's desk reads the same journal: the request it made is the refund that was sent.
    const seen = await at('alice').call<IntentView[]>('refunds.list', { profileId: at('alice').profileId });
    expect(seen.find((i) => i.id === r.id)?.state).toBe('succeeded');
    expect(
      (await at('bob').call<IntentView[]>('approvals.list', { profileId: at('bob').profileId })).map(
        (i) => i.id,
      ),
    ).not.toContain(r.id);
  });

  it('the requester cannot approve their own request, and a maker cannot approve at all: the database’s words reach the caller, nothing is sent', async () => {
    const p = freshPayment();
    const own = await request('dave', p.transactionNo, 500);
    expect(own.state).toBe('awaiting_approval');
    const posts = refundPosts();
    const self = await refusal(approve('dave', own.id));
    expect(self.code).toBe('forbidden');
    expect(self.message).toBe(
      `request ${own.id} is your own: another person with the checker role approves it`,
    );
    const maker = await refusal(approve('alice', own.id));
    expect(maker.code).toBe('forbidden');
    expect(maker.message).toMatch(/permission denied for function approve_and_claim/);
    const small = await refusal(approve('erin', own.id));
    expect(small.code).toBe('forbidden');
    expect(small.message).toMatch(/above your approval limit/);
    expect(refundPosts()).toBe(posts);
    const still = await at('bob').call<IntentView[]>('approvals.list', { profileId: at('bob').profileId });
    expect(still.find((i) => i.id === own.id)?.state).toBe('awaiting_approval');
  });

  it('two checkers racing to approve the same request: exactly one refund reaches the sandbox, the other is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const p = freshPayment();
      const r = await request('alice', p.transactionNo, 600);
      const posts = refundPosts();
      const results = await Promise.allSettled([approve('bob', r.id), approve('carol', r.id)]);
      const won = results.filter((x) => x.status === 'fulfilled');
      const lost = results.filter((x): x is PromiseRejectedResult => x.status === 'rejected');
      expect(won, JSON.stringify(results)).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0]!.reason as { code: string }).code).toMatch(/conflict|forbidden/);
      expect(refundPosts()).toBe(posts + 1);
      expect(sandbox.state.payment(p.transactionNo)!.refunds).toHaveLength(1);
    }
  });

  it('while the approver’s desk is sending, another desk does not take the refund over as orphaned: the claim is its lease', async () => {
    const p = freshPayment();
    const r = await request('alice', p.transactionNo, 320);
    const posts = refundPosts();
    const held = sandbox.hold('refund');
    const sending = approve('bob', r.id);
    await held.arrived;
    // Another desk asks about it while the request is out: it is being sent, not a sender gone.
    const seen = await at('carol').call<IntentView>('refunds.checkAgain', {
      profileId: at('carol').profileId,
      id: r.id,
    });
    expect(seen.state).toBe('sending');
    await held.release();
    expect(['accepted', 'succeeded']).toContain((await sending).state);
    expect((await settle('carol', r.id)).state).toBe('succeeded');
    expect(refundPosts()).toBe(posts + 1);
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toHaveLength(1);
  });

  it('a checker declines with a comment: declined, nothing sent, and it can no longer be approved', async () => {
    const p = freshPayment();
    const r = await request('alice', p.transactionNo, 700);
    const posts = refundPosts();
    const missing = await refusal(
      at('bob').call('approvals.reject', { profileId: at('bob').profileId, id: r.id, comment: '   ' }),
    );
    expect(missing.code).toBe('invalid_input');
    const declined = await at('bob').call<IntentView>('approvals.reject', {
      profileId: at('bob').profileId,
      id: r.id,
      comment: 'Customer already refunded by card chargeback',
    });
    expect(declined.state).toBe('declined');
    expect(declined.approval).toMatchObject({
      closedBy: 'bob',
      closedDesk: 'desk-2',
      comment: 'Customer already refunded by card chargeback',
    });
    const late = await refusal(approve('carol', r.id));
    expect(late.code).toBe('conflict');
    expect(refundPosts()).toBe(posts);
    // Declined moved no money: the payment may be refunded again (here under the limit, sent at once).
    const again = await request('alice', p.transactionNo, 100);
    expect(['accepted', 'succeeded']).toContain(again.state);
  });

  it('the requester cancels their own request with a comment; a checker cannot cancel it', async () => {
    const p = freshPayment();
    const r = await request('alice', p.transactionNo, 250);
    const notTheirs = await refusal(
      at('bob').call('approvals.cancel', { profileId: at('bob').profileId, id: r.id, comment: 'not mine' }),
    );
    expect(notTheirs.code).toBe('forbidden');
    const cancelled = await at('alice').call<IntentView>('approvals.cancel', {
      profileId: at('alice').profileId,
      id: r.id,
      comment: 'Typed the wrong amount',
    });
    expect(cancelled.state).toBe('cancelled');
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toEqual([]);
  });

  it('an expired request (server clock) cannot be approved, and leaves the open list', async () => {
    const p = freshPayment();
    const r = await request('alice', p.transactionNo, 350);
    // The server's clock moved past the request's expiry: a superuser session with the row triggers off
    // (the database refuses any change of what was asked, rightly, for everyone else).
    const admin = new pg.Client({ connectionString: owner });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.query("SET session_replication_role = 'replica'");
    await admin.query(
      "UPDATE refund_desk.intents SET expires_at = now() - interval '1 second' WHERE id = $1",
      [r.id],
    );
    await admin.end();
    const posts = refundPosts();
    const expired = await refusal(approve('bob', r.id));
    expect(expired.code).toBe('conflict');
    expect(expired.message).toMatch(
      new RegExp(`request ${r.id} expired at .* \\(server time\\): nothing was sent`),
    );
    expect(refundPosts()).toBe(posts);
    const open = await at('bob').call<IntentView[]>('approvals.list', { profileId: at('bob').profileId });
    expect(open.map((i) => i.id)).not.toContain(r.id);
    const seen = await at('alice').call<IntentView[]>('refunds.list', { profileId: at('alice').profileId });
    expect(seen.find((i) => i.id === r.id)?.state).toBe('expired');
  });

  it('a request whose payment changed since (it now exceeds what remains) is refused at approval with the reason; nothing is sent', async () => {
    const p = freshPayment(2_000);
    const r = await request('alice', p.transactionNo, 900);
    // Someone refunds most of the payment elsewhere (not through this journal): straight at the service.
    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log: createFakeLogger(),
      config: () => ({
        baseUrl: sandbox.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
      timeoutMs: 3_000,
    });
    await gateway.refund({
      transactionNo: p.transactionNo,
      refundAmountMinor: p.amountMinor - 500,
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'ELSEWHERE-1',
    });
    const posts = refundPosts();
    const changed = await refusal(approve('bob', r.id));
    expect(changed.code).toBe('conflict');
    expect(changed.message).toMatch(
      /The payment changed since this request was made: it asks 9\.00 USD, but only 5\.00 USD remains refundable/,
    );
    expect(changed.message).toMatch(/Nothing was sent\.$/);
    expect(refundPosts()).toBe(posts);
    // Still a request: the checker declines it with that reason.
    const open = await at('bob').call<IntentView[]>('approvals.list', { profileId: at('bob').profileId });
    expect(open.find((i) => i.id === r.id)?.state).toBe('awaiting_approval');
  });

  it('the refund dialog’s preview names a refund of the payment in the last 24 hours: amount, when, by whom, at which desk', async () => {
    const p = freshPayment();
    const sent = await request('alice', p.transactionNo, 100);
    const preview = await at('bob').call<{
      recentRefunds: Array<{
        id: string;
        amountMinor: number;
        currency: string;
        at: string;
        by: string;
        desk?: string;
      }>;
    }>('refunds.preview', { profileId: at('bob').profileId, transactionNo: p.transactionNo });
    expect(preview.recentRefunds).toEqual([
      {
        id: sent.id,
        state: sent.state,
        amountMinor: 100,
        currency: 'USD',
        at: sent.createdAt,
        by: 'alice',
        desk: 'desk-1',
      },
    ]);
  });

  it('who may approve a request: other checkers whose limit covers it — never its requester, never a checker below it', async () => {
    const p = freshPayment();
    // dave is a checker (and a maker): his own request names the other checkers, not him.
    const own = await request('dave', p.transactionNo, 500);
    const approvers = (who: Person, id: string) =>
      at(who).call<{ logins: string[] }>('approvals.approvers', { profileId: at(who).profileId, id });
    expect(await approvers('dave', own.id)).toEqual({ logins: ['bob', 'carol'] });
    // Any desk may ask (alice, a maker); erin's limit (1.00 USD) does not cover 5.00 USD.
    expect(await approvers('alice', own.id)).toEqual({ logins: ['bob', 'carol'] });
    const small = freshPayment();
    const tiny = await request('alice', small.transactionNo, ABOVE + 1);
    expect((await approvers('alice', tiny.id)).logins).toEqual(['bob', 'carol', 'dave']);
    await at('dave').call('approvals.cancel', {
      profileId: at('dave').profileId,
      id: own.id,
      comment: 'test',
    });
    await at('alice').call('approvals.cancel', {
      profileId: at('alice').profileId,
      id: tiny.id,
      comment: 'test',
    });
    const missing = await refusal(approvers('alice', 'RD-none'));
    expect(missing.code).toBe('not_found');
  });

  it('who am I: the login, its groups and limits', async () => {
    expect(await at('bob').call('approvals.whoAmI')).toEqual({
      team: true,
      login: 'bob',
      groups: ['refund_checker'],
      limits: [{ currency: 'USD', upToMinor: 100_000 }],
    });
    expect(await at('alice').call('approvals.whoAmI')).toMatchObject({
      team: true,
      login: 'alice',
      groups: ['refund_maker'],
    });
  });
});
