import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { createFakeLogger } from '../../fakes/logger';

/** Answers every request with a 3 MB body (gzip when asked), shaped like a valid envelope. */
let server: Server;
let base: string;
beforeAll(async () => {
  const pad = ' '.repeat(3 * 1024 * 1024);
  server = createServer((req, res) => {
    req.resume();
    const body = Buffer.from(`{"ret_code":"000100","result":{"pad":"${pad}"}}`);
    const gzip = req.url?.startsWith('/gzip');
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(gzip ? gzipSync(body) : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const gateway = (prefix: string) =>
  createGatewayClient({
    http: createFetchHttpClient(),
    clock: { now: Date.now },
    log: createFakeLogger(),
    config: () => ({ baseUrl: `${base}${prefix}`, merchantNo: '1', storeNo: '2', token: 'size-test-token' }),
    retry: { retries: 0 },
  });

it.each(['', '/gzip'])(
  'a 3 MB answer to a lookup is refused as unreadable, not read whole (%s)',
  async (prefix) => {
    await expect(gateway(prefix).queryTransaction({ transactionNo: '1' })).rejects.toMatchObject({
      code: 'unavailable',
    });
  },
);

it('a refund answer past the limit is an unknown outcome (the service may have acted)', async () => {
  await expect(
    gateway('').refund({
      transactionNo: '1',
      refundAmountMinor: 100,
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'RDX',
    }),
  ).rejects.toMatchObject({ code: 'outcome_unknown' });
});
