/**
 * The HTTP server: routing, body parsing, authentication, the `{ret_code, ret_msg, …}` envelope and the
 * per-endpoint faults. API endpoints are POST; the version lives only in the path and an unknown
 * version of a known endpoint is 000010.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { RET } from '../../shared/protocol/ret-codes';
import { handleAdmin } from './admin';
import { authenticate } from './auth';
import type { SandboxContext } from './context';
import type { EndpointName } from './faults';
import { parseParams, readBody, sendJson, sleep } from './http-util';
import { handlePage } from './pages';
import { ApiError } from './params';
import { closeExpired } from './payments';
import type { RefundRequestEntry } from './refund-requests';
import { OverRemainderError } from './refunds';
import { capture } from './routes/capture';
import { createCustomer } from './routes/customers';
import { refund } from './routes/refund';
import { securePay } from './routes/secure-pay';
import { tranQuery } from './routes/tran-query';
import { transList } from './routes/trans-list';
import type { RouteHandler } from './routes/types';

interface Route {
  name: EndpointName;
  /** Path with the version as a capture group. */
  pattern: RegExp;
  version: string;
  handler: RouteHandler;
}

const ROUTES: readonly Route[] = [
  { name: 'customers', pattern: /^\/v(\d+)\/customers\/create$/, version: '1', handler: createCustomer },
  { name: 'secure-pay', pattern: /^\/online\/v(\d+)\/secure-pay$/, version: '3', handler: securePay },
  { name: 'capture', pattern: /^\/order\/v(\d+)\/capture$/, version: '4', handler: capture },
  {
    name: 'tran-query',
    pattern: /^\/app-data-search\/v(\d+)\/tran-query$/,
    version: '3',
    handler: tranQuery,
  },
  { name: 'refund', pattern: /^\/app-data-search\/v(\d+)\/refund$/, version: '3', handler: refund },
  {
    name: 'trans-list',
    pattern: /^\/app-data-search\/v(\d+)\/trans-list$/,
    version: '3',
    handler: transList,
  },
];

const envelope = (
  retCode: string,
  retMsg: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  ret_code: retCode,
  ret_msg: retMsg,
  ...extra,
});

async function handleApi(
  ctx: SandboxContext,
  route: Route,
  version: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string> {
  const raw = await readBody(req).catch((err: unknown) => err);
  if (version !== route.version) {
    sendJson(res, 200, envelope(RET.API_VERSION, `API version error: ${route.name} is v${route.version}`));
    return RET.API_VERSION;
  }
  // Held on the way (faults.ts, hold): it arrives only when released, whether or not its client waits.
  const held = ctx.faults.takeHold(route.name);
  if (!held) return handleArrived(ctx, route, raw, req, res);
  await held.released;
  try {
    return `${await handleArrived(ctx, route, raw, req, res)}+held`;
  } finally {
    held.handled();
  }
}

/** The request's parameters for the refund log, or none when its body is not readable. */
function paramsOf(req: IncomingMessage, raw: unknown): Readonly<Record<string, string>> {
  try {
    return typeof raw === 'string' ? parseParams(req.headers['content-type'], raw) : {};
  } catch {
    return {};
  }
}

/** A request as the service receives it; a refund request is logged from arrival to answer. */
async function handleArrived(
  ctx: SandboxContext,
  route: Route,
  raw: unknown,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string> {
  if (route.name !== 'refund') return respond(ctx, route, raw, req, res);
  const entry = ctx.refundRequests.arrived(paramsOf(req, raw));
  try {
    entry.outcome = await respond(ctx, route, raw, req, res, entry);
    return entry.outcome;
  } finally {
    entry.answeredAt = performance.now();
  }
}

/** Faults, authentication, the handler, the answer. */
async function respond(
  ctx: SandboxContext,
  route: Route,
  raw: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  entry?: RefundRequestEntry,
): Promise<string> {
  // Faults that strike before the request is handled: nothing changes.
  const faults = ctx.faults.forEndpoint(route.name);
  await sleep(faults.latencyMs);
  if (ctx.faults.roll(faults.http5xxRate)) {
    res
      .writeHead(503, { 'content-type': 'text/html' })
      .end('<html><body>503 Service Temporarily Unavailable</body></html>');
    return 'http-503';
  }
  if (ctx.faults.roll(faults.systemErrorRate)) {
    sendJson(res, 200, envelope(RET.SYSTEM_ERROR, 'system error (injected fault)'));
    return RET.SYSTEM_ERROR;
  }
  if (ctx.faults.roll(faults.upstreamErrorRate)) {
    sendJson(res, 200, envelope(RET.UPSTREAM_ERROR, 'upstream error (injected fault)'));
    return RET.UPSTREAM_ERROR;
  }

  let body: Record<string, unknown>;
  try {
    if (typeof raw !== 'string') throw raw;
    const params = parseParams(req.headers['content-type'], raw);
    const caller = authenticate(ctx.merchants, params);
    closeExpired(ctx);
    body = envelope(RET.SUCCESS, 'success', await route.handler(ctx, caller, params));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (entry && err instanceof OverRemainderError) entry.overRemainder = true;
    body = envelope(err.retCode, err.message, err.result ? { result: err.result } : {});
  }
  const retCode = String(body.ret_code);
  // A hostile success answer: the request was applied as sent, the answer says otherwise.
  const override = ctx.faults.answerFor(route.name);
  if (override && retCode === RET.SUCCESS && body.result && typeof body.result === 'object')
    body.result = { ...(body.result as Record<string, unknown>), ...override };

  // Faults that strike after the request was handled: the client cannot know what happened.
  if (ctx.faults.roll(faults.dropAfterRate)) {
    req.socket.destroy();
    return `${retCode}+dropped`;
  }
  if (ctx.faults.roll(faults.malformedJsonRate)) {
    const text = JSON.stringify(body);
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      .end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    return `${retCode}+malformed`;
  }
  sendJson(res, 200, body);
  return retCode;
}

/** Creates (but does not start) the sandbox HTTP server. */
export function createSandboxServer(ctx: SandboxContext, adminSecret: string): Server {
  const server = createServer((req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const done = (outcome: string): void => {
      // Method, path and ret_code only: never bodies, card data or signatures.
      if (!path.startsWith('/__admin/'))
        ctx.log(`${req.method ?? '?'} ${path} ${outcome} ${Date.now() - started}ms`);
    };
    const work = async (): Promise<void> => {
      if (path.startsWith('/__admin/')) return handleAdmin(ctx, adminSecret, req, res, path);
      if (await handlePage(ctx, req, res, path, url.searchParams)) return done(String(res.statusCode));
      if (path === '/' || path === '/health') {
        sendJson(res, 200, { ok: true, service: 'refund-desk payment sandbox' });
        return;
      }
      for (const route of ROUTES) {
        const m = route.pattern.exec(path);
        if (!m) continue;
        if (req.method !== 'POST') {
          sendJson(res, 405, envelope(RET.SYSTEM_ERROR, 'use POST'));
          return done('405');
        }
        return done(await handleApi(ctx, route, m[1] ?? '', req, res));
      }
      sendJson(res, 404, { error: 'not found' });
      done('404');
    };
    work().catch((err: unknown) => {
      ctx.log(`sandbox: internal error on ${path}: ${(err as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, envelope(RET.SYSTEM_ERROR, 'internal sandbox error'));
      else res.destroy();
    });
  });
  return server;
}
