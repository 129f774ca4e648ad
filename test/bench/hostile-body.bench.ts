import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import type { Figure } from './harness';

/**
 * A hostile service answers with a 1 GiB body — plain, or gzip (a few MB on the wire that inflate to
 * 1 GiB) — to a tran-query (read up to 2 MB) and to a trans-list (read up to 32 MB). The service runs
 * here; each call is made by hostile-caller.ts in a process of its own, so the figure is that process's
 * own peak resident memory (the kernel's maxRSS for it), not shared with the server or this runner.
 */
const GIB = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x20);
const CALLER = fileURLToPath(new URL('./hostile-caller.ts', import.meta.url));

function startHostileService(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    const gzip = req.url?.includes('/gzip/') ?? false;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    const out = gzip ? createGzip({ level: 1 }) : res;
    if (gzip) out.pipe(res);
    let sent = 0;
    let closed = false;
    res.on('close', () => {
      closed = true;
      if (gzip) (out as ReturnType<typeof createGzip>).destroy();
    });
    const pump = (): void => {
      while (!closed && sent < GIB) {
        sent += CHUNK.length;
        if (!out.write(CHUNK)) {
          out.once('drain', pump);
          return;
        }
      }
      if (!closed) out.end();
    };
    out.write('{"ret_code":"000100","result":{"pad":"');
    pump();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

interface CallerReport {
  peakBeforeMB: number;
  peakAfterMB: number;
  rssBeforeMB: number;
  refusedAs: string;
  message: string;
  elapsedMs: number;
}

export async function hostileBodyBench(): Promise<Figure[]> {
  const service = await startHostileService();
  const figures: Figure[] = [];
  try {
    for (const endpoint of ['tranQuery', 'transList'] as const) {
      for (const kind of ['plain', 'gzip'] as const) {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', CALLER, `http://127.0.0.1:${service.port}/${kind}`, endpoint],
          { maxBuffer: 1 << 20, timeout: 120_000 },
        );
        const r = JSON.parse(stdout.trim().split('\n').pop()!) as CallerReport;
        figures.push({
          bench: `hostile 1 GiB answer to ${endpoint === 'tranQuery' ? 'tran-query (2 MB cap)' : 'trans-list (32 MB cap)'}, ${kind}`,
          metric: "peak RSS (maxRSS) of the caller's process",
          value: `${r.peakAfterMB} MB`,
          note: `peak ${r.peakBeforeMB} MB before the call (RSS ${r.rssBeforeMB} MB); refused as ${r.refusedAs} in ${r.elapsedMs} ms — ${r.message}`,
        });
      }
    }
  } finally {
    await service.close();
  }
  return figures;
}
