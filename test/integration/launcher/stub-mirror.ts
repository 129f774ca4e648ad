import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZipFile } from 'yazl';

/**
 * A local stand-in for Electron's GitHub releases: serves `<version>/electron-<version>-<platform>-<arch>.zip`
 * and `<version>/SHASUMS256.txt` on 127.0.0.1, laid out as @electron/get asks for them
 * (`${ELECTRON_MIRROR}v45.4.1/electron-v45.4.1-linux-x64.zip`). The zip holds what the electron package's
 * installer unpacks into node_modules/electron/dist: an executable `electron` (here a shell script that
 * appends how it was started to a record file) and a `version` file.
 */
export interface StubMirror {
  /** For ELECTRON_MIRROR: ends with a slash, the version directory is appended by @electron/get. */
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** One start of the stub: its working directory, ELECTRON_RENDERER_URL (set by `dev`) and arguments. */
export interface StubLaunch {
  cwd: string;
  rendererUrl: string;
  args: string[];
}

/** The stub binary: appends one launch record, then exits 0 like an app the person closed at once. */
function stubScript(recordFile: string): string {
  const quoted = `'${recordFile.replace(/'/g, `'\\''`)}'`;
  return [
    '#!/bin/sh',
    '# Stub Electron (test only): record where and how it was started, then exit.',
    `{ echo '--- launch'; echo "cwd=$(pwd -P)"; echo "renderer=\${ELECTRON_RENDERER_URL:-}";`,
    `  for a in "$@"; do echo "arg=$a"; done; } >> ${quoted}`,
    '',
  ].join('\n');
}

function zipOf(files: { name: string; data: Buffer; mode: number }[]): Promise<Buffer> {
  const zip = new ZipFile();
  const mtime = new Date('2026-01-01T00:00:00Z');
  for (const f of files) zip.addBuffer(f.data, f.name, { mode: f.mode, mtime });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Where the installer puts the executable inside dist/, per platform (as its path.txt records it). */
function executablePath(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
}

export async function startStubMirror(opts: { version: string; recordFile: string }): Promise<StubMirror> {
  const tag = `v${opts.version.replace(/^v/, '')}`;
  const zipName = `electron-${tag}-${process.platform}-${process.arch}.zip`;
  const zip = await zipOf([
    {
      name: executablePath(process.platform),
      data: Buffer.from(stubScript(opts.recordFile)),
      mode: 0o100755,
    },
    { name: 'version', data: Buffer.from(opts.version.replace(/^v/, '')), mode: 0o100644 },
  ]);
  const sha = createHash('sha256').update(zip).digest('hex');
  const files = new Map<string, Buffer>([
    [`/${tag}/${zipName}`, zip],
    [`/${tag}/SHASUMS256.txt`, Buffer.from(`${sha} *${zipName}\n`)],
  ]);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://mirror').pathname;
    requests.push(path);
    const body = files.get(path);
    if (!body || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses the record file the stub appends to. */
export function parseLaunches(text: string): StubLaunch[] {
  return text
    .split('--- launch\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n').filter((l) => l !== '');
      const value = (prefix: string) => lines.find((l) => l.startsWith(prefix))?.slice(prefix.length) ?? '';
      return {
        cwd: value('cwd='),
        rendererUrl: value('renderer='),
        args: lines.filter((l) => l.startsWith('arg=')).map((l) => l.slice('arg='.length)),
      };
    });
}

/** A loopback port with nothing listening on it: what a download sees on a machine without network. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
