import { mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Conf from 'conf';
import { createConfSettingsStore } from '../core/adapters/conf-settings-store';
import { createLogger } from '../core/adapters/logger';
import { openAppStorage } from '../core/adapters/sqlite/app-storage';
import { createEnvSecretStore, createMemorySecretStore } from '../core/adapters/node-secret-stores';
import { type AppCore, type CoreOptions, createAppCore } from '../core/compose';
import type { HttpClient } from '../core/services/gateway/http-port';
import type { Logger } from '../core/services/ports';
import type { SecretStore, SettingsStore } from '../core/services/profiles/ports';

export interface NodeCoreOptions {
  host: 'browser' | 'cli';
  dataDir: string;
  log?: Logger;
  now?: () => number;
  /** Embedded Demo sandbox: false disables it (fast, network-free tests); otherwise sandbox options. */
  demo?: CoreOptions['demo'];
  gateway?: CoreOptions['gateway'];
  /** Default: session memory (browser host) or REFUND_DESK_API_TOKEN (CLI). */
  secrets?: SecretStore;
  /** Default: `<dataDir>/settings.json` through conf. The CLI gives a read-only view of it instead. */
  settings?: SettingsStore;
  http?: HttpClient;
  background?: CoreOptions['background'];
  singleAccount?: CoreOptions['singleAccount'];
  /**
   * Team mode: the money journal is this PostgreSQL database (the rest stays in `dataDir`). Opening
   * fails (AppError, no password in it) when it cannot be reached, refuses the login or was never migrated.
   */
  team?: {
    url: string;
    /** PEM of the server certificate's CA (TLS, host name verified). */
    ca?: string;
    /** When the URL has none. */
    password?: string;
    /** Stamped by the database on every write; default `<host>@<machine>`. */
    deskId?: string;
  };
  /** Team mode: how often the database's supervisor checks its connection (tests shorten it). */
  teamHeartbeatMs?: number;
  /** Sender lease length (tests shorten it; default engine/lease.ts DEFAULT_LEASE_MS). */
  leaseMs?: CoreOptions['leaseMs'];
}

/**
 * Version from the nearest package.json above this module (there is no Electron app.getVersion() here):
 * run from source it is two folders up, built into the browser host's chunks (out/web/chunks) three.
 */
export function packageVersion(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
      return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) return '0.0.0';
    }
  }
}

/**
 * Builds the app core with plain-Node adapters, for the browser host and the CLI. The Electron host
 * builds the same core with Electron adapters in electron/app/main.ts.
 */
export async function createNodeCore(opts: NodeCoreOptions): Promise<AppCore> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const now = opts.now ?? Date.now;
  const log =
    opts.log ?? createLogger({ file: join(dataDir, 'logs', `${opts.host}.jsonl`), sink: () => {}, now });
  const settingsFile = join(dataDir, 'settings.json');
  // Storage is chosen here: the SQLite file in the data directory (one desk), or in team mode the team's
  // PostgreSQL database for the journal beside that file for the rest.
  // The team database's code (the pg client) is loaded only for a team desk.
  const storage = opts.team
    ? await (
        await import('../core/adapters/team-storage')
      ).openTeamStorage({
        dataDir,
        now,
        log,
        database: {
          connectionString: opts.team.url,
          ...(opts.team.ca ? { ca: opts.team.ca } : {}),
          ...(opts.team.password ? { password: opts.team.password } : {}),
          deskId: opts.team.deskId ?? `${opts.host}@${hostname()}`,
          applicationName: `refund-desk-${opts.host}`,
        },
        ...(opts.teamHeartbeatMs ? { heartbeatMs: opts.teamHeartbeatMs } : {}),
      })
    : openAppStorage({ dataDir, now, log });
  try {
    return await createAppCore(
      {
        host: opts.host,
        name: 'Refund Desk',
        version: packageVersion(),
        dataDir,
        platform: process.platform,
        clock: { now },
        log,
        // No system browser to hand links to from here: record the request and do nothing.
        openExternal: async (url) => log.info('external.open_skipped', { host: new URL(url).host }),
        // conf has the same API and file format as electron-store, which only loads inside Electron.
        settings:
          opts.settings ??
          createConfSettingsStore({
            open: () =>
              new Conf<Record<string, unknown>>({
                cwd: dataDir,
                configName: 'settings',
                projectName: 'refund-desk',
              }),
            filePath: settingsFile,
            now,
          }),
        // The browser host keeps tokens in memory only (never on disk); the CLI reads the environment.
        secrets: opts.secrets ?? (opts.host === 'cli' ? createEnvSecretStore() : createMemorySecretStore()),
        ...(opts.http ? { http: opts.http } : {}),
        storage,
      },
      {
        ...(opts.demo !== undefined ? { demo: opts.demo } : {}),
        ...(opts.gateway ? { gateway: opts.gateway } : {}),
        ...(opts.background !== undefined ? { background: opts.background } : {}),
        ...(opts.singleAccount ? { singleAccount: opts.singleAccount } : {}),
        ...(opts.leaseMs ? { leaseMs: opts.leaseMs } : {}),
      },
    );
  } catch (e) {
    await storage.close();
    throw e;
  }
}
