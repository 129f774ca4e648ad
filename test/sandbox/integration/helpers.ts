/**
 * Test client for the sandbox over real HTTP: signs with a merchant token and POSTs JSON (or form).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signParams } from '../../../shared/protocol/signing';
import {
  DEMO_MERCHANT,
  startSandbox,
  type RunningSandbox,
  type SandboxOptions,
} from '../../../electron/sandbox/index';
import { SIGNING_VECTORS } from '../../fixtures/signing-vectors';

export const PATHS = {
  customers: '/v1/customers/create',
  securePay: '/online/v3/secure-pay',
  capture: '/order/v4/capture',
  tranQuery: '/app-data-search/v3/tran-query',
  refund: '/app-data-search/v3/refund',
  transList: '/app-data-search/v3/trans-list',
} as const;

export const VECTORS = SIGNING_VECTORS;

export interface Envelope {
  ret_code: string;
  ret_msg: string;
  result?: Record<string, unknown> & { refundInfo?: Record<string, string>[] };
  customer?: Record<string, string>;
  transactions?: Record<string, unknown>[];
  size?: number;
}

/** Fast defaults for tests: few rows, quick settlement, compressed IPN schedule. */
export function startTestSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ seed: 7, transactions: 300, refundSettleMs: 40, ipnSchedule: [20], ...opts });
}

export interface Creds {
  merchantNo: string;
  storeNo: string;
  token: string;
}
export const DEMO: Creds = { ...DEMO_MERCHANT };

/** POSTs already-final params (no signing) and returns status + parsed body. */
export async function postRaw(
  sb: Pick<RunningSandbox, 'baseUrl'>,
  path: string,
  body: string,
  contentType = 'application/json',
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** Signs `params` with the merchant (credentials added) and POSTs them; expects an HTTP 200 envelope. */
export async function call(
  sb: Pick<RunningSandbox, 'baseUrl'>,
  path: string,
  params: Record<string, string>,
  opts: { creds?: Creds; form?: boolean } = {},
): Promise<Envelope> {
  const creds = opts.creds ?? DEMO;
  const signed = signParams({ merchantNo: creds.merchantNo, storeNo: creds.storeNo, ...params }, creds.token);
  const body = opts.form ? new URLSearchParams(signed).toString() : JSON.stringify(signed);
  const res = await postRaw(
    sb,
    path,
    body,
    opts.form ? 'application/x-www-form-urlencoded' : 'application/json',
  );
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
  return JSON.parse(res.text) as Envelope;
}

let refCounter = 0;
/** A reference no other test uses. */
export function uniqueRef(prefix = 'T'): string {
  refCounter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${refCounter}`;
}

export const VALID_CARD = {
  cardExpYear: String(new Date().getUTCFullYear() + 2),
  cardExpMonth: '12',
  cardCvv: '123',
};

/** secure-pay params for an ordinary USD alipay hosted checkout. */
export function securePayParams(over: Record<string, string> = {}): Record<string, string> {
  return {
    amount: '10.00',
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'alipay',
    terminal: 'ONLINE',
    reference: uniqueRef('SP'),
    ipnUrl: 'http://127.0.0.1:9/ipn',
    callbackUrl: 'https://merchant.example/return?s={status}&a={amount}&r={reference}&t={transactionNo}',
    ...over,
  };
}

/** Creates a paid (success) card payment and returns its transactionNo. */
export async function paidPayment(
  sb: RunningSandbox,
  over: Record<string, string> = {},
  creds?: Creds,
): Promise<string> {
  const env = await call(
    sb,
    PATHS.capture,
    {
      amount: '100.00',
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'creditcard',
      terminal: 'ONLINE',
      reference: uniqueRef('CP'),
      cardNumber: '4242424242424242',
      ...VALID_CARD,
      ...over,
    },
    creds ? { creds } : {},
  );
  if (env.ret_code !== '000100') throw new Error(`capture failed: ${env.ret_code} ${env.ret_msg}`);
  return String(env.result?.transactionNo);
}

/** Polls until `check` returns a value (not undefined) or the time runs out. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 3_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface IpnListener {
  url: string;
  received: Record<string, string>[];
  close(): Promise<void>;
}

/** A local IPN endpoint; `reply(n)` decides the body for the n-th request (1-based). */
export async function startIpnListener(reply: (n: number) => string = () => 'success'): Promise<IpnListener> {
  const received: Record<string, string>[] = [];
  const readAll = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server = createServer((req, res) => {
    void readAll(req).then((text) => {
      received.push(Object.fromEntries(new URLSearchParams(text)));
      res.writeHead(200, { 'content-type': 'text/plain' }).end(reply(received.length));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ipn`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** An admin request. */
export async function admin(
  sb: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
  secret = sb.adminSecret,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${sb.baseUrl}/__admin/${path}`, {
    method,
    headers: { 'x-sandbox-admin': secret, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}
