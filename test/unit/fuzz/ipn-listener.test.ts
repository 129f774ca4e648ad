import { request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../../../shared/protocol/signing';
import { createIpnListener } from '../../../electron/core/adapters/ipn-http-listener';
import type { IpnEvent } from '../../../electron/core/services/ipn/events';
import { createFakeLogger } from '../../fakes/logger';
import { createTally, FUZZ_SEED, fuzzRuns, reportFigures } from './figures';

/**
 * The IPN listener fed hostile notifications (seeded, bounded): forged and tampered signatures, the
 * wrong profile, replays, oversized bodies, slow senders, wrong routes and browser origins. Only an
 * authentic, new notification is recorded and answered `success`; everything else is refused with a
 * status, and the listener keeps serving.
 */
const TOKEN = 'ipn-fuzz-token-4f1c2a';
const OTHER_TOKEN = 'ipn-fuzz-token-other';
const SLOW_MS = 300;

const tally = createTally();
const recorded: IpnEvent[] = [];
const hinted: IpnEvent[] = [];
const log = createFakeLogger();
const listener = createIpnListener({
  clock: { now: Date.now },
  log,
  tokenFor: async (id) => (id === 'P1' ? TOKEN : id === 'P2' ? OTHER_TOKEN : undefined),
  record: async (e) => void recorded.push(e),
  onEvent: (e) => hinted.push(e),
  slowSenderMs: SLOW_MS,
});
let base = '';

beforeAll(async () => {
  base = await listener.start();
});
afterAll(async () => {
  await listener.stop();
  reportFigures('ipn-listener', tally.rows(), { recorded: recorded.length, hinted: hinted.length });
});

type Answer = { status: number; text: string } | { error: string };

/** One POST on a fresh connection; a reset or a closed socket is an answer too (`error`). */
function post(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? 'error' }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? 'error' }));
    req.end(body);
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const encode = (fields: Record<string, string>, asJson: boolean) =>
  asJson ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
const outcomeOf = (a: Answer) => ('error' in a ? a.error : `${a.status} ${a.text}`);

const digits = (min: number, max: number) =>
  fc.stringMatching(new RegExp(`^[1-9][0-9]{${min - 1},${max - 1}}$`));
/** A notification the service could really send (payment or refund), not yet signed. */
const genuineIpn = fc.oneof(
  fc.record({
    transactionNo: digits(18, 20),
    reference: fc.stringMatching(/^[A-Za-z0-9-]{1,32}$/),
    amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
    currency: fc.constantFrom('USD', 'CNY', 'JPY', 'HKD'),
    settleCurrency: fc.constant('USD'),
    status: fc.constantFrom('success', 'pending', 'closed', 'failed'),
    time: fc.constant('20260115120000'),
  }),
  fc.record({
    transactionType: fc.constant('refund'),
    transactionNo: digits(18, 20),
    refundTransactionNo: digits(18, 20),
    refundReference: fc.stringMatching(/^RD[A-Z0-9]{8,20}$/),
    refundAmount: fc.integer({ min: 1, max: 100_000 }).map((n) => (n / 100).toFixed(2)),
    currency: fc.constant('USD'),
    status: fc.constantFrom('success', 'pending', 'failed'),
  }),
);
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '"><script>', '../../etc', '%00', '0'.repeat(64)),
);

const before = () => ({ recorded: recorded.length, hinted: hinted.length });

