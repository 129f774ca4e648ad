import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import type {
  HttpClient,
  HttpRequest,
  HttpResponse,
} from '../../../electron/core/services/gateway/http-port';
import type { Card } from '../../fakes/card-data';

/**
 * A hostile payment gateway at the HTTP edge, in front of the real embedded sandbox: it reads the card
 * data of each capture request (as a real service does) and answers in a shape that echoes it back. The
 * scripted answer is chosen per test; calls it does not script go to the sandbox unchanged.
 */
export interface EchoCall {
  /** The card of the capture request, as the service received it. */
  card: Card;
  /** Sends the request on to the real sandbox and gives its answer as JSON. */
  forward: () => Promise<Record<string, unknown>>;
  sandboxBase: string;
}

export interface EchoScript {
  capture?: (call: EchoCall) => Promise<HttpResponse>;
  /** Look-ups (tran-query) of the scripted payment's reference or transaction number. */
  query?: (
    call: Omit<EchoCall, 'card'> & { card: Card; body: Record<string, string> },
  ) => Promise<HttpResponse>;
}

export const json = (body: unknown, status = 200): HttpResponse => ({ status, text: JSON.stringify(body) });

export function createEchoGateway() {
  const real = createFetchHttpClient();
  let script: EchoScript | undefined;
  /** The card of the last capture, for the look-ups of its payment. */
  let last: { card: Card; reference: string; transactionNo?: string } | undefined;
  const http: HttpClient = async (req: HttpRequest) => {
    const url = new URL(req.url);
    const body = JSON.parse(req.body) as Record<string, string>;
    const forward = async () => {
      const r = await real(req);
      return JSON.parse(r.text) as Record<string, unknown>;
    };
    const sandboxBase = url.origin;
    if (script?.capture && url.pathname.endsWith('/capture') && body['cardNumber']) {
      const card = {
        number: body['cardNumber'],
        cvv: body['cardCvv'] ?? '',
        expMonth: body['cardExpMonth'] ?? '',
        expYear: body['cardExpYear'] ?? '',
      };
      last = { card, reference: body['reference'] ?? '' };
      const answer = await script.capture({ card, forward, sandboxBase });
      try {
        const tx = (JSON.parse(answer.text) as { result?: { transactionNo?: string } }).result?.transactionNo;
        if (tx) last.transactionNo = tx;
      } catch {
        // an unreadable answer names no payment
      }
      return answer;
    }
    const ours =
      last &&
      ((body['reference'] && body['reference'] === last.reference) ||
        (body['transactionNo'] && body['transactionNo'] === last.transactionNo));
    if (script?.query && last && ours && url.pathname.endsWith('/tran-query'))
      return script.query({ card: last.card, body, forward, sandboxBase });
    return real(req);
  };
  return {
    http,
    /** Scripts the answers of the next capture (and of its look-ups) until the next call. */
    script(s: EchoScript | undefined) {
      script = s;
      last = undefined;
    },
  };
}
