import { homedir } from 'node:os';
import { join } from 'node:path';
import { environmentOfUrl, isAcceptableBaseUrl } from '../../../shared/domain/profile';
import { createFetchHttpClient } from '../../core/adapters/http-fetch';
import { createLogger } from '../../core/adapters/logger';
import { createGatewayClient, type GatewayClient } from '../../core/services/gateway/client';
import { type CliIo, tokenFromEnv, UsageError } from './io';

/** parseArgs options every command that talks to the service shares. */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  merchant: { type: 'string' },
  store: { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

export interface Connection {
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
  token: string;
  timeoutMs?: number;
  /** A partner's group number, from a named profile. */
  merGroupNo?: string;
}

/** Validates the shared connection flags and reads the token from the environment (never argv). */
export function connectionFrom(
  values: Partial<Record<keyof typeof CONNECTION_OPTIONS, string | undefined>>,
  io: CliIo,
): Connection {
  const baseUrl = values['base-url'];
  if (!baseUrl || !isAcceptableBaseUrl(baseUrl))
    throw new UsageError('--base-url must be an https:// address (http:// only for 127.0.0.1 or localhost).');
  if (!values.merchant || !/^\d{1,20}$/.test(values.merchant))
    throw new UsageError('--merchant must be the merchant number (digits).');
  if (!values.store || !/^\d{1,20}$/.test(values.store))
    throw new UsageError('--store must be the store number (digits).');
  const timeoutMs = values['timeout-ms'] ? Number(values['timeout-ms']) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new UsageError('--timeout-ms must be a positive whole number.');
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    merchantNo: values.merchant,
    storeNo: values.store,
    token: tokenFromEnv(io),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/** The same gateway client the app uses; diagnostics (redacted) go to stderr only with REFUND_DESK_DEBUG. */
export function cliGateway(conn: Connection, io: CliIo): GatewayClient {
  return createGatewayClient({
    http: createFetchHttpClient(),
    clock: { now: Date.now },
    log: createLogger({ sink: (l) => (io.env['REFUND_DESK_DEBUG'] ? io.err(l) : undefined) }),
    config: () => ({
      baseUrl: conn.baseUrl,
      merchantNo: conn.merchantNo,
      storeNo: conn.storeNo,
      token: conn.token,
      ...(conn.merGroupNo ? { merGroupNo: conn.merGroupNo } : {}),
    }),
    ...(conn.timeoutMs ? { timeoutMs: conn.timeoutMs } : {}),
  });
}

/** Which environment a base URL is: the app's own rule (shared/domain/profile.ts), not a copy of it. */
export const environmentOf = environmentOfUrl;

/** Where the Electron app keeps its data (app.getPath('userData') for productName "Refund Desk"). */
export function defaultAppDataDir(env: CliIo['env'], platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32')
    return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'Refund Desk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Refund Desk');
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'Refund Desk');
}