describe('IPN listener under hostile input', () => {
  it('forged signatures (random fields, random or wrong-token verifySign) are refused with 401', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 16 }), hostileText, { maxKeys: 12 }),
        fc.oneof(
          fc.stringMatching(/^[0-9a-f]{32}$/),
          hostileText,
          fc.constant('wrong-token'),
          fc.constant(undefined),
        ),
        fc.boolean(),
        async (fields, sign, asJson) => {
          const was = before();
          const body =
            sign === 'wrong-token'
              ? signParams(fields, OTHER_TOKEN)
              : { ...fields, ...(sign === undefined ? {} : { verifySign: sign }) };
          const a = await post('/ipn/P1', encode(body, asJson), asJson ? JSON_TYPE : FORM);
          tally.add('forged signature', outcomeOf(a));
          expect(a).toEqual({ status: 401, text: 'fail' });
          expect(before()).toEqual(was);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(150) },
    );
  });

  it('a genuine notification with one field tampered, added or removed is refused with 401', async () => {
    await fc.assert(
      fc.asyncProperty(
        genuineIpn,
        fc.nat(),
        fc.constantFrom('change', 'add', 'remove', 'drop-sign'),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.boolean(),
        async (ipn, pick, how, value, asJson) => {
          const signed: Record<string, string> = signParams(ipn, TOKEN);
          const keys = Object.keys(ipn);
          const key = keys[pick % keys.length]!;
          if (how === 'change') signed[key] = signed[key] === value ? `${value}x` : value;
          if (how === 'add') signed[`extra_${value}`] = value;
          if (how === 'remove') delete signed[key];
          if (how === 'drop-sign') delete signed['verifySign'];
          const was = before();
          const a = await post('/ipn/P1', encode(signed, asJson), asJson ? JSON_TYPE : FORM);
          tally.add(`tampered (${how})`, outcomeOf(a));
          expect(a).toEqual({ status: 401, text: 'fail' });
          expect(before()).toEqual(was);
        },
      ),
      { seed: FUZZ_SEED + 1, numRuns: fuzzRuns(120) },
    );
  });

  it('a genuine notification sent to another profile is refused (it is signed with the wrong token)', async () => {
    await fc.assert(
      fc.asyncProperty(genuineIpn, fc.constantFrom('P2', 'P3', 'P1x'), async (ipn, profile) => {
        const was = before();
        const a = await post(`/ipn/${profile}`, encode(signParams(ipn, TOKEN), false), FORM);
        tally.add('wrong profile', outcomeOf(a));
        expect(a).toEqual({ status: 401, text: 'fail' });
        expect(before()).toEqual(was);
      }),
      { seed: FUZZ_SEED + 2, numRuns: fuzzRuns(30) },
    );
  });

  it('replays of a genuine notification are acknowledged but recorded and confirmed once', async () => {
    await fc.assert(
      fc.asyncProperty(genuineIpn, fc.integer({ min: 2, max: 5 }), async (ipn, times) => {
        const was = before();
        const body = encode(signParams(ipn, TOKEN), false);
        for (let i = 0; i < times; i += 1) {
          const a = await post('/ipn/P1', body, FORM);
          tally.add(i === 0 ? 'genuine (first)' : 'replay', outcomeOf(a));
          expect(a).toEqual({ status: 200, text: 'success' });
        }
        expect(before()).toEqual({ recorded: was.recorded + 1, hinted: was.hinted + 1 });
      }),
      { seed: FUZZ_SEED + 3, numRuns: fuzzRuns(30) },
    );
  });

  it('replays after a restart are acknowledged but neither recorded nor confirmed again', async () => {
    // The database keeps the dedup keys (stand-in: a map shared by two listener lifetimes).
    const database = new Map<string, IpnEvent>();
    const persisted = async (e: IpnEvent, key: string) => {
      if (database.has(key)) return 'duplicate' as const;
      database.set(key, e);
      return 'recorded' as const;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(genuineIpn, { minLength: 1, maxLength: 4, selector: (i) => i.transactionNo }),
        async (ipns) => {
          database.clear();
          const confirmations: IpnEvent[] = [];
          for (const lifetime of ['before restart', 'after restart'] as const) {
            const l = createIpnListener({
              clock: { now: Date.now },
              log: createFakeLogger(),
              tokenFor: async (id) => (id === 'P1' ? TOKEN : undefined),
              record: persisted,
              onEvent: (e) => confirmations.push(e),
            });
            const url = `${await l.start()}/ipn/P1`;
            try {
              for (const ipn of ipns) {
                const a = await new Promise<Answer>((resolve) => {
                  const req = request(url, { method: 'POST', agent: false, headers: FORM }, (res) => {
                    let text = '';
                    res.on('data', (c: Buffer) => (text += c.toString()));
                    res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
                  });
                  req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? 'error' }));
                  req.end(encode(signParams(ipn, TOKEN), false));
                });
                tally.add(`replay (${lifetime})`, outcomeOf(a));
                expect(a).toEqual({ status: 200, text: 'success' });
              }
            } finally {
              await l.stop();
            }
          }
          expect(database.size).toBe(ipns.length);
          expect(confirmations).toHaveLength(ipns.length);
        },
      ),
      { seed: FUZZ_SEED + 6, numRuns: fuzzRuns(10) },
    );
  });

  it('oversized bodies are refused with 413 (or the connection closed), nothing recorded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 64 * 1024 + 1, max: 2 * 1024 * 1024 }),
        fc.boolean(),
        async (size, signedPrefix) => {
          const was = before();
          const prefix = signedPrefix
            ? `${encode(signParams({ transactionNo: '1', status: 'x' }, TOKEN), false)}&pad=`
            : '';
          const body = Buffer.concat([Buffer.from(prefix), Buffer.alloc(size, 0x61)]);
          const a = await post('/ipn/P1', body, FORM);
          tally.add('oversized body', outcomeOf(a));
          if ('error' in a) expect(['ECONNRESET', 'EPIPE']).toContain(a.error);
          else expect(a).toEqual({ status: 413, text: 'fail' });
          expect(before()).toEqual(was);
        },
      ),
      { seed: FUZZ_SEED + 4, numRuns: fuzzRuns(12) },
    );
  });

  it('wrong routes, methods and browser origins are refused before anything is read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            kind: fc.constant('path'),
            path: fc.webPath().filter((p) => !/^\/ipn\/[\w-]{1,64}$/.test(p)),
          }),
          fc.record({
            kind: fc.constant('method'),
            method: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'),
          }),
          fc.record({ kind: fc.constant('origin'), origin: fc.webUrl() }),
        ),
        genuineIpn,
        async (attack, ipn) => {
          const was = before();
          const body = encode(signParams(ipn, TOKEN), false);
          const a =
            attack.kind === 'path'
              ? await post(attack.path.startsWith('/') ? attack.path : `/${attack.path}`, body, FORM)
              : attack.kind === 'method'
                ? await post('/ipn/P1', body, FORM, attack.method)
                : await post('/ipn/P1', body, { ...FORM, origin: attack.origin });
          tally.add(`wrong ${attack.kind}`, outcomeOf(a));
          expect('status' in a && [400, 403, 404, 405].includes(a.status)).toBe(true);
          expect(before()).toEqual(was);
        },
      ),
      { seed: FUZZ_SEED + 5, numRuns: fuzzRuns(60) },
    );
  });

  it('slow senders are cut off: a trickled body gets 408, trickled headers a closed connection', async () => {
    const port = Number(new URL(base).port);
    const trickle = (mode: 'body' | 'headers') =>
      new Promise<{ closedAfterMs: number; reply: string }>((resolve) => {
        const started = performance.now();
        const socket = connect(port, '127.0.0.1');
        let reply = '';
        const head =
          'POST /ipn/P1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n';
        socket.on('connect', () => {
          if (mode === 'body') socket.write(`${head}Content-Length: 100000\r\n\r\n`);
          else socket.write('POST /ipn/P1 HTTP/1.1\r\n');
          const t = setInterval(() => socket.write(mode === 'body' ? 'a' : 'X'), 50);
          socket.on('close', () => clearInterval(t));
        });
        socket.on('data', (d) => (reply += d.toString()));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ closedAfterMs: performance.now() - started, reply }));
      });
    const slowBody = await trickle('body');
    tally.add('slow sender (body)', slowBody.reply.split('\r\n')[0] ?? 'closed');
    expect(slowBody.reply).toMatch(/^HTTP\/1\.1 408/);
    expect(slowBody.closedAfterMs).toBeLessThan(SLOW_MS + 1_000);
    const slowHeaders = await trickle('headers');
    tally.add('slow sender (headers)', slowHeaders.reply.split('\r\n')[0] || 'closed');
    expect(slowHeaders.closedAfterMs).toBeLessThan(2 * SLOW_MS + 1_500);
  });

  it('after all of it, the listener still records a new genuine notification', async () => {
    const was = before();
    const a = await post(
      '/ipn/P1',
      encode(
        signParams({ transactionNo: '297553638300799999', status: 'success', amount: '1.00' }, TOKEN),
        false,
      ),
      FORM,
    );
    expect(a).toEqual({ status: 200, text: 'success' });
    expect(before()).toEqual({ recorded: was.recorded + 1, hinted: was.hinted + 1 });
    // Forgeries were logged rate-limited and without their fields.
    expect(JSON.stringify(log.lines)).not.toContain(TOKEN);
    expect(tally.total()).toBeGreaterThan(300);
  });
});
