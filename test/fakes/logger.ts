import type { Logger } from '../../electron/core/services/ports';

/** Collects log calls so tests can assert on events (and on the absence of secrets). */
export function createFakeLogger(): Logger & {
  lines: { level: string; event: string; fields?: Record<string, unknown> }[];
} {
  const lines: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
  return {
    lines,
    info: (event, fields) => void lines.push({ level: 'info', event, ...(fields ? { fields } : {}) }),
    warn: (event, fields) => void lines.push({ level: 'warn', event, ...(fields ? { fields } : {}) }),
    error: (event, fields) => void lines.push({ level: 'error', event, ...(fields ? { fields } : {}) }),
  };
}
