/**
 * The HTTP capability the gateway client receives. A plain-Node fetch adapter lives in
 * electron/core/adapters/http-fetch.ts; tests pass fakes (test/fakes/http.ts).
 */
export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborted by the client's per-call timeout or by the caller's cancel. */
  signal: AbortSignal;
  /** The largest (decoded) answer to read; past it the answer is refused with TOO_LARGE. */
  maxBytes?: number;
  /**
   * Send it on a connection opened for it alone, never a pooled one: set for writes (they may move
   * money and are never resent). A pooled connection the service closed while idle can swallow a
   * request unread, leaving an unknown outcome for a request the service never got.
   */
  fresh?: boolean;
}

export interface HttpResponse {
  status: number;
  text: string;
}

/**
 * Where a transport failure happened. `before-send` means the request provably never left this
 * machine (connection refused, DNS failure, TLS handshake refused), so even a refund can be reported
 * as "not sent". Everything else may have reached the service.
 */
export type TransportPhase = 'before-send' | 'unknown';

/** TransportError.causeCode when an answer arrived but was larger than the adapter reads. */
export const TOO_LARGE = 'ERESPONSE_TOO_LARGE';

/** Thrown by an HttpClient when no HTTP response arrived. Carries no request data. */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    readonly phase: TransportPhase,
    readonly causeCode?: string,
  ) {
    super(message);
  }
}

/** POSTs a body and returns the status and text, or throws TransportError (or an AbortError). */
export type HttpClient = (req: HttpRequest) => Promise<HttpResponse>;
