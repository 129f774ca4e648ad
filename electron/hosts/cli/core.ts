import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { z } from 'zod';
import { join } from 'node:path';
import {
  ENVIRONMENT_BASE_URLS,
  type Environment,
  type Profile,
  profileSchema,
} from '../../../shared/domain/profile';
import { AppError } from '../../../shared/domain/errors';
import type { InvokeChannel } from '../../../shared/ipc/channels';
import type { Input } from '../../../shared/ipc/contract';
import { createLogger } from '../../core/adapters/logger';
import { createEnvSecretStore } from '../../core/adapters/node-secret-stores';
import type { AppCore } from '../../core/compose';
import { cannotCheck, describeAccount } from '../../core/services/engine/account';
import { secretKey, withoutUnknownLimitCurrencies } from '../../core/services/profiles/service';
import type { SecretStore, SettingsStore } from '../../core/services/profiles/ports';
import { createNodeCore } from '../node-core';
import { CONNECTION_OPTIONS, connectionFrom, environmentOf } from './connection';
import { type TeamDatabase, teamFailure } from './database';
import { type CliIo, EXIT, TOKEN_ENV, tokenFromEnv, UsageError } from './io';

/** `--profile NAME` beside the connection flags: commands that act on the app's refunds take either. */
export const ACCOUNT_OPTIONS = { ...CONNECTION_OPTIONS, profile: { type: 'string' } } as const;

/** The app's profiles as saved in `<dataDir>/settings.json` (read only; the app owns the file). */
export function readProfiles(dataDir: string): Profile[] {
  const file = join(dataDir, 'settings.json');
  if (!existsSync(file)) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new UsageError(`${file} cannot be read as JSON; open Refund Desk to repair it, or use --base-url.`);
  }
  if (!doc || typeof doc !== 'object') return [];
  // As the app reads it: a limit in a currency this version does not handle is left out, not the profile.
  const list = withoutUnknownLimitCurrencies(doc as Record<string, unknown>).settings['profiles'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((p) => {
    const r = profileSchema.safeParse(p);
    return r.success ? [r.data] : [];
  });
}

/** The one account a CLI run acts for, as a profile of the app core. */
export interface CliAccount {
  profile: Profile;
  /** --timeout-ms: one attempt's limit for this run. */
  timeoutMs?: number;
}

/**
 * Where a CLI run acts: a named app profile from settings.json, or — from --base-url, --merchant and
 * --store — a profile `cli:<merchant>:<store>` that exists for this run only. The token is
 * REFUND_DESK_API_TOKEN either way (checked here, so a missing one is a usage error before anything runs).
 */
export function cliAccount(
  values: Partial<Record<keyof typeof ACCOUNT_OPTIONS, string | undefined>>,
  io: CliIo,
  dataDir: string,
): CliAccount {
  if (!values.profile) {
    const conn = connectionFrom(values, io);
    const environment = environmentOf(conn.baseUrl);
    // A vendor host at exactly its usual address keeps its environment; any other address is custom.
    const named: Environment | undefined =
      environment !== 'custom' && ENVIRONMENT_BASE_URLS[environment] === conn.baseUrl
        ? environment
        : undefined;
    const at = new Date().toISOString();
    return {
      profile: profileSchema.parse({
        id: `cli:${conn.merchantNo}:${conn.storeNo}`,
        name: `CLI ${conn.merchantNo}/${conn.storeNo}`,
        merchantNo: conn.merchantNo,
        storeNo: conn.storeNo,
        environment: named ?? 'custom',
        ...(named ? {} : { baseUrl: conn.baseUrl }),
        ipnEnabled: false,
        createdAt: at,
        updatedAt: at,
      }),
      ...(conn.timeoutMs ? { timeoutMs: conn.timeoutMs } : {}),
    };
  }
  if (values['base-url'] || values.merchant || values.store)
    throw new UsageError('Give either --profile or --base-url/--merchant/--store, not both.');
  const wanted = values.profile.trim().toLowerCase();
  const p = readProfiles(dataDir).find((x) => x.name.toLowerCase() === wanted);
  if (!p)
    throw new UsageError(
      `No profile called “${values.profile.slice(0, 60)}” in ${join(dataDir, 'settings.json')}. Add it in the app, or use --base-url.`,
    );
  if (p.environment === 'demo')
    throw new UsageError(
      'The Demo profile talks to the sandbox built into the running app; the CLI cannot reach it. Use the app, or a profile for a real service.',
    );
  const timeoutMs = values['timeout-ms'] ? Number(values['timeout-ms']) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new UsageError('--timeout-ms must be a positive whole number.');
  tokenFromEnv(io);
  return { profile: p, ...(timeoutMs ? { timeoutMs } : {}) };
}

