import { spawn } from 'node:child_process';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createLogger } from '../../electron/core/adapters/logger';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { isAppError } from '../../shared/domain/errors';
import type { Figure } from './harness';

/**
 * A hostile service answers a lookup with a 1 GiB body — plain, or gzip (a few MB on the wire that
 * inflate to 1 GiB). The server runs in its own process so that what is measured is this process (the
 * gateway as main runs it): peak resident memory while the answer is refused, and how long refusing took.
 */
const SERVER = `
const http = require('node:http'); const zlib = require('node:zlib');
const GIB = 1024 * 1024 * 1024; const chunk = Buffer.alloc(1024 * 1024, 0x20);
http.createServer((req, res) => {
  req.resume();
  const gzip = req.url.includes('gzip');
  res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  const out = gzip ? zlib.createGzip({ level: 1 }) : res;
  if (gzip) out.pipe(res);
  let sent = 0; let closed = false;
  res.on('close', () => { closed = true; });
  const pump = () => {
    while (!closed && sent < GIB) { sent += chunk.length; if (!out.write(chunk)) return out.once('drain', pump); }
    if (!closed) out.end();
  };
  out.write('{"ret_code":"000100","result":{"pad":"'); pump();
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

export async function hostileBodyBench(): Promise<Figure[]> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())),
  );
  const figures: Figure[] = [];
  try {
    for (const kind of ['plain', 'gzip'] as const) {
      const gateway = createGatewayClient({
        http: createFetchHttpClient(),
        clock: { now: Date.now },
        log: createLogger({ sink: () => {} }),
        config: () => ({
          baseUrl: `http://127.0.0.1:${port}/${kind}`,
          merchantNo: '1',
          storeNo: '2',
          token: 'bench-token-123',
        }),
        retry: { retries: 0 },
      });
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
      const started = performance.now();
      let code = 'none';
      try {
        await gateway.queryTransaction({ transactionNo: '297553638300708562' });
      } catch (e) {
        code = isAppError(e) ? e.code : 'exception';
      }
      const elapsed = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      figures.push({
        bench: `hostile 1 GiB answer (${kind})`,
        metric: 'peak RSS of the caller while refusing',
        value: `${(peak / 2 ** 20).toFixed(0)} MB`,
        note: `was ${(before / 2 ** 20).toFixed(0)} MB before; refused as ${code} in ${elapsed.toFixed(0)} ms`,
      });
    }
  } finally {
    child.kill();
  }
  return figures;
}
