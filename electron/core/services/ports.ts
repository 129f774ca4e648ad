/**
 * Ports: the capabilities services receive by injection. Each has an Electron adapter, a plain-Node
 * adapter (browser host, CLI) and a fake in test/fakes.
 */

/** Structured, redacting logger. Fields must never hold secrets; adapters redact known keys anyway. */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export interface Clock {
  now(): number;
}

/** Who this process is, given by the host (services read no OS state themselves: lint-enforced). */
export interface ProcessIdentity {
  /** A label for the intents this process sends (`host:pid`): people read it; the lease decides. */
  sender: string;
  /** The operator's name when a profile names none (the OS account). */
  osUser: string;
}

/** Opens a URL in the user's browser (Electron's shell.openExternal; a no-op recorder elsewhere). */
export type OpenExternal = (url: string) => Promise<void>;
