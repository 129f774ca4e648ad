import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from '../../../shared/domain/errors';
import { createFetchHttpClient, MAX_RESPONSE_BYTES } from '../../../electron/core/adapters/http-fetch';
import { TOO_LARGE } from '../../../electron/core/services/gateway/http-port';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { createFakeLogger } from '../../fakes/logger';
import { createTally, FUZZ_SEED, fuzzRuns, reportFigures } from './figures';

/**
 * The payment service answering badly, over real HTTP through the real fetch adapter and gateway
 * client: malformed JSON, wrong types, HTML, redirects, truncated and reset connections, trickling and
 * hanging, huge and gzip-bombed bodies, error statuses. A read (tran-query) and a write (refund) must
 * each end with a typed AppError — or a correctly parsed answer — inside the time budget, never an
 * exception of another kind and never a hang.
 */
const TIMEOUT_MS = 500;
const BUDGET_MS = 800;
const SLACK_MS = 600;

type Fault = (req: IncomingMessage, res: ServerResponse) => void;
let fault: Fault = (_req, res) => res.end();
const sockets = new Set<Socket>();
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => fault(req, res));
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
const tally = createTally();
let baseUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  reportFigures('gateway-answers', tally.rows());
});

const gateway = createGatewayClient({
  http: createFetchHttpClient(),
  clock: { now: Date.now },
  log: createFakeLogger(),
  config: () => ({ baseUrl, merchantNo: '200043', storeNo: '300014', token: 'gateway-fuzz-token' }),
  timeoutMs: TIMEOUT_MS,
  readBudgetMs: BUDGET_MS,
  retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
});

/** Runs one read and one write against the current fault and checks the outcome and the time. */
async function bothCalls(name: string): Promise<void> {
  const calls = [
    ['read', BUDGET_MS, () => gateway.queryTransaction({ transactionNo: '297553638300708562' })],
    [
      'write',
      TIMEOUT_MS,
      () =>
        gateway.refund({
          transactionNo: '297553638300708562',
          refundAmountMinor: 100,
          currency: 'USD',
          settleCurrency: 'USD',
          refundReference: 'RD0FUZZ',
        }),
    ],
  ] as const;
  for (const [kind, limit, run] of calls) {
    const started = performance.now();
    let outcome: string;
    try {
      await run();
      outcome = 'parsed';
    } catch (e) {
      expect(e, `${name} ${kind}: ${String(e)}`).toBeInstanceOf(AppError);
      const code = (e as AppError).code;
      expect(ERROR_CODES).toContain(code);
      expect(code).not.toBe('internal');
      outcome = code;
    }
    const took = performance.now() - started;
    expect(took, `${name} ${kind}`).toBeLessThan(limit + SLACK_MS);
    tally.add(`${name} (${kind})`, outcome);
  }
}

