import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * `npm start` and `npm run dev` run this before electron-vite. Electron ≥ 42 has no install step of its
 * own and electron-vite only reads `node_modules/electron/path.txt`, so without it a fresh clone stops at
 * "Error: Electron uninstall". It runs the electron package's own installer (install.js), so everything
 * that installer honours keeps working: ELECTRON_MIRROR, electron_config_cache,
 * electron_use_remote_checksums, ELECTRON_GET_USE_PROXY with the usual proxy variables. When the download
 * fails it prints one message that names what failed and offers the browser host (`npm run start:web`).
 */

/** Marks the line report-download-failure.mjs writes when a fetch inside the installer throws. */
export const FETCH_FAILED_MARK = 'refund-desk:fetch-failed ';

export interface ElectronPackage {
  dir: string;
  version: string;
}

/** The installed `electron` npm package (the wrapper, not the binary), resolved from the project root. */
export function findElectronPackage(projectRoot: string): ElectronPackage | undefined {
  try {
    const pkgJson = createRequire(join(projectRoot, 'package.json')).resolve('electron/package.json');
    const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
    return { dir: dirname(pkgJson), version };
  } catch {
    return undefined;
  }
}

/**
 * True when electron-vite will find a binary: ELECTRON_EXEC_PATH (electron-vite's own override), or the
 * installer's record (`path.txt`, `dist/version`) pointing at an executable that exists.
 */
export function isElectronInstalled(pkg: ElectronPackage, env: NodeJS.ProcessEnv): boolean {
  if (env['ELECTRON_EXEC_PATH']) return true;
  try {
    const binary = readFileSync(join(pkg.dir, 'path.txt'), 'utf8');
    const version = readFileSync(join(pkg.dir, 'dist', 'version'), 'utf8')
      .trim()
      .replace(/^v/, '');
    return version === pkg.version && binary !== '' && existsSync(join(pkg.dir, 'dist', binary));
  } catch {
    return false;
  }
}

const CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  ENETUNREACH: 'the network is unreachable',
  EHOSTUNREACH: 'the host is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  CERT_HAS_EXPIRED: 'the server’s certificate has expired',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server’s certificate could not be verified',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server’s certificate could not be verified',
};

/** Removes user:password from a URL (a mirror address may carry them); leaves anything else as it was. */
function withoutCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
}

/** What went wrong, in words, from the installer's stderr (its error line and our fetch-failure marks). */
export function explainInstallerOutput(stderr: string): string {
  const lines = stderr.split(/\r?\n/);
  const fetchFailure = lines
    .filter((l) => l.startsWith(FETCH_FAILED_MARK))
    .map((l) => {
      try {
        return JSON.parse(l.slice(FETCH_FAILED_MARK.length)) as {
          url?: string;
          code?: string;
          message?: string;
        };
      } catch {
        return undefined;
      }
    })
    .find((f) => f !== undefined);
  if (fetchFailure) {
    const why =
      (fetchFailure.code && CAUSES[fetchFailure.code]) ?? fetchFailure.message ?? 'the request failed';
    const code = fetchFailure.code ? ` (${fetchFailure.code})` : '';
    return withoutCredentials(`downloading ${fetchFailure.url ?? 'Electron'} failed: ${why}${code}.`);
  }
  // The installer prints the error's stack: its first line says what failed (an HTTP status with the URL, a
  // checksum mismatch, an extraction error); the frames below it help nobody here.
  const errorLine = lines.find((l) => l.trim() !== '' && !/^\s/.test(l) && !l.startsWith(FETCH_FAILED_MARK));
  const http = errorLine && /^HTTPError: Response code (\d+) \(([^)]*)\) for (\S+)/.exec(errorLine);
  if (http)
    return withoutCredentials(
      `downloading ${http[3]} failed: the server answered HTTP ${http[1]} (${http[2]}).`,
    );
  const checksum = errorLine && /checksum/i.test(errorLine);
  if (checksum)
    return withoutCredentials(
      `the download did not match its published checksum, so it was not used (${errorLine.trim()}).`,
    );
  return withoutCredentials(
    errorLine
      ? `the installer stopped with: ${errorLine.trim()}`
      : 'the installer stopped without saying why.',
  );
}

/** The one message a person sees when Electron is missing and could not be downloaded. */
export function downloadFailureMessage(opts: {
  version: string;
  target: string;
  why: string;
  rerun: string;
}): string {
  return [
    `Refund Desk could not start: Electron ${opts.version} (${opts.target}) is not installed yet, and ${opts.why}`,
    '  Without network access, or where Electron may not be downloaded, run the same app in your browser instead:',
    '    npm run start:web',
    `  Otherwise fix the connection (or set ELECTRON_MIRROR or a proxy; see README, "Set up and run") and run ${opts.rerun} again.`,
  ].join('\n');
}

/** The command the person typed, to repeat back to them: `npm run dev` or `npm start`. */
export function rerunCommand(env: NodeJS.ProcessEnv): string {
  return env['npm_lifecycle_event'] === 'dev' ? 'npm run dev' : 'npm start';
}

export interface EnsureOptions {
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  /** Progress and the failure message (stderr in the CLI). */
  say: (text: string) => void;
}

function runInstaller(
  pkg: ElectronPackage,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stderr: string }> {
  const hook = new URL('./report-download-failure.mjs', import.meta.url).href;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', hook, join(pkg.dir, 'install.js')], {
      env,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // Bounded: a runaway installer must not grow this without limit.
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (e) => resolve({ code: 1, stderr: `${e.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** Makes sure the Electron binary is installed. Returns false (after saying why) when it is not. */
export async function ensureElectron(opts: EnsureOptions): Promise<boolean> {
  const pkg = findElectronPackage(opts.projectRoot);
  if (!pkg) {
    opts.say(
      'Refund Desk could not start: the electron package is missing from node_modules. Run npm install first.',
    );
    return false;
  }
  if (isElectronInstalled(pkg, opts.env)) return true;
  const target = `${process.platform}-${process.arch}`;
  opts.say(`Downloading Electron ${pkg.version} (${target}) — about 100 MB, needed once…`);
  const result = await runInstaller(pkg, opts.env);
  // Asked-for diagnostics (e.g. DEBUG=@electron/get*) are shown in full; otherwise only our summary.
  if ((opts.env['DEBUG'] || opts.env['REFUND_DESK_DEBUG']) && result.stderr)
    opts.say(result.stderr.trimEnd());
  if (result.code === 0 && isElectronInstalled(pkg, opts.env)) {
    opts.say(`Electron ${pkg.version} is installed.`);
    return true;
  }
  const why =
    result.code === 0
      ? 'the installer finished without leaving a usable binary in node_modules/electron/dist.'
      : explainInstallerOutput(result.stderr);
  opts.say(downloadFailureMessage({ version: pkg.version, target, why, rerun: rerunCommand(opts.env) }));
  return false;
}
