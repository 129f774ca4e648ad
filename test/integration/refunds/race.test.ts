/**
 * Many processes, one data directory, one payment service: browser hosts (the app's IPC handlers over
 * HTTP) and CLI runs race refunds on the same payments against the sandbox with slow refunds, while the
 * test kills some of them with SIGKILL at random points. A recording proxy in front of the sandbox sees
 * every refund request as the service receives it. The assertions come from the service's own records.
 */
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';

const ROOT = resolve(import.meta.dirname, '../../..');
const HOSTS = 4;
const CLI_SLOTS = 4;
const ROUNDS = 26; // × (HOSTS + CLI_SLOTS) attempts
const PROFILE = 'Race desk';
const SILENT = { info() {}, warn() {}, error() {} };

/** Seeded choices (which process dies, when): the same run every time, bar the scheduler's timing. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Forwards to the sandbox and records, per payment, how many refund requests are at the service at once. */
function recordingProxy(target: string) {
  const inFlight = new Map<string, number>();
  const stats = { refundRequests: 0, overlaps: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let tx: string | undefined;
      if (req.url?.endsWith('/refund')) {
        try {
          tx = String((JSON.parse(body.toString('utf8')) as { transactionNo?: unknown }).transactionNo);
        } catch {
          tx = 'unparsed';
        }
        stats.refundRequests += 1;
        const n = (inFlight.get(tx) ?? 0) + 1;
        inFlight.set(tx, n);
        stats.maxInFlight = Math.max(stats.maxInFlight, n);
        if (n > 1) stats.overlaps += 1;
      }
      // The upstream call completes even if the client was killed: the service does not know about kills.
      const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => {
          if (tx) inFlight.set(tx, inFlight.get(tx)! - 1);
          if (!res.destroyed) {
            res.writeHead(r.statusCode ?? 502, r.headers);
            res.end(Buffer.concat(parts));
          }
        });
      });
      up.on('error', () => {
        if (tx) inFlight.set(tx, inFlight.get(tx)! - 1);
        if (!res.destroyed) res.destroy();
      });
      up.end(body);
    });
  });
  return { server, stats };
}

interface Host {
  child: ChildProcess;
  url: string;
  secret: string;
}

function startHost(dataDir: string): Promise<Host> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/hosts/web/cli.ts', '--data-dir', dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolveHost, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`browser host did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/#secret=([A-Za-z0-9_-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveHost({ child, url: m[1]!, secret: m[2]! });
      }
    });
    child.on('exit', (code) => reject(new Error(`browser host exited (${code}): ${out}`)));
  });
}