const json = (res: ServerResponse, status: number, body: string, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

describe('gateway answers from a broken or hostile service', () => {
  it('malformed JSON and truncated JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.jsonValue().map((v) => JSON.stringify({ ret_code: '000100', result: v }).slice(0, -1)),
          fc.constantFrom(
            '{',
            '{"ret_code":',
            '{"ret_code":"000100","result":{',
            'NaN',
            '\u0000',
            '\ufeff{}',
          ),
        ),
        async (body) => {
          fault = (_req, res) => json(res, 200, body);
          await bothCalls('malformed JSON');
        },
      ),
      { seed: FUZZ_SEED + 300, numRuns: fuzzRuns(60) },
    );
  });

  it('well-formed JSON of the wrong types (envelope and result)', async () => {
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(null, 0, -1, 1e308, '', 'x'.repeat(5_000), [], {}, true),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.record({ ret_code: weird, ret_msg: weird, result: weird }, { requiredKeys: [] }),
          fc.record({
            ret_code: fc.constant('000100'),
            result: fc.record(
              {
                transactionNo: weird,
                amount: weird,
                currency: weird,
                status: weird,
                refundTransactionNo: weird,
                refundAmount: weird,
                refundInfo: weird,
              },
              { requiredKeys: [] },
            ),
          }),
        ),
        async (value) => {
          fault = (_req, res) => json(res, 200, JSON.stringify(value));
          await bothCalls('wrong types');
        },
      ),
      { seed: FUZZ_SEED + 301, numRuns: fuzzRuns(120) },
    );
  });

  it('HTML pages and error statuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(200, 400, 401, 403, 404, 418, 429, 500, 502, 503, 504),
        fc.constantFrom(
          '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>',
          '<html><head><meta http-equiv="refresh" content="0;url=https://login.example"></head></html>',
          '',
        ),
        async (status, html) => {
          fault = (_req, res) => json(res, status, html, 'text/html');
          await bothCalls('HTML / status');
        },
      ),
      { seed: FUZZ_SEED + 302, numRuns: fuzzRuns(30) },
    );
  });

  it('redirects are not followed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(301, 302, 303, 307, 308),
        fc.constantFrom('https://evil.example/refund', '/v1/refund', 'http://127.0.0.1:1/', 'javascript:1'),
        async (status, location) => {
          let followed = 0;
          fault = (req, res) => {
            if (req.url?.includes('followed')) followed += 1;
            res.writeHead(status, { location });
            res.end();
          };
          await bothCalls('redirect');
          expect(followed).toBe(0);
        },
      ),
      { seed: FUZZ_SEED + 303, numRuns: fuzzRuns(20) },
    );
  });

  it('truncated bodies and reset connections', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'short-content-length',
          'chunked-then-close',
          'reset-before-headers',
          'reset-after-headers',
        ),
        async (how) => {
          fault = (req, res) => {
            if (how === 'reset-before-headers') return req.socket.destroy();
            if (how === 'short-content-length') {
              res.writeHead(200, { 'content-type': 'application/json', 'content-length': 10_000 });
              res.write('{"ret_code":"000100","result":{');
              return setTimeout(() => req.socket.destroy(), 10);
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write('{"ret_code":"000100"');
            setTimeout(() => req.socket.destroy(), how === 'reset-after-headers' ? 0 : 20);
          };
          await bothCalls('truncated / reset');
        },
      ),
      { seed: FUZZ_SEED + 304, numRuns: fuzzRuns(16) },
    );
  });

  it('huge bodies (plain and gzip-bombed) are refused without reading them whole', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MB of spaces in ~64 KB
    for (const kind of ['plain', 'gzip'] as const) {
      fault = (_req, res) => {
        if (kind === 'gzip') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          return res.end(bomb);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 40 && res.write(chunk)) sent += 1;
          if (sent >= 40) res.end();
          else res.once('drain', () => ((sent += 1), pump()));
        };
        pump();
      };
      await bothCalls(`huge body (${kind})`);
      // The read says why, apart from a garbled answer: larger than the 2 MB a single record may be.
      await expect(gateway.queryTransaction({ transactionNo: '297553638300708562' })).rejects.toMatchObject({
        code: 'unavailable',
        details: { endpoint: 'tranQuery', tooLarge: true, maxBytes: 2 * 1024 * 1024 },
      });
    }
  });

  it('the HTTP adapter itself stops at 32 MB instead of returning the text', async () => {
    fault = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 0x20));
    };
    const http = createFetchHttpClient();
    const r = http({ url: `${baseUrl}/x`, headers: {}, body: '{}', signal: AbortSignal.timeout(5_000) });
    await expect(r).rejects.toMatchObject({ name: 'TransportError', causeCode: TOO_LARGE });
  });

  it('trickling and hanging services end within the time budget', async () => {
    for (const how of ['trickle-body', 'hang-before-headers'] as const) {
      fault = (_req, res) => {
        if (how === 'hang-before-headers') return; // never answers
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ret_code":"000100","result":{');
        const t = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(t));
      };
      await bothCalls(how);
    }
  });

  it('an amount whose JSON number says more than a double holds is refused, never read as a nearby amount', async () => {
    /** The exact value of a decimal text in USD cents, or undefined when it has more than 2 decimals. */
    const cents = (text: string) => {
      const [whole = '', frac = ''] = text.split('.');
      const f = frac.replace(/0+$/, '');
      return f.length > 2 ? undefined : Number(BigInt(whole) * 100n + BigInt(f.padEnd(2, '0')));
    };
    const answers = (amount: string) => {
      fault = (req, res) =>
        json(
          res,
          200,
          req.url?.endsWith('/refund')
            ? `{"ret_code":"000100","result":{"refundTransactionNo":"900000000000000001","transactionNo":"297553638300708562","refundAmount":${amount},"currency":"USD","status":"success"}}`
            : `{"ret_code":"000100","result":{"transactionNo":"297553638300708562","amount":${amount},"currency":"USD","status":"success","transactionType":"payment","refundInfo":[{"refundTransactionNo":"9","refundAmount":${amount},"currency":"USD","status":"success"}]}}`,
        );
    };
    const read = () => gateway.queryTransaction({ transactionNo: '297553638300708562' });
    const write = () =>
      gateway.refund({
        transactionNo: '297553638300708562',
        refundAmountMinor: 10030,
        currency: 'USD',
        settleCurrency: 'USD',
        refundReference: 'RD0FUZZ',
      });
    const check = async (amount: string) => {
      answers(amount);
      const want = cents(amount);
      const r = await read().catch((e: unknown) => e);
      const w = await write().catch((e: unknown) => e);
      if (want === undefined) {
        expect(r, `read ${amount}`).toMatchObject({ code: 'unavailable', details: { ret_code: '000100' } });
        expect(w, `write ${amount}`).toMatchObject({ code: 'outcome_unknown' });
      } else {
        expect(r, `read ${amount}`).toMatchObject({
          transaction: { amountMinor: want, refunds: [{ refundAmountMinor: want }] },
        });
        expect(w, `write ${amount}`).toMatchObject({ refundAmountMinor: want });
      }
      tally.add('inexact JSON amount', want === undefined ? 'refused' : 'parsed');
    };
    // 100.3000000000000001 is the double 100.3; 100.30000000000001 is a double of its own.
    for (const amount of ['100.3000000000000001', '100.30000000000001', '100.30', '100.3', '100.300000000'])
      await check(amount);
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 22 }),
        async (whole, frac) => check(frac ? `${whole}.${frac}` : String(whole)),
      ),
      { seed: FUZZ_SEED + 305, numRuns: fuzzRuns(60) },
    );
  });

  it('faults injected in total', () => {
    expect(tally.total()).toBeGreaterThan(400);
  });
});