/**
 * The app's settings as the CLI's core sees them: read from settings.json once, kept in memory, never
 * written back (the app owns the file). Every profile is there, so the database's one-time import of
 * older files finds their addresses as the app would; the account of this run is active, and no profile
 * listens for IPNs (the run is over before one could arrive).
 */
function cliSettings(dataDir: string, account: CliAccount | undefined): SettingsStore {
  const own = account?.profile;
  const profiles = [...readProfiles(dataDir).filter((p) => p.id !== own?.id), ...(own ? [own] : [])].map(
    (p) => ({ ...p, ipnEnabled: false }),
  );
  let doc: Record<string, unknown> = { version: 1, profiles, activeProfileId: own?.id ?? null };
  return {
    read: () => doc,
    write: (next) => void (doc = next),
    quarantine: () => undefined,
  };
}

/** REFUND_DESK_API_TOKEN, for the run's own profile only: no other profile can sign with it. */
function cliSecrets(io: CliIo, account: CliAccount | undefined): SecretStore {
  const env = createEnvSecretStore({ ...io.env }, TOKEN_ENV);
  const mine = (key: string) => account !== undefined && key === secretKey(account.profile.id);
  return {
    info: env.info,
    get: async (key) => (mine(key) ? env.get(key) : undefined),
    has: async (key) => mine(key) && env.has(key),
    set: (key, secret) => env.set(key, secret),
    delete: (key) => env.delete(key),
  };
}

/**
 * The app core — the same `createAppCore` the desktop app and the browser host build — with the CLI's
 * adapters: settings read from `<dataDir>/settings.json` (never written), the token from the environment
 * for this run's account only, no Demo sandbox, nothing in the background, and refunds for this one
 * account (an intent that went elsewhere is refused with the flags that would reach it). The database
 * is the app's own in `dataDir`, so app windows and CLI runs exclude each other in the same transaction.
 * Diagnostics (redacted) go to stderr only with REFUND_DESK_DEBUG.
 */
export function openCliCore(opts: {
  dataDir: string;
  io: CliIo;
  account?: CliAccount;
  /** Team mode: the journal is this database (stamped desk `cli@<machine>`); the rest stays in dataDir. */
  database?: TeamDatabase;
}): Promise<AppCore> {
  const { dataDir, io, account, database } = opts;
  return createNodeCore({
    host: 'cli',
    dataDir,
    log: createLogger({ sink: (l) => (io.env['REFUND_DESK_DEBUG'] ? io.err(l) : undefined) }),
    demo: false,
    background: false,
    settings: cliSettings(dataDir, account),
    secrets: cliSecrets(io, account),
    ...(account?.timeoutMs ? { gateway: { timeoutMs: account.timeoutMs } } : {}),
    ...(database
      ? {
          team: {
            url: database.connectionString,
            ...(database.ca ? { ca: database.ca } : {}),
            deskId: `cli@${hostname()}`,
          },
        }
      : {}),
    ...(account
      ? {
          singleAccount: {
            profileId: account.profile.id,
            refuse: (self, target) =>
              cannotCheck(
                `this command acts for ${describeAccount(self)}, but the refund went to ${describeAccount(target)}. Run it with that profile (--profile) or that --base-url, --merchant and --store.`,
              ),
          },
        }
      : {}),
  });
}

/**
 * openCliCore for a command that touches the journal: a team database that cannot be opened (not
 * reachable, login refused, never migrated) is printed in words that say what to do — never with the
 * password — and answers exit 5 (network/unavailable) instead of a core.
 */
export async function openJournalCore(opts: Parameters<typeof openCliCore>[0]): Promise<AppCore | number> {
  try {
    return await openCliCore(opts);
  } catch (e) {
    if (!opts.database) throw e;
    const f = teamFailure(e, opts.database);
    if (f instanceof UsageError) throw f;
    opts.io.err(f.message);
    return EXIT.NETWORK;
  }
}

/**
 * One operation through the core's dispatcher — the same input parsing, handler and output check as an
 * IPC call from the app — answering the value read with the operation's output schema (`contract[…]
 * .output`), or throwing the envelope's error as an AppError.
 */
export async function invoke<C extends InvokeChannel, S extends z.ZodType>(
  core: AppCore,
  channel: C,
  input: Input<C>,
  output: S,
): Promise<z.output<S>> {
  const r = await core.dispatch(channel, input);
  if (!r.ok)
    throw new AppError(r.error.code, r.error.message, {
      retryable: r.error.retryable,
      ...(r.error.details ? { details: r.error.details } : {}),
    });
  return output.parse(r.value);
}
