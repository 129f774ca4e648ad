import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { TOO_LARGE, TransportError } from '../../../electron/core/services/gateway/http-port';

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

describe('a request marked fresh (a write: on a connection of its own)', () => {
  const fresh = (url: string, maxBytes?: number) =>
    http({
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      signal: new AbortController().signal,
      fresh: true,
      ...(maxBytes ? { maxBytes } : {}),
    });
  const failed = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  /** A server that answers with `answer(req, res)` and tells which connection each request came on. */
  async function server(answer: (req: IncomingMessage, res: ServerResponse) => void) {
    const conns: number[] = [];
    const ids = new WeakMap<object, number>();
    let opened = 0;
    const s = createServer((req, res) => {
      if (!ids.has(req.socket)) ids.set(req.socket, (opened += 1));
      conns.push(ids.get(req.socket)!);
      answer(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/w`;
    return { url, conns, close: () => new Promise((r) => (s.closeAllConnections(), s.close(r))) };
  }

  it('refused or a blocked port: never sent, as with fetch', async () => {
    expect(await failed(fresh(`http://127.0.0.1:${await closedPort()}/x`))).toMatchObject({
      phase: 'before-send',
      causeCode: 'ECONNREFUSED',
    });
    expect(await failed(fresh('http://127.0.0.1:9/x'))).toMatchObject({
      phase: 'before-send',
      causeCode: 'ERR_BAD_PORT',
    });
  });

  it('over https, a TLS handshake that fails is "never sent": not one byte of the request left', async () => {
    // A plain HTTP server answers the client's TLS hello with something that is not TLS.
    const s = await server((_req, res) => res.end('{}'));
    try {
      const e = await failed(fresh(s.url.replace('http:', 'https:')));
      expect(e).toBeInstanceOf(TransportError);
      expect(e).toMatchObject({ phase: 'before-send' });
      expect(s.conns).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('each request on a new connection; the body arrives as sent, a gzip answer is read', async () => {
    const bodies: string[] = [];
    const s = await server((req, res) => {
      let b = '';
      req.on('data', (c: Buffer) => (b += c.toString()));
      req.on('end', () => {
        bodies.push(b);
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
      });
    });
    try {
      for (let i = 0; i < 3; i += 1) expect(await fresh(s.url)).toEqual({ status: 200, text: '{"ok":true}' });
      expect(bodies).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
      expect(new Set(s.conns).size).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('dropped after the request arrived: may have reached the service; too large: refused', async () => {
    const drop = await server((req) => req.on('data', () => req.socket.destroy()));
    const big = await server((_req, res) => res.writeHead(200).end('x'.repeat(5_000)));
    try {
      const e = await failed(fresh(drop.url));
      expect(e).toBeInstanceOf(TransportError);
      expect(e).toMatchObject({ phase: 'unknown' });
      expect(await failed(fresh(big.url, 1_000))).toMatchObject({ phase: 'unknown', causeCode: TOO_LARGE });
    } finally {
      await drop.close();
      await big.close();
    }
  });
});
