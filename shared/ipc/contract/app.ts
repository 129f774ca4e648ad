import { z } from 'zod';
import { profileIdSchema } from './scope';

export const appInfo = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({
    name: z.string(),
    version: z.string(),
    dataDir: z.string(),
    /** Which host serves the handlers: the Electron app, the browser host (dev/tests), or the CLI. */
    host: z.enum(['electron', 'browser', 'cli']),
    /** Demo (embedded sandbox) or a real environment, for the active profile. */
    mode: z.enum(['demo', 'vendor-sandbox', 'production', 'custom', 'none']),
    platform: z.string(),
  }),
};

export const appHealth = {
  /** The profile whose payment service is reported: the one the screen shows (default: the active one). */
  input: z.undefined().or(z.object({ profileId: profileIdSchema.optional() }).strict()),
  output: z.object({
    status: z.enum(['ok', 'degraded']),
    checkedAt: z.string(),
    uptimeMs: z.number().int().nonnegative(),
    checks: z.array(
      z.object({
        name: z.string(),
        ok: z.boolean(),
        /** The whole finding in words, times as UTC ISO (for logs and any reader without a formatter). */
        detail: z.string().optional(),
        /**
         * The payment-service check, in parts, so the renderer can show its times in the person's zone
         * and format: what is wrong, when the failures began, when the service last answered.
         */
        problem: z.string().optional(),
        failingSince: z.string().optional(),
        lastSuccessAt: z.string().optional(),
      }),
    ),
  }),
};

/** Where in the renderer an exception was caught. */
export const RENDERER_ERROR_SOURCES = ['window.onerror', 'unhandledrejection', 'error-boundary'] as const;

/**
 * A renderer exception or unhandled rejection, for main's log: the correlation id is made in the
 * renderer and shown on its crash panel, so a person's report and the log line meet. Lengths are capped
 * here; main also rate-limits.
 */
export const appReportError = {
  input: z
    .object({
      correlationId: z.string().regex(/^[A-Za-z0-9-]{4,64}$/),
      source: z.enum(RENDERER_ERROR_SOURCES),
      message: z.string().max(1000),
      stack: z.string().max(8000).optional(),
    })
    .strict(),
  output: z.object({ logged: z.boolean() }),
};

export const appOpenExternal = {
  input: z.object({ url: z.string().max(2048) }).strict(),
  output: z.object({ opened: z.boolean() }),
};

export const appEvents = {
  'app.notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
};
