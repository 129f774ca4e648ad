import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { TransportError } from '../../../electron/core/services/gateway/http-port';

const http = createFetchHttpClient();
const post = (url: string) =>
  http({ url, headers: {}, body: '{}', signal: new AbortController().signal }).then(
    () => undefined,
    (e: unknown) => e,
  );

/** A port that was listening a moment ago and is now closed: the connection is refused. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

it('a refused connection provably never left this machine', async () => {
  const e = await post(`http://127.0.0.1:${await closedPort()}/x`);
  expect(e).toBeInstanceOf(TransportError);
  expect(e).toMatchObject({ phase: 'before-send', causeCode: 'ECONNREFUSED' });
});

it('a port fetch blocks (here 9) is refused before connecting: never sent, not "may have reached the service"', async () => {
  const e = await post('http://127.0.0.1:9/x');
  expect(e).toBeInstanceOf(TransportError);
  expect(e).toMatchObject({ phase: 'before-send', causeCode: 'ERR_BAD_PORT' });
});
