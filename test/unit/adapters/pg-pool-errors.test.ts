import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool } from '../../../electron/core/adapters/postgres/connection';

/** A server that answers any startup as PostgreSQL does (AuthenticationOk, ReadyForQuery) and then waits. */
let server: Server;
let port = 0;
const message = (type: string, body: Buffer) => {
  const b = Buffer.alloc(5 + body.length);
  b.write(type, 0);
  b.writeInt32BE(4 + body.length, 1);
  body.copy(b, 5);
  return b;
};
beforeAll(async () => {
  server = createServer((socket) =>
    socket.once('data', () =>
      socket.write(Buffer.concat([message('R', Buffer.from([0, 0, 0, 0])), message('Z', Buffer.from('I'))])),
    ),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the desk pool', () => {
  it('a checked-out connection that errors with nobody else listening does not throw (it would end the process)', async () => {
    const pool = createPgPool({ connectionString: `postgres://desk@127.0.0.1:${port}/team` });
    const client = await pool.connect();
    // pg-pool listens to a connection's errors only while it is idle; a server stopping (57P01) can reach
    // a checked-out one before whoever checked it out listens.
    expect(() =>
      client.emit('error', Object.assign(new Error('terminating connection'), { code: '57P01' })),
    ).not.toThrow();
    client.release(true);
    await pool.end();
  });
});
