import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../../shared/protocol/signing';
import { ipnDedupKey, type IpnEvent, type IpnListener, type IpnListenerDeps } from '../services/ipn/events';

const MAX_BODY = 64 * 1024;
const DEDUPE_LIMIT = 5_000;
/** A sender gets this long for its headers, and again for its body, before the connection is closed. */
const SLOW_SENDER_MS = 10_000;
/** Connections held open at once (the service sends a handful; a flood of slow senders is refused). */
const MAX_CONNECTIONS = 64;

/** Why a body was not read: too large (413) or too slow (408). */
class BodyRefused extends Error {
  constructor(readonly status: 408 | 413) {
    super(status === 413 ? 'too large' : 'too slow');
  }
}

function readBody(req: IncomingMessage, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    const refuse = (status: 408 | 413) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.pause();
      reject(new BodyRefused(status));
    };
    const timer = setTimeout(() => refuse(408), timeoutMs);
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) refuse(413);
      else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Form-urlencoded (the service) or a flat JSON object (the interface document's wording). */
function parseFields(text: string, contentType: string): Record<string, string> | undefined {
  if (contentType.includes('json')) {
    try {
      const obj = JSON.parse(text) as unknown;
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
        else if (v !== null) return undefined;
      }
      return out;
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * IPN listener bound to 127.0.0.1 (a desktop has no public address: in production, status comes from
 * polling). POST /ipn/<profileId>. Verifies verifySign in constant time, refuses and logs forgeries
 * (rate-limited, never the fields), answers `success` only once the event is recorded, and
 * deduplicates by state because the service resends and has no notification id.
 */
export function createIpnListener(deps: IpnListenerDeps): IpnListener {
  const seen = new Set<string>();
  const refusalsPerMinute = deps.badSignatureLogsPerMinute ?? 5;
  const eventsPerMinute = deps.eventLogsPerMinute ?? 60;
  const slowSenderMs = deps.slowSenderMs ?? SLOW_SENDER_MS;
  const buckets = new Map<string, { windowStart: number; logged: number; suppressed: number }>();
  let server: Server | undefined;
  let baseUrl: string | undefined;

  /** Logs at most `perMinute` lines of one event per minute; the rest are counted into the next line. */
  function logLimited(
    level: 'info' | 'warn',
    event: string,
    perMinute: number,
    fields: Record<string, unknown>,
  ): void {
    const now = deps.clock.now();
    let b = buckets.get(event);
    if (!b) buckets.set(event, (b = { windowStart: now, logged: 0, suppressed: 0 }));
    if (now - b.windowStart >= 60_000) {
      b.windowStart = now;
      b.logged = 0;
    }
    if (b.logged >= perMinute) {
      b.suppressed += 1;
      return;
    }
    b.logged += 1;
    deps.log[level](event, { ...fields, suppressedSinceLast: b.suppressed });
    b.suppressed = 0;
  }

  function logBadSignature(profileId: string): void {
    logLimited('warn', 'ipn.bad_signature', refusalsPerMinute, { profileId: profileId.slice(0, 64) });
  }

  const reply = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const m = /^\/ipn\/([A-Za-z0-9_-]{1,64})$/.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (!m) return reply(res, 404, 'not found');
    if (req.method !== 'POST') return reply(res, 405, 'POST only');
    const profileId = m[1]!;
    // The service posts server-to-server and sends no Origin; a browser always does on a cross-site
    // form post or fetch. Any Origin means a web page is talking to us: refuse before reading anything.
    if (req.headers.origin !== undefined) {
      logLimited('warn', 'ipn.foreign_origin', refusalsPerMinute, { profileId: profileId.slice(0, 64) });
      return reply(res, 403, 'fail');
    }
    let text: string;
    try {
      text = await readBody(req, slowSenderMs);
    } catch (e) {
      // Too large or too slow: answer, then close (the rest of the body is never read).
      const status = e instanceof BodyRefused ? e.status : 400;
      logLimited('warn', 'ipn.body_refused', refusalsPerMinute, {
        profileId: profileId.slice(0, 64),
        status,
      });
      res.setHeader('connection', 'close');
      res.on('finish', () => req.socket.destroy());
      return reply(res, status, 'fail');
    }
    const fields = parseFields(text, String(req.headers['content-type'] ?? ''));
    const token = await deps.tokenFor(profileId).catch(() => undefined);
    if (!fields || !token || !verifySignature(fields, token, { acceptEmptyVariant: true })) {
      logBadSignature(profileId);
      return reply(res, 401, 'fail');
    }
    const isRefund = fields['transactionType'] === 'refund' || Boolean(fields['refundTransactionNo']);
    const transactionNo = fields['transactionNo'];
    const status = fields['status'];
    if (!transactionNo || !status) {
      deps.log.warn('ipn.incomplete', { profileId });
      return reply(res, 400, 'fail');
    }
    const event: IpnEvent = {
      profileId,
      kind: isRefund ? 'refund' : 'payment',
      transactionNo,
      ...(fields['refundTransactionNo'] ? { refundTransactionNo: fields['refundTransactionNo'] } : {}),
      ...(fields['reference'] ? { reference: fields['reference'] } : {}),
      status,
      ...(!isRefund && fields['vaultId'] ? { vaultId: fields['vaultId'] } : {}),
      receivedAt: new Date(deps.clock.now()).toISOString(),
    };
    const key = ipnDedupKey(event);
    const duplicate = () =>
      logLimited('info', 'ipn.duplicate', eventsPerMinute, {
        profileId,
        kind: event.kind,
        transactionNo,
        status,
      });
    if (seen.has(key)) {
      duplicate();
      return reply(res, 200, 'success');
    }
    try {
      if ((await deps.record(event, key)) === 'duplicate') {
        seen.add(key);
        duplicate();
        return reply(res, 200, 'success');
      }
    } catch (e) {
      // Not recorded → not acknowledged: the service will resend.
      deps.log.error('ipn.record_failed', { profileId, error: e instanceof Error ? e.name : 'unknown' });
      return reply(res, 500, 'fail');
    }
    seen.add(key);
    if (seen.size > DEDUPE_LIMIT) seen.delete(seen.values().next().value as string);
    logLimited('info', 'ipn.received', eventsPerMinute, {
      profileId,
      kind: event.kind,
      transactionNo,
      status,
    });
    reply(res, 200, 'success');
    deps.onEvent(event);
  }

  return {
    async start(port = 0): Promise<string> {
      if (server && baseUrl) return baseUrl;
      const s = createServer(
        {
          // Slow senders (headers or body trickled a byte at a time) are cut off, not waited for.
          headersTimeout: slowSenderMs,
          requestTimeout: 2 * slowSenderMs,
          connectionsCheckingInterval: Math.min(1_000, slowSenderMs / 2),
        },
        (req, res) => {
          handle(req, res).catch(() => {
            if (!res.headersSent) reply(res, 400, 'fail');
          });
        },
      );
      s.maxConnections = MAX_CONNECTIONS;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
      baseUrl = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      deps.log.info('ipn.listening', { port: (s.address() as AddressInfo).port });
      return baseUrl;
    },
    /** The ipnUrl to send with a profile's payments and refunds, or undefined when not listening. */
    urlFor(profileId: string): string | undefined {
      return baseUrl ? `${baseUrl}/ipn/${profileId}` : undefined;
    },
    isRunning: () => Boolean(server),
    async stop(): Promise<void> {
      const s = server;
      server = undefined;
      baseUrl = undefined;
      if (!s) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeAllConnections();
      await closed;
    },
  };
}
