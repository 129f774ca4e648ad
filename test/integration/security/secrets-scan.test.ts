import { createHash } from 'node:crypto';
import { withProfile } from '../../fakes/scope';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCsv, refundsCsv } from '../../../shared/csv/exports/refunds';
import type { AuditEntryView, IntentView } from '../../../shared/ipc/contract/refunds';
import { signingString } from '../../../shared/protocol/signing';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { type BrowserHost, startBrowserHost } from '../../../electron/hosts/web/server';
import { type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { reportFigures } from '../../unit/fuzz/figures';

/**
 * The secrets scan (SECURITY.md's promise that no secret is written anywhere): the app's flows run for a real, non-demo profile with its own
 * token — through the browser host over HTTP, against the sandbox, with IPNs on — and then every file
 * of the data directory (settings, the app database and its WAL, logs), every
 * export and every captured IPC reply and pushed event is searched for the token, md5(token) (either
 * case), every string that was signed, and every verifySign that went over the wire: 0 hits.
 */
const MERCHANT = { merchantNo: '200101', storeNo: '301001' };
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

let sandbox: RunningSandbox;
let token = '';
let core: AppCore;
let host: BrowserHost;
let dataDir: string;
let exportsDir: string;
const replies: string[] = [];
const eventText: string[] = [];
const signatures = new Set<string>();
const signedStrings = new Set<string>();
let ipnBodies = 0;
const realFetch = globalThis.fetch;
let profileId = '';

/** Every POST body leaving this process (the app's signed calls and the sandbox's IPNs) is noted. */
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
  if (typeof init?.body === 'string') {
    let fields: Record<string, string> = {};
    try {
      fields = JSON.parse(init.body) as Record<string, string>;
    } catch {
      fields = Object.fromEntries(new URLSearchParams(init.body));
    }
    if (String(input).includes('/ipn/')) ipnBodies += 1;
    if (fields['verifySign']) {
      signatures.add(fields['verifySign']);
      const { verifySign: _omit, ...rest } = fields;
      if (token) signedStrings.add(signingString(rest, token));
    }
  }
  return realFetch(input, init);
}) as typeof fetch;

