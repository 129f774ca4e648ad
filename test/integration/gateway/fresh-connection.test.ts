import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { gatewayFor, refundablePayment } from './helpers';

/**
 * A refund (a write: sent once, never resent) never goes out on a pooled keep-alive connection.
 *
 * In front of the sandbox, a proxy that drops a connection, unread, on its second request: what a
 * client meets when the service (or its load balancer) closed an idle connection just as the next
 * request went out. A busy machine notices such a close late — under load the batch kill test saw
 * refunds fail with "other side closed" on connections idle for 5 s (the sandbox's keep-alive timeout),
 * left "outcome unknown" though the service never received them. A read survives it by retrying; a
 * refund on a reused connection would be lost that way. On its own new connection it always arrives.
 */

let sb: RunningSandbox;
let proxy: Server;
let proxyUrl: string;
/** Requests per path: forwarded to the sandbox, or dropped because their connection was reused. */
const seen: { path: string; reused: boolean }[] = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 31, transactions: 150, refundSettleMs: 20 });
  const served = new WeakMap<Socket, number>();
  proxy = createServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    seen.push({ path: req.url ?? '', reused: n > 1 });
    if (n > 1) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void fetch(`${sb.baseUrl}${req.url ?? '/'}`, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') },
        body: Buffer.concat(chunks),
      })
        .then(async (r) => {
          const text = await r.text();
          res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sb.close();
});

it('a refund goes out on a connection of its own: a pooled one closed under it cannot leave it unknown', async () => {
  const gw = gatewayFor({ baseUrl: proxyUrl });
  const p = refundablePayment(sb);
  // Reads: some are offered a pooled connection, which the proxy drops; they are retried and answered
  // — so the pool is in use and the proxy drops reused connections (this test can fail).
  for (let i = 0; i < 4; i += 1) await gw.queryTransaction({ transactionNo: p.transactionNo });
  expect(seen.filter((s) => s.reused && s.path.endsWith('/tran-query')).length).toBeGreaterThan(0);

  // Right after, with a pooled connection idle: the refund.
  const ref = 'RDFRESHCONN00001';
  const answer = await gw.refund({
    transactionNo: p.transactionNo,
    refundAmountMinor: 100,
    currency: p.currency,
    settleCurrency: p.settleCurrency,
    refundReference: ref,
  });
  expect(answer.refundReference).toBe(ref);
  const refunds = sb.state.snapshot().refunds.filter((r) => r.refundReference === ref);
  expect(refunds).toHaveLength(1);
  // Every refund was the first request on its connection.
  const writes = seen.filter((s) => s.path.endsWith('/refund'));
  expect(writes).toEqual([{ path: expect.stringMatching(/\/refund$/), reused: false }]);

  // Several in a row, each on its own connection: none is dropped, each applied once.
  for (let i = 2; i <= 4; i += 1) {
    const q = refundablePayment(sb, i);
    await gw.refund({
      transactionNo: q.transactionNo,
      refundAmountMinor: 100,
      currency: q.currency,
      settleCurrency: q.settleCurrency,
      refundReference: `RDFRESHCONN0000${i}`,
    });
  }
  expect(seen.filter((s) => s.path.endsWith('/refund') && s.reused)).toEqual([]);
  expect(
    sb.state.snapshot().refunds.filter((r) => r.refundReference?.startsWith('RDFRESHCONN')),
  ).toHaveLength(4);
});
