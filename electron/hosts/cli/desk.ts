import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENT_BASE_URLS, type Profile, profileSchema } from '../../../shared/domain/profile';
import { newSortableId } from '../../../shared/domain/ids';
import { openAppStorage } from '../../core/adapters/sqlite/app-storage';
import type { GatewayClient } from '../../core/services/gateway/client';
import { cannotCheck, describeAccount, findAccountProfile } from '../../core/services/refunds/accounts';
import { senderAlive, THIS_SENDER } from '../../core/services/refunds/runtime';
import {
  createRefundService,
  type RefundAccount,
  type RefundContext,
} from '../../core/services/refunds/service';
import { cliGateway, CONNECTION_OPTIONS, type Connection, connectionFrom, environmentOf } from './connection';
import { type CliIo, tokenFromEnv, UsageError } from './io';

/** `--profile NAME` beside the connection flags: commands that act on the app's refunds take either. */
export const ACCOUNT_OPTIONS = { ...CONNECTION_OPTIONS, profile: { type: 'string' } } as const;

const SILENT = { info: () => {}, warn: () => {}, error: () => {} };

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
  const list = (doc as { profiles?: unknown } | null)?.profiles;
  if (!Array.isArray(list)) return [];
  return list.flatMap((p) => {
    const r = profileSchema.safeParse(p);
    return r.success ? [r.data] : [];
  });
}

/**
 * The app's database in `dataDir`. If the app of an earlier version left its files there, they are
 * imported exactly as the app would (profile addresses from settings.json).
 */
export function openCliStorage(dataDir: string) {
  const profiles = readProfiles(dataDir);
  return openAppStorage({
    dataDir,
    now: Date.now,
    log: SILENT,
    baseUrlFor: (id) => {
      const p = profiles.find((x) => x.id === id);
      if (!p || p.environment === 'demo') return undefined;
      return p.environment === 'custom' ? p.baseUrl : ENVIRONMENT_BASE_URLS[p.environment];
    },
  });
}

/** Where a CLI run acts: a named app profile (token from the environment) or explicit connection flags. */
export function cliAccount(
  values: Partial<Record<keyof typeof ACCOUNT_OPTIONS, string | undefined>>,
  io: CliIo,
  dataDir: string,
): { account: RefundAccount; conn: Connection } {
  if (values.profile) {
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
    const baseUrl = p.environment === 'custom' ? p.baseUrl! : ENVIRONMENT_BASE_URLS[p.environment];
    const timeoutMs = values['timeout-ms'] ? Number(values['timeout-ms']) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new UsageError('--timeout-ms must be a positive whole number.');
    return {
      account: {
        profileId: p.id,
        profileName: p.name,
        environment: p.environment,
        baseUrl,
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
      },
      conn: {
        baseUrl,
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
        token: tokenFromEnv(io),
        ...(p.merGroupNo ? { merGroupNo: p.merGroupNo } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      },
    };
  }
  const conn = connectionFrom(values, io);
  return {
    account: {
      profileId: `cli:${conn.merchantNo}:${conn.storeNo}`,
      profileName: `CLI ${conn.merchantNo}/${conn.storeNo}`,
      environment: environmentOf(conn.baseUrl),
      baseUrl: conn.baseUrl,
      merchantNo: conn.merchantNo,
      storeNo: conn.storeNo,
    },
    conn,
  };
}

/**
 * The app's refund service over the app's database in `dataDir`, acting for exactly one account. The
 * same transaction decides here as in the app, so app windows and CLI runs exclude each other; an intent
 * is followed up only when it went to this very account (never checked against another service).
 */
export function openCliRefunds(opts: {
  dataDir: string;
  account: RefundAccount;
  conn: Connection;
  io: CliIo;
  operator: string;
  gateway?: GatewayClient;
}) {
  const storage = openCliStorage(opts.dataDir);
  const gateway = opts.gateway ?? cliGateway(opts.conn, opts.io);
  const self = {
    id: opts.account.profileId,
    name: opts.account.profileName,
    environment: opts.account.environment,
    merchantNo: opts.account.merchantNo,
    storeNo: opts.account.storeNo,
    effectiveBaseUrl: opts.account.baseUrl,
    hasToken: true,
  };
  const context = (): RefundContext => ({
    ...opts.account,
    operator: opts.operator,
    guardrails: { limits: [] },
  });
  const service = createRefundService({
    // An intent recorded before addresses were kept ('' base URL) is checked where the person points us.
    gatewayFor: (a) => {
      const target = a.baseUrl === '' ? { ...a, baseUrl: opts.account.baseUrl } : a;
      try {
        findAccountProfile([self], target);
      } catch {
        throw cannotCheck(
          `this command acts for ${describeAccount(opts.account)}, but the refund went to ${describeAccount(target)}. Run it with that profile (--profile) or that --base-url, --merchant and --store.`,
        );
      }
      return gateway;
    },
    store: storage.refunds,
    clock: { now: Date.now },
    log: SILENT,
    context,
    // The CLI acts for one account; gatewayFor above refuses another account's refund with its own words.
    belongsTo: () => true,
    newId: () => newSortableId('RD'),
    sender: THIS_SENDER,
    senderAlive,
    untrusted: storage.untrusted,
  });
  return { service, storage, close: () => storage.close() };
}