async function ipc(h: Host, channel: string, input: unknown) {
  const res = await fetch(`${h.url}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-refund-desk-secret': h.secret },
    body: JSON.stringify({ input }),
  });
  return (await res.json()) as { ok: boolean; value?: Record<string, unknown>; error?: { code: string } };
}

let sb: RunningSandbox;
let proxy: ReturnType<typeof recordingProxy>;
let proxyUrl: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  sb = await startSandbox({ seed: 31, transactions: 400, refundSettleMs: 60 });
  // Slow refunds: each request stays at the service a while, so racing requests would overlap there.
  sb.setFaults({ endpoints: { refund: { latencyMs: 250, dropAfterRate: 0.08 } } });
  proxy = recordingProxy(sb.baseUrl);
  await new Promise<void>((r) => proxy.server.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  proxy.server.closeAllConnections();
  await new Promise((r) => proxy.server.close(r));
  await sb.close();
});

it('8 processes racing refunds with kill -9: no two refunds of a payment in flight, no over-refund, nothing lost or stuck', async () => {
  const random = rng(20261122);
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-race-'));
  const now = new Date().toISOString();
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({
      version: 1,
      activeProfileId: 'P-race',
      profiles: [
        {
          id: 'P-race',
          name: PROFILE,
          merchantNo: DEMO_MERCHANT.merchantNo,
          storeNo: DEMO_MERCHANT.storeNo,
          environment: 'custom',
          baseUrl: proxyUrl,
          ipnEnabled: false,
          createdAt: now,
          updatedAt: now,
        },
      ],
    }),
  );

  const launch = async () => {
    const h = await startHost(dataDir);
    children.add(h.child);
    expect((await ipc(h, 'profiles.setToken', { id: 'P-race', token: DEMO_MERCHANT.token })).ok).toBe(true);
    return h;
  };
  const hosts = await Promise.all(Array.from({ length: HOSTS }, launch));

  const payments = sb.state
    .snapshot()
    .payments.filter(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.currency === 'USD' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 3000,
    )
    .slice(0, Math.ceil(ROUNDS / 2));
  expect(payments.length).toBe(Math.ceil(ROUNDS / 2));

  const tally = {
    attempts: 0,
    hostAccepted: 0,
    hostRefused: 0,
    hostOther: 0,
    cliExit: {} as Record<string, number>,
    cliKilled: 0,
    hostsKilled: 0,
  };
  // The test's own connection to the shared database: it sees which process is sending right now.
  const watcher = openAppStorage({ dataDir, now: Date.now, log: SILENT });
  const watching = refundStoreOn(watcher.intents);
  const sendingBy = async (pid: number | undefined) =>
    (await watching.unfinished()).some((i) => i.state === 'sending' && i.sender?.endsWith(`:${pid}`));
  /**
   * `kill`: a delay from start, or a token shared by a round's CLI runs: the first of them seen sending
   * is killed at a random moment while its request is out.
   */
  const runCli = (txNo: string, amount: string, kill?: number | { taken: boolean }) =>
    new Promise<void>((done) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'electron/hosts/cli/index.ts',
          'refund',
          '--profile',
          PROFILE,
          '--transaction-no',
          txNo,
          '--amount',
          amount,
          '--currency',
          'USD',
          '--reason',
          'race',
          '--yes',
          '--data-dir',
          dataDir,
          '--timeout-ms',
          '5000',
        ],
        { cwd: ROOT, stdio: 'ignore', env: { ...process.env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token } },
      );
      children.add(child);
      let timer: NodeJS.Timeout | undefined;
      if (typeof kill === 'number') timer = setTimeout(() => child.kill('SIGKILL'), kill);
      if (typeof kill === 'object') {
        const poll = async () => {
          if (child.exitCode !== null || child.signalCode !== null || kill.taken) return;
          if (await sendingBy(child.pid)) {
            kill.taken = true;
            timer = setTimeout(() => child.kill('SIGKILL'), Math.floor(random() * 200));
          } else timer = setTimeout(() => void poll(), 10);
        };
        void poll();
      }
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        children.delete(child);
        const k = signal === 'SIGKILL' ? 'killed' : String(code);
        if (k === 'killed') tally.cliKilled += 1;
        tally.cliExit[k] = (tally.cliExit[k] ?? 0) + 1;
        done();
      });
    });

  for (let round = 0; round < ROUNDS; round += 1) {
    const p = payments[Math.floor(round / 2)]!;
    const amountMinor = Math.floor(p.amountMinor * 0.35);
    const amount = (amountMinor / 100).toFixed(2);
    // The first round on each payment kills one CLI run: at a random time from start-up, or while its request is
    // at the service; a browser host every 9 rounds, mid-submit.
    const killCli = round % 2 === 0 ? Math.floor(CLI_SLOTS * random()) : -1;
    const whileSending = killCli >= 0 && random() < 0.6 ? { taken: false } : undefined;
    const killHost = round % 9 === 4 ? Math.floor(HOSTS * random()) : -1;
    const work: Promise<void>[] = [];
    for (let c = 0; c < CLI_SLOTS; c += 1)
      work.push(
        runCli(
          p.transactionNo,
          amount,
          whileSending ?? (c === killCli ? 200 + Math.floor(random() * 1800) : undefined),
        ),
      );
    hosts.forEach((h, i) => {
      work.push(
        (async () => {
          // In a round that kills a CLI run mid-send, the (warm, fast) hosts join once a CLI run is sending.
          const until = Date.now() + 8000;
          while (whileSending && !whileSending.taken && Date.now() < until)
            await new Promise((r) => setTimeout(r, 20));
          if (i === killHost) setTimeout(() => h.child.kill('SIGKILL'), 20 + Math.floor(random() * 400));
          try {
            const r = await ipc(h, 'refunds.submit', {
              profileId: 'P-race',
              transactionNo: p.transactionNo,
              amountMinor,
              currency: 'USD',
              reasonCode: 'other',
              reasonNote: 'race',
              confirmation: { overLimit: true, typedAmount: amount },
            });
            if (r.ok) tally.hostAccepted += 1;
            else if (r.error?.code === 'conflict') tally.hostRefused += 1;
            else tally.hostOther += 1;
          } catch {
            tally.hostOther += 1; // killed mid-request
          }
        })(),
      );
    });
    tally.attempts += work.length;
    await Promise.all(work);
    if (killHost >= 0) {
      tally.hostsKilled += 1;
      children.delete(hosts[killHost]!.child);
      hosts[killHost] = await launch(); // a restart resumes what the killed host left
    }
  }

  // Every process that died while sending left its intent `sending`: the live hosts' watchers resolve
  // those by query. Then each intent still unknown is checked once more, as a person would.
  const storage = watcher;
  const until = Date.now() + 30_000;
  while (
    (await refundStoreOn(storage.intents).unfinished()).some((i) => i.state === 'sending') &&
    Date.now() < until
  )
    await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 500)); // refunds still at the service's door arrive
  for (const i of (await refundStoreOn(storage.intents).unfinished()).filter(
    (x) => x.state === 'outcome_unknown',
  ))
    await ipc(hosts[0]!, 'refunds.checkAgain', { profileId: 'P-race', id: i.id });
  await new Promise((r) => setTimeout(r, 300));
  for (const i of (await refundStoreOn(storage.intents).unfinished()).filter((x) => x.state === 'accepted'))
    await ipc(hosts[0]!, 'refunds.checkAgain', { profileId: 'P-race', id: i.id });

  const intents = await refundStoreOn(storage.intents).list();
  const byId = new Map(intents.map((i) => [i.id, i]));
  const snapshot = sb.state.snapshot();
  const atService = snapshot.refunds.filter((r) => payments.some((p) => p.transactionNo === r.transactionNo));

  // 1. Never two refund requests of one payment at the service at once.
  // 2. Never more refunded than paid.
  const overRefunded = payments.filter((p) => {
    const total = atService
      .filter(
        (r) => r.transactionNo === p.transactionNo && (r.status === 'success' || r.status === 'pending'),
      )
      .reduce((s, r) => s + r.refundAmountMinor, 0);
    return total > p.amountMinor;
  });
  // 3. Every refund the service applied is known to the desk as such (none lost, none "unknown" for ever).
  const lost = atService.filter((r) => {
    const i = r.refundReference ? byId.get(r.refundReference) : undefined;
    return !i || !['accepted', 'succeeded', 'failed'].includes(i.state);
  });
  // ... and every intent the desk calls applied is at the service.
  const phantom = intents.filter(
    (i) => ['accepted', 'succeeded'].includes(i.state) && !atService.some((r) => r.refundReference === i.id),
  );
  // 4. Nothing stuck without a stated reason.
  const stuck = intents.filter(
    (i) => i.state === 'sending' || (i.state === 'outcome_unknown' && !i.lastCheck?.note && !i.detail),
  );
  const states = intents.reduce<Record<string, number>>(
    (m, i) => ((m[i.state] = (m[i.state] ?? 0) + 1), m),
    {},
  );
  storage.close();

  console.log(
    `[race] ${HOSTS} browser hosts + ${CLI_SLOTS} CLI processes per round, ${ROUNDS} rounds, ${tally.attempts} attempts; ` +
      `killed: ${tally.cliKilled} CLI runs, ${tally.hostsKilled} hosts (restarted); ` +
      `hosts: ${tally.hostAccepted} sent, ${tally.hostRefused} refused (conflict), ${tally.hostOther} other; ` +
      `CLI exits ${JSON.stringify(tally.cliExit)}; intents ${JSON.stringify(states)}; ` +
      `service: ${proxy.stats.refundRequests} refund requests, ${atService.length} refunds applied, max ${proxy.stats.maxInFlight} in flight per payment; ` +
      `overlaps ${proxy.stats.overlaps}, over-refunds ${overRefunded.length}, lost ${lost.length}, phantom ${phantom.length}, stuck ${stuck.length}`,
  );

  expect(tally.attempts).toBeGreaterThanOrEqual(200);
  expect(tally.cliKilled + tally.hostsKilled).toBeGreaterThan(0);
  expect(atService.length).toBeGreaterThan(payments.length); // real contention, real refunds
  expect(proxy.stats.overlaps).toBe(0);
  expect(overRefunded).toEqual([]);
  expect(lost.map((r) => r.refundReference)).toEqual([]);
  expect(phantom.map((i) => i.id)).toEqual([]);
  expect(stuck.map((i) => i.id)).toEqual([]);
}, 420_000);
