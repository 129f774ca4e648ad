import { createServer, type Server, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { openPostgresIntentStore } from '../../../electron/core/adapters/postgres/intent-store';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * A server shutting down (`pg_ctl stop -m fast`) sends "terminating connection due to administrator
 * command" to every backend — also to one whose handshake has just ended, in the same read as its
 * ReadyForQuery. A client nobody listens to yet then throws from the socket's event and the process ends
 * (CI saw it while the outbox tests paused the server). This test makes that read happen on purpose: a
 * TCP proxy in front of a real server appends the shutdown's ErrorResponse to the first ReadyForQuery of
 * the change feed's connection. The feed must note it, reconnect and listen.
 */
let cluster: TestCluster;
let url: string;
let proxy: Server;
let inject = false;
let injected = 0;

/** ErrorResponse FATAL 57P01, as the server writes it. */
function shutdownError(): Buffer {
  const fields = Buffer.from(
    'SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0',
    'latin1',
  );
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

beforeAll(async () => {
  cluster = await startPostgres();
  const owner = await cluster.createDatabase(`feed_${process.pid}`);
  await migratePostgres({ connectionString: owner });
  proxy = createServer((client) => {
    const server = tcpConnect(cluster.port, cluster.host);
    const armed = inject;
    let pending = Buffer.alloc(0);
    let done = false;
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.pipe(server);
    server.on('data', (chunk: Buffer) => {
      if (!armed || done) return void client.write(chunk);
      // Server → client is a sequence of typed messages: find the first ReadyForQuery ('Z').
      pending = Buffer.concat([pending, chunk]);
      let at = 0;
      while (pending.length - at >= 5) {
        const len = pending.readInt32BE(at + 1);
        if (pending.length - at < 1 + len) break;
        const type = String.fromCharCode(pending[at]!);
        at += 1 + len;
        if (type === 'Z') {
          done = true;
          injected += 1;
          client.end(Buffer.concat([pending.subarray(0, at), shutdownError()]));
          server.destroy();
          return;
        }
      }
    });
    server.on('end', () => client.end());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as { port: number }).port;
  const u = new URL(owner);
  u.host = `127.0.0.1:${port}`;
  url = u.toString();
}, 90_000);

afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  cluster?.stop();
});

it('a shutdown notice in the same read as the handshake’s end is noted, and the feed listens again', async () => {
  const errors: Array<{ where: string; message: string }> = [];
  let listening = 0;
  const opened = await openPostgresIntentStore({
    connectionString: url,
    applicationName: 'feed-handshake',
    heartbeatMs: 100,
    onConnectionError: (where, e) =>
      errors.push({ where, message: e instanceof Error ? e.message : String(e) }),
    onConnected: () => {
      listening += 1;
    },
  });
  try {
    // The pool is open; the next new connection is the change feed's.
    inject = true;
    const stop = opened.store.watch(() => undefined);
    const end = Date.now() + 15_000;
    while (injected === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    inject = false;
    expect(injected).toBe(1);
    while (listening === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(listening).toBeGreaterThanOrEqual(1);
    expect(errors.some((e) => /^watch\./.test(e.where))).toBe(true);
    stop();
  } finally {
    await opened.close();
  }
}, 60_000);