/** The active profile as the renderer learns it: through profiles.list. */
async function activeProfileId(): Promise<string> {
  const res = await realFetch(`${host.origin}/ipc/profiles.list`, {
    method: 'POST',
    headers: { 'x-refund-desk-secret': host.secret, 'content-type': 'application/json' },
    body: JSON.stringify({ input: null }),
  });
  const r = JSON.parse(await res.text()) as { value?: { activeProfileId: string | null } };
  return r.value?.activeProfileId ?? 'none';
}
async function ipc<T>(
  channel: string,
  input?: unknown,
): Promise<{ ok: boolean; value?: T; error?: { code: string } }> {
  const scoped = channel === 'profiles.list' ? input : withProfile(channel, input, await activeProfileId());
  const res = await realFetch(`${host.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'x-refund-desk-secret': host.secret, 'content-type': 'application/json' },
    body: JSON.stringify({ input: scoped ?? null }),
  });
  const text = await res.text();
  replies.push(text);
  return JSON.parse(text) as { ok: boolean; value?: T; error?: { code: string } };
}
async function must<T>(channel: string, input?: unknown): Promise<T> {
  const r = await ipc<T>(channel, input);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}
async function until(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Case-insensitive search of every needle in every haystack: `<what> in <where>` per hit. */
function scan(haystacks: { where: string; text: string }[], needles: Map<string, string>): string[] {
  const hits: string[] = [];
  for (const { where, text } of haystacks) {
    const lower = text.toLowerCase();
    for (const [what, needle] of needles)
      if (lower.includes(needle.toLowerCase())) hits.push(`${what} in ${where}`);
  }
  return hits;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 1818, transactions: 300, refundSettleMs: 30, ipnSchedule: [20, 20] });
  token = sandbox.merchants.find((m) => m.merchantNo === MERCHANT.merchantNo)!.token;
  dataDir = mkdtempSync(join(tmpdir(), 'rd-secrets-'));
  exportsDir = mkdtempSync(join(tmpdir(), 'rd-secrets-exports-'));
  const rendererDir = mkdtempSync(join(tmpdir(), 'rd-secrets-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body></body></html>');
  // The real plain-Node core, file logger included (logs land in <dataDir>/logs/).
  core = await createNodeCore({ host: 'browser', dataDir, demo: false, gateway: { timeoutMs: 2_000 } });
  host = await startBrowserHost({ core, rendererDir });
  const events = await realFetch(`${host.origin}/events`, {
    headers: { 'x-refund-desk-secret': host.secret },
  });
  void (async () => {
    const reader = events.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      eventText.push(Buffer.from(value!).toString('utf8'));
    }
  })();
}, 30_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await host?.close();
  await core?.close();
  await sandbox?.close();
});

describe('secrets scan after the flows', () => {
  it('runs every flow for a non-demo profile with its own token', async () => {
    const saved = await must<{ id: string }>('profiles.save', {
      name: 'Store 101',
      ...MERCHANT,
      environment: 'custom',
      baseUrl: sandbox.baseUrl,
      // A simulator on this machine, as the person declares it (else it would be live money).
      loopbackMoneyMode: 'local',
      ipnEnabled: true,
      operatorName: 'Scan Operator',
    });
    profileId = saved.id;
    await must('profiles.activate', { id: profileId });
    await must('profiles.setToken', { id: profileId, token });
    expect(await must<{ verdict: string }>('profiles.testConnection', { id: profileId })).toMatchObject({
      verdict: 'ok',
    });

    const payments = sandbox.state
      .snapshot()
      .payments.filter(
        (p) =>
          p.merchantNo === MERCHANT.merchantNo &&
          p.storeNo === MERCHANT.storeNo &&
          p.status === 'success' &&
          p.currency === 'USD' &&
          p.refunds.length === 0 &&
          p.amountMinor >= 1_000,
      );
    expect(payments.length).toBeGreaterThanOrEqual(3);
    const [a, b, c] = payments as [(typeof payments)[0], (typeof payments)[0], (typeof payments)[0]];

    await must('transactions.lookup', { query: a.transactionNo });
    if (a.reference) await must('transactions.lookup', { query: a.reference });
    expect((await ipc('transactions.lookup', { query: '999999999999999999' })).error?.code).toBe('not_found');
    await must('transactions.refresh', { transactionNos: [a.transactionNo, b.transactionNo] });
    await ipc('transactions.sync', { startDate: '20260101', endDate: '20260110' });

    // A full refund, a partial one, and one whose answer is lost (outcome unknown, then checked again).
    for (const [p, amount] of [
      [a, a.amountMinor],
      [b, 500],
    ] as const) {
      await must('refunds.preview', { transactionNo: p.transactionNo });
      await must('refunds.submit', {
        transactionNo: p.transactionNo,
        amountMinor: amount,
        currency: 'USD',
        reasonCode: 'customer_request',
        reasonNote: 'secrets scan',
        confirmation: {},
        profileId,
      });
    }
    sandbox.setFaults({ endpoints: { refund: { dropAfterRate: 1 } } });
    const lost = await ipc<{ id: string; state: string }>('refunds.submit', {
      transactionNo: c.transactionNo,
      amountMinor: 300,
      currency: 'USD',
      reasonCode: 'other',
      reasonNote: 'answer dropped',
      confirmation: {},
      profileId,
    });
    sandbox.resetFaults();
    const list = await must<IntentView[]>('refunds.list');
    const unknown = list.find((i) => i.transactionNo === c.transactionNo);
    expect(unknown ?? lost).toBeTruthy();
    if (unknown) await ipc('refunds.checkAgain', { id: unknown.id });
    await until(async () =>
      (await must<IntentView[]>('refunds.list')).every((i) =>
        ['succeeded', 'failed', 'accepted'].includes(i.state),
      ),
    );

    // A wrong token: refused by the service, and the refusal must not echo it either.
    await must('profiles.setToken', { id: profileId, token: `${token}x` });
    expect((await ipc('transactions.lookup', { query: a.transactionNo })).ok).toBe(false);
    await must('profiles.setToken', { id: profileId, token });

    // A reconciliation run, both ways for a period (the list windows and the lookups are signed too).
    const today = new Date().toISOString().slice(0, 10);
    const { runId } = await must<{ runId: string }>('reconciliation.create', {
      label: 'scan-ledger.csv',
      file: {
        name: 'scan-ledger.csv',
        encoding: 'utf-8',
        delimiter: ',',
        dataRows: 3,
        decimal: '.',
        decimalSource: 'detected',
        dateOrder: 'ymd',
        dateOrderSource: 'default',
      },
      mapping: { transactionNo: 'No', reference: 'Ref', amount: 'Amount', currency: 'Currency' },
      options: {
        period: { from: today, to: today },
        days: 'service',
        timeZone: 'UTC',
        dateToleranceDays: 1,
        refundLookbackDays: 15,
      },
    });
    await must('reconciliation.addInput', {
      runId,
      rows: [
        { line: 2, transactionNo: a.transactionNo, amountMinor: 100, currency: 'USD', status: 'paid' },
        { line: 3, transactionNo: c.transactionNo, amountMinor: 100, currency: 'USD', status: 'paid' },
        { line: 4, reference: 'missing-ref', amountMinor: 100, currency: 'USD', status: 'paid' },
      ],
    });
    await must('reconciliation.start', { runId });
    await until(
      async () =>
        (await must<{ progress: { phase: string } }>('reconciliation.get', { runId })).progress.phase ===
        'done',
    );
    await must('reconciliation.report', { runId });
    await must('reconciliation.items', { runId, offset: 0, limit: 100 });

    await sandbox.ipnIdle();
    await core.profiles.ipnIdle();
    expect(sandbox.ipnLog().some((e) => e.outcome === 'delivered')).toBe(true);

    for (const ch of ['app.info', 'app.health', 'profiles.list', 'reconciliation.list']) await must(ch);
    writeFileSync(join(exportsDir, 'refunds.csv'), refundsCsv(await must<IntentView[]>('refunds.list')));
    writeFileSync(join(exportsDir, 'audit.csv'), auditCsv(await must<AuditEntryView[]>('audit.list')));
  });

  it('finds the token, md5(token), signing strings and verifySign values nowhere: 0 hits', () => {
    const needles = new Map<string, string>([
      ['token', token],
      ['md5(token)', md5(token)],
      ['MD5(TOKEN)', md5(token).toUpperCase()],
    ]);
    for (const s of signatures) needles.set(`verifySign ${s.slice(0, 6)}…`, s);
    for (const s of signedStrings) needles.set(`signing string …${s.slice(-8, -4)}`, s);
    // Calls and IPNs were really signed and captured.
    expect(signatures.size).toBeGreaterThan(10);
    expect(ipnBodies).toBeGreaterThan(0);

    const haystacks: { where: string; text: string }[] = [
      ...filesUnder(dataDir).map((f) => ({
        where: f.slice(dataDir.length + 1),
        text: readFileSync(f, 'latin1'),
      })),
      ...filesUnder(exportsDir).map((f) => ({
        where: `exports/${f.slice(exportsDir.length + 1)}`,
        text: readFileSync(f, 'latin1'),
      })),
      ...replies.map((text, i) => ({ where: `IPC reply #${i + 1}`, text })),
      { where: 'event stream', text: eventText.join('') },
    ];
    const hits = scan(haystacks, needles);
    // The scanner itself sees a planted secret, in either case, inside other text.
    expect(scan([{ where: 'planted', text: `x"${md5(token).toUpperCase()}"x` }], needles)).toEqual([
      'md5(token) in planted',
      'MD5(TOKEN) in planted',
    ]);
    const files = haystacks.filter((h) => !h.where.startsWith('IPC reply') && h.where !== 'event stream');
    const bytes = haystacks.reduce((n, h) => n + h.text.length, 0);
    reportFigures(
      'secrets-scan',
      [
        {
          target: 'data-dir files + exports',
          tried: files.length,
          outcomes: { hits: hits.filter((h) => !/IPC reply|event stream/.test(h)).length },
        },
        {
          target: 'IPC replies',
          tried: replies.length,
          outcomes: { hits: hits.filter((h) => h.includes('IPC reply')).length },
        },
        {
          target: 'event stream',
          tried: 1,
          outcomes: { hits: hits.filter((h) => h.includes('event stream')).length },
        },
      ],
      {
        secretsSearched: needles.size,
        ipnBodies,
        bytesScanned: bytes,
        files: files.map((f) => f.where),
        hits,
      },
      'places',
    );
    // Every kind of file the app keeps was there to be scanned.
    expect(files.map((f) => f.where).join(' ')).toMatch(/settings\.json/);
    expect(files.map((f) => f.where).join(' ')).toMatch(/logs[\\/]/);
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(hits).toEqual([]);
  });
});
