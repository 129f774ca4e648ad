import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type KnownIds, scrubCardText } from '../../../shared/domain/card-scrub';
import type { Logger } from '../services/ports';

/**
 * Keys whose values never reach a log line: the token, anything derived from it, signatures, the
 * string being signed, card data and request/response bodies. Matching is by key name, recursively,
 * so a careless `log.info('x', { request })` still cannot leak a nested verifySign.
 */
const SECRET_KEY =
  /token|secret|password|passphrase|verifysign|signature|signing|md5|card|cvv|pan|body|authorization|cookie/i;
const MAX_DEPTH = 4;

/** Fields that hold the service's or this app's ids (transactionNo, intentId …), quoted whole in texts. */
const ID_KEY = /(?:No|Id)$/;

/**
 * Also masks card data in every string (shared/domain/card-scrub.ts, the rules that need no card): a
 * message that quotes what a service echoed cannot carry a card number or code into a log file.
 */
export function redact(value: unknown, depth = 0, known: KnownIds = []): unknown {
  if (depth > MAX_DEPTH) return '[deep]';
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => redact(v, depth + 1, known));
  if (value && typeof value === 'object') {
    const ids = Object.entries(value)
      .filter(([k, v]) => ID_KEY.test(k) && typeof v === 'string')
      .map(([, v]) => v as string);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1, [...known, ...ids]);
    return out;
  }
  if (typeof value === 'string') {
    const text = scrubCardText(value, known);
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  }
  return value;
}

export interface LoggerOptions {
  /** JSON-lines file; omitted → no file. */
  file?: string;
  /** Where human-readable lines go (stderr by default; tests pass a collector). */
  sink?: (line: string) => void;
  now?: () => number;
}

/** A structured logger that redacts before it formats, so no adapter or sink can see a secret. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const now = opts.now ?? Date.now;
  if (opts.file) mkdirSync(dirname(opts.file), { recursive: true });
  const write = (level: string, event: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({
      t: new Date(now()).toISOString(),
      level,
      event,
      ...(redact(fields ?? {}) as object),
    });
    if (opts.file) {
      try {
        appendFileSync(opts.file, `${line}\n`);
      } catch {
        // Logging must never take the app down; a full disk shows up elsewhere.
      }
    }
    (opts.sink ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  };
  return {
    info: (e, f) => write('info', e, f),
    warn: (e, f) => write('warn', e, f),
    error: (e, f) => write('error', e, f),
  };
}
