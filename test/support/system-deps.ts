/**
 * What `npm test` needs from the machine besides npm packages, found or got before anything runs (issue 31):
 * Node 24 (node:sqlite, the Node Electron embeds), Debian's `chromium` (Playwright cannot download its own
 * browser here) and PostgreSQL's server binaries (the team-store tests start a throw-away cluster). On
 * Debian or Ubuntu as root the missing packages are installed, as `.ci/run` does; anywhere else the run
 * stops at once with the one command to type, instead of failing twenty minutes later at the first e2e test.
 *
 * `planSystemDeps` only decides (pure, unit-tested); `main` looks at the machine and acts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MachineFacts {
  nodeMajor: number;
  platform: NodeJS.Platform;
  /** /etc/os-release's ID and ID_LIKE, lower case ('' when there is none). */
  osIds: string[];
  isRoot: boolean;
  hasChromium: boolean;
  hasPostgres: boolean;
  /** CHROMIUM_PATH when set: a browser the person chose, which no package install would create. */
  chromiumPath?: string;
}

export type SystemPlan =
  | { kind: 'ready' }
  | { kind: 'install'; packages: string[]; command: string }
  | { kind: 'stop'; message: string };

const NODE24 = 'npm i -g --prefix ~/.node24 node@24 && export PATH=~/.node24/bin:$PATH';

export function planSystemDeps(m: MachineFacts): SystemPlan {
  if (m.nodeMajor < 24)
    return {
      kind: 'stop',
      message: `Refund Desk's tests need Node 24 (this is Node ${m.nodeMajor}). Run: ${NODE24} — then npm install and npm test again.`,
    };
  if (!m.hasChromium && m.chromiumPath)
    return {
      kind: 'stop',
      message: `CHROMIUM_PATH is ${m.chromiumPath}, which does not exist: point it at a Chromium binary, or unset it to use /usr/bin/chromium.`,
    };
  const packages = [...(m.hasChromium ? [] : ['chromium']), ...(m.hasPostgres ? [] : ['postgresql'])];
  if (packages.length === 0) return { kind: 'ready' };
  const apt = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const debianLike = m.platform === 'linux' && m.osIds.some((id) => id === 'debian' || id === 'ubuntu');
  if (debianLike && m.isRoot) return { kind: 'install', packages, command: apt };
  const why = `npm test needs ${packages.join(' and ')} (the e2e tests drive a real Chromium; the team-store tests start a real PostgreSQL).`;
  if (debianLike)
    return { kind: 'stop', message: `${why} Run: sudo ${apt.replace('&& apt-get', '&& sudo apt-get')}` };
  if (m.platform === 'darwin') {
    const brew = [
      ...(m.hasChromium ? [] : ['brew install --cask chromium']),
      ...(m.hasPostgres ? [] : ['brew install postgresql@16']),
    ];
    return {
      kind: 'stop',
      message: `${why} Run: ${brew.join(' && ')}${m.hasChromium ? '' : ' (then set CHROMIUM_PATH to its binary)'}`,
    };
  }
  return {
    kind: 'stop',
    message: `${why} Install them with your system's package manager${m.hasChromium ? '' : ' and set CHROMIUM_PATH to the Chromium binary'}.`,
  };
}

function osIds(): string[] {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    const value = (key: string) =>
      (new RegExp(`^${key}=(.*)$`, 'm').exec(text)?.[1] ?? '').replace(/^["']|["']$/g, '').toLowerCase();
    return [value('ID'), ...value('ID_LIKE').split(/\s+/)].filter(Boolean);
  } catch {
    return [];
  }
}

/** The same places playwright.config.ts and test/support/postgres.ts look. */
function machineFacts(): MachineFacts {
  const pgRoot = '/usr/lib/postgresql';
  const hasPostgres =
    (existsSync(pgRoot) && readdirSync(pgRoot).some((d) => existsSync(join(pgRoot, d, 'bin', 'initdb')))) ||
    (() => {
      const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
      return r.status === 0 && existsSync(join(r.stdout.trim(), 'initdb'));
    })();
  return {
    nodeMajor: Number(process.versions.node.split('.')[0]),
    platform: process.platform,
    osIds: osIds(),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    hasChromium: existsSync(process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'),
    hasPostgres,
    ...(process.env['CHROMIUM_PATH'] ? { chromiumPath: process.env['CHROMIUM_PATH'] } : {}),
  };
}

function main(): number {
  const plan = planSystemDeps(machineFacts());
  if (plan.kind === 'ready') return 0;
  if (plan.kind === 'stop') {
    console.error(plan.message);
    return 1;
  }
  console.error(
    `== installing ${plan.packages.join(', ')} (Debian packages; running as root): ${plan.command}`,
  );
  const r = spawnSync('sh', ['-c', plan.command], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.status === 0 && planSystemDeps(machineFacts()).kind === 'ready') return 0;
  console.error(`Installing ${plan.packages.join(', ')} failed. Run it yourself: ${plan.command}`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
