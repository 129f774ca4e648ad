/**
 * Admin endpoint for tests and demos, under /__admin/, guarded by the `x-sandbox-admin` header:
 *   GET    /__admin/faults                        current fault configuration
 *   POST   /__admin/faults                        merge a patch (JSON, see faults.ts) → new configuration
 *   DELETE /__admin/faults                        no faults
 *   GET    /__admin/ipn-log                       every IPN delivery attempt
 *   GET    /__admin/state                         record counts
 *   GET    /__admin/transactions/<no>             a transaction as tran-query shows it
 *   POST   /__admin/transactions/<no>/complete    {"outcome":"success"|"failed"} for an open payment (YIP)
 * Replies are plain JSON (not the service envelope): this is not part of the simulated API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { adminSecretMatches } from './auth';
import type { SandboxContext } from './context';
import { faultPatchSchema } from './faults';
import { readBody, sendJson } from './http-util';
import { closeExpired, completePayment, wirePayment } from './payments';

const completeSchema = z.object({ outcome: z.enum(['success', 'failed']) }).strict();

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req, 100_000);
  return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
}

/** Handles one admin request (the path starts with /__admin/). */
export async function handleAdmin(
  ctx: SandboxContext,
  secret: string,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (!adminSecretMatches(req.headers['x-sandbox-admin'], secret)) {
    sendJson(res, 401, { error: 'missing or wrong x-sandbox-admin header' });
    return;
  }
  const method = req.method ?? 'GET';
  try {
    if (path === '/__admin/faults') {
      if (method === 'GET') return sendJson(res, 200, ctx.faults.config());
      if (method === 'DELETE') return sendJson(res, 200, ctx.faults.reset());
      if (method === 'POST') {
        const patch = faultPatchSchema.safeParse(await jsonBody(req));
        if (!patch.success)
          return sendJson(res, 400, { error: 'invalid fault patch', issues: patch.error.issues });
        return sendJson(res, 200, ctx.faults.update(patch.data));
      }
    }
    if (path === '/__admin/ipn-log' && method === 'GET')
      return sendJson(res, 200, { entries: ctx.ipn.log() });
    if (path === '/__admin/state' && method === 'GET')
      return sendJson(res, 200, { seed: ctx.store.seed, counts: ctx.store.counts() });
    const tx = /^\/__admin\/transactions\/(\d{1,32})(\/complete)?$/.exec(path);
    if (tx) {
      closeExpired(ctx);
      const p = ctx.store.payment(tx[1] ?? '');
      if (!p) return sendJson(res, 404, { error: 'no such transaction' });
      if (!tx[2] && method === 'GET') return sendJson(res, 200, wirePayment(ctx, p));
      if (tx[2] && method === 'POST') {
        const body = completeSchema.safeParse(await jsonBody(req));
        if (!body.success)
          return sendJson(res, 400, { error: 'body must be {"outcome":"success"|"failed"}' });
        if (!completePayment(ctx, p, body.data.outcome))
          return sendJson(res, 409, { error: `transaction is ${p.status}, not open` });
        return sendJson(res, 200, wirePayment(ctx, p));
      }
    }
    sendJson(res, 404, { error: 'unknown admin route' });
  } catch (err) {
    sendJson(res, 400, {
      error: err instanceof SyntaxError ? 'body is not valid JSON' : (err as Error).message,
    });
  }
}
