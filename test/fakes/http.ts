import type { HttpClient, HttpRequest, HttpResponse } from '../../electron/core/services/gateway/http-port';

export type FakeReply =
  HttpResponse | Error | 'hang' | ((req: HttpRequest) => HttpResponse | Promise<HttpResponse>);

/**
 * Scripted HTTP: each call takes the next reply (the last one repeats). 'hang' waits until the
 * request is aborted, like a server that never answers. Records parsed request bodies.
 */
export function createFakeHttp(
  replies: FakeReply[],
): HttpClient & { calls: { url: string; body: Record<string, string> }[] } {
  const calls: { url: string; body: Record<string, string> }[] = [];
  const fn = async (req: HttpRequest): Promise<HttpResponse> => {
    calls.push({ url: req.url, body: JSON.parse(req.body) as Record<string, string> });
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)];
    if (reply === undefined) throw new Error('fake http: no reply scripted');
    if (reply === 'hang') {
      return new Promise<HttpResponse>((_, reject) => {
        if (req.signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
        req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), {
          once: true,
        });
      });
    }
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(req);
    return reply;
  };
  return Object.assign(fn, { calls });
}

/** A 200 answer with the given envelope. */
export const envelope = (body: Record<string, unknown>): HttpResponse => ({
  status: 200,
  text: JSON.stringify(body),
});
export const success = (result: Record<string, unknown>): HttpResponse =>
  envelope({ ret_code: '000100', ret_msg: 'success', result });
