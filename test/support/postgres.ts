import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away PostgreSQL cluster for one test file: a real server from Debian's `postgresql` package
 * (never a substitute), in a temporary directory, on a free port and its own socket directory, stopped
 * and removed afterwards (also when the test process exits early).
 *
 * `initdb` refuses to run as root, so as root (CI) the server's commands run as the `postgres` user
 * through `runuser`, in a directory that user owns. Missing binaries FAIL the tests with the command that
 * installs them: a suite that skips would pass while testing nothing.
 */
export interface TestCluster {
  host: string;
  port: number;
  /** Holds the cluster's data directory, its unix socket and its log. */
  dir: string;
  /** Connection string for `database` as the superuser (trusted from 127.0.0.1, no password). */
  url(database?: string): string;
  /**
   * A login role with a password (every role but the superuser authenticates with SCRAM over TCP), and
   * its connection string. Existing roles get the new password.
   */
  createLogin(name: string, password: string): Promise<void>;
  loginUrl(name: string, password: string, database: string): string;
  /** Runs SQL with the real `psql` client as `user` (PGPASSWORD), ON_ERROR_STOP: the exit status and output. */
  psql(
    sql: string,
    as: { user: string; password?: string; database: string; desk?: string },
  ): { status: number | null; stdout: string; stderr: string };
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m <mode>`: with `immediate`, every connection dies as in a crash. */
  restart(mode?: 'immediate' | 'fast'): void;
  /** `pg_ctl stop -m fast`, keeping the cluster: the server is down until `resume()`. */
  pause(): void;
  /** Starts a paused cluster again on the same port. */
  resume(): void;
  stop(): void;
  log(): string;
}

export const INSTALL_POSTGRES = 'apt-get update && apt-get install -y postgresql';

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(root = '/usr/lib/postgresql', pgConfig = 'pg_config'): string {
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return join(root, majors[0], 'bin');
  const onPath = spawnSync(pgConfig, ['--bindir'], { encoding: 'utf8' });
  const bin = onPath.status === 0 ? onPath.stdout.trim() : '';
  if (bin && existsSync(join(bin, 'initdb'))) return bin;
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) are not installed; the team-store tests need a real server. Install them with: ${INSTALL_POSTGRES}`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

export async function startPostgres(opts: { durable?: boolean } = {}): Promise<TestCluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'rd-pg-'));
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  // As root: the server runs as `postgres`, which must own the directory (mkdtemp makes it 0700).
  const as = (cmd: string, args: string[]) =>
    isRoot() ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const) : ([cmd, args] as const);
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (cmd: string, args: string[]) => {
    const [c, a] = as(join(bin, cmd), args);
    const r = spawnSync(c, [...a], { encoding: 'utf8', cwd: dir });
    if (r.status !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}\n${readLog()}`);
    return r.stdout;
  };
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  // The superuser (the tests' administrator) is trusted; every other login proves its password, as people
  // connecting to a team database do.
  writeFileSync(
    join(data, 'pg_hba.conf'),
    [
      'local all all trust',
      'host all postgres 127.0.0.1/32 trust',
      'host all all 127.0.0.1/32 scram-sha-256',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const host = '127.0.0.1';
  const serverOpts = [
    `-p ${port}`,
    `-k ${dir}`,
    `-c listen_addresses=${host}`,
    // Tests only: no fsync (a crash of the machine is not what they test; `-m immediate` keeps the page
    // cache). The bench keeps fsync on, as a real server has it.
    ...(opts.durable ? [] : ['-c fsync=off', '-c full_page_writes=off']),
    '-c max_connections=200',
  ].join(' ');
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', ...args]);
  ctl('-o', serverOpts, 'start');
  let running = true;
  const stop = () => {
    if (!running) return;
    running = false;
    try {
      ctl('-m', 'immediate', 'stop');
    } catch {
      // Already gone: the directory is removed all the same.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without its afterAll (a crash, a timeout) must not leave a server behind.
  process.once('exit', stop);
  const url = (database = 'postgres') =>
    `postgres://postgres@${host}:${port}/${encodeURIComponent(database)}`;
  const admin = async (sql: string, params: unknown[] = [], database = 'postgres') => {
    const c = new pg.Client({ connectionString: url(database) });
    c.on('error', () => undefined);
    await c.connect();
    try {
      return await c.query(sql, params);
    } finally {
      await c.end();
    }
  };
  const psqlBin = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  return {
    host,
    port,
    dir,
    url,
    async createLogin(name, password) {
      // DDL takes no parameters: the server quotes the name and the password itself.
      const q = (
        await admin('SELECT quote_ident($1) AS role, quote_literal($1) AS name, quote_literal($2) AS pw', [
          name,
          password,
        ])
      ).rows[0] as { role: string; name: string; pw: string };
      await admin(
        `DO $$ BEGIN
           IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${q.name})
           THEN ALTER ROLE ${q.role} LOGIN PASSWORD ${q.pw};
           ELSE CREATE ROLE ${q.role} LOGIN PASSWORD ${q.pw}; END IF; END $$`,
      );
    },
    loginUrl: (name, password, database) =>
      `postgres://${encodeURIComponent(name)}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`,
    psql(sql, as) {
      const r = spawnSync(psqlBin, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-At', '-f', '-'], {
        input: sql,
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          PGHOST: host,
          PGPORT: String(port),
          PGUSER: as.user,
          PGDATABASE: as.database,
          ...(as.password !== undefined ? { PGPASSWORD: as.password } : {}),
          PGOPTIONS: `-c refund_desk.desk=${as.desk ?? 'psql'}`,
          PGCONNECT_TIMEOUT: '10',
        },
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    async createDatabase(name) {
      const c = new pg.Client({ connectionString: url() });
      c.on('error', () => undefined);
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    restart: (mode = 'immediate') => void ctl('-m', mode, '-o', serverOpts, 'restart'),
    pause: () => void ctl('-m', 'fast', 'stop'),
    resume: () => void ctl('-o', serverOpts, 'start'),
    stop,
    log: readLog,
  };
}
