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

/** Opens a URL in the user's browser (Electron's shell.openExternal; a no-op recorder elsewhere). */
export type OpenExternal = (url: string) => Promise<void>;
