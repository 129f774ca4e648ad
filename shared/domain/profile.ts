import { z } from 'zod';
import { type Guardrails, guardrailsInputSchema, guardrailsSchema, UNKNOWN_CLOSE_FLOOR } from './guardrails';
import { refuseUnsafeText } from './text';

/**
 * Merchant profiles: who this desk is talking to and where. Shared by main (which stores and enforces
 * them) and the renderer (which shows the same validation messages before sending). No secret lives
 * here: the API token is kept by main's secret store, keyed by profile id.
 */
export const ENVIRONMENTS = ['demo', 'vendor-sandbox', 'production', 'custom'] as const;
export const environmentSchema = z.enum(ENVIRONMENTS, { message: 'Choose where this profile connects to.' });
export type Environment = z.infer<typeof environmentSchema>;

/**
 * The environment a journal record (refund or payment intent, audit entry) was made in. `unrecorded`
 * stands for records imported from earlier versions that did not keep it (or kept a value no longer
 * known): they are still listed, never guessed to have been one of the others.
 */
const RECORDED_ENVIRONMENTS = [...ENVIRONMENTS, 'unrecorded'] as const;
export const recordedEnvironmentSchema = z.enum(RECORDED_ENVIRONMENTS);
export type RecordedEnvironment = z.infer<typeof recordedEnvironmentSchema>;

/** A stored environment as the closed type: anything not known reads as `unrecorded`. */
export function toRecordedEnvironment(stored: unknown): RecordedEnvironment {
  return (RECORDED_ENVIRONMENTS as readonly unknown[]).includes(stored)
    ? (stored as RecordedEnvironment)
    : 'unrecorded';
}

/**
 * Fixed hosts (shared/protocol/README.md, "Hosts"). Demo's address is the embedded sandbox's, known only at
 * run time.
 */
export const ENVIRONMENT_BASE_URLS: Readonly<Record<'vendor-sandbox' | 'production', string>> = {
  'vendor-sandbox': 'https://mapi.yuansferdev.com',
  production: 'https://mapi.yuansfer.com',
};

export const ENVIRONMENT_LABELS: Readonly<Record<Environment, string>> = {
  demo: 'Demo (built-in sandbox)',
  'vendor-sandbox': 'Vendor sandbox',
  production: 'Production',
  custom: 'Custom address',
};

/** The vendor's public demo merchant (shared/protocol/README.md), served by our sandbox. Not secret. */
export const DEMO_MERCHANT_NUMBERS = { merchantNo: '200043', storeNo: '300014' } as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when the address points at this machine (127.0.0.1, localhost, [::1]). */
export function isLoopbackUrl(text: string): boolean {
  try {
    return LOOPBACK.has(new URL(text).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a call can move real money, from where it goes — not only from the label chosen:
 * - `live`: the vendor's production host, and any custom address that is not on this machine (a partner
 *   gateway may well be production);
 * - `test`: the vendor's sandbox host (its test system);
 * - `local`: the built-in Demo sandbox — the only one that may say "no real money moves" by itself.
 * A Custom address on this machine (127.0.0.1, localhost) may be a simulator, or a tunnel or proxy to a
 * production gateway: the app cannot tell, so the person declares which (`loopbackMoneyMode`), and
 * until they do it is live money.
 */
export const MONEY_MODES = ['live', 'test', 'local'] as const;
export const moneyModeSchema = z.enum(MONEY_MODES, { message: 'Say whether real money moves there.' });
export type MoneyMode = z.infer<typeof moneyModeSchema>;

/** What a person declares a Custom address on this machine leads to, in their words. */
export const LOOPBACK_MONEY_LABELS: Readonly<Record<MoneyMode, string>> = {
  live: 'Real money — a tunnel or proxy to a production gateway',
  test: 'Test money — a tunnel or proxy to a provider’s test system',
  local: 'No real money — a simulator on this computer',
};
const VENDOR_TEST_HOSTS = new Set(['mapi.yuansferdev.com', 'mapi.yuansfer.yunkeguan.com']);

/**
 * Which environment an address is, for a caller that has only the address (the CLI's --base-url): the
 * vendor's production host, one of its test hosts, or anything else — a custom address. The same host
 * lists as moneyModeOf, so the label and the money mode cannot disagree.
 */
export function environmentOfUrl(baseUrl: string): 'production' | 'vendor-sandbox' | 'custom' {
  const host = new URL(baseUrl).hostname;
  if (host === new URL(ENVIRONMENT_BASE_URLS.production).hostname) return 'production';
  if (VENDOR_TEST_HOSTS.has(host)) return 'vendor-sandbox';
  return 'custom';
}

/**
 * The money mode of a call to `baseUrl`. `declared`: what the person declared for a Custom address on
 * this machine (the profile's `loopbackMoneyMode`); it decides only there, and without it such an
 * address is live money. Everywhere else the address decides.
 */
export function moneyModeOf(
  environment: RecordedEnvironment,
  baseUrl: string | undefined,
  declared?: MoneyMode,
): MoneyMode {
  if (environment === 'demo') return 'local';
  let host: string | undefined;
  try {
    host = baseUrl ? new URL(baseUrl).hostname : undefined;
  } catch {
    host = undefined;
  }
  if (host === undefined) return environment === 'vendor-sandbox' ? 'test' : 'live'; // unknown: assume live
  if (LOOPBACK.has(host)) return declared ?? 'live';
  if (VENDOR_TEST_HOSTS.has(host)) return 'test';
  return 'live';
}

/** https anywhere; plain http only to this machine (a local proxy or simulator). */
export function isAcceptableBaseUrl(text: string): boolean {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return false;
  }
  if (u.username || u.password || u.search || u.hash) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && LOOPBACK.has(u.hostname);
}

/**
 * Before a refund whose outcome is unknown may be closed as "not sent": checks, over at least this long.
 * The default is the floor (./guardrails.ts UNKNOWN_CLOSE_FLOOR): nothing below it is safe, and more
 * only keeps the payment blocked longer.
 */
export const DEFAULT_UNKNOWN_CLOSE = UNKNOWN_CLOSE_FLOOR;

/** A profile's money-safety settings (./guardrails.ts). */
export type ProfileGuardrails = Guardrails;

const digits = (what: string, example: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .regex(
      /^\d{1,20}$/,
      `The ${what} is digits only, as the payment provider issued it (for example ${example}).`,
    );

/** What a person fills in; main assigns ids and times. */
export const profileInputSchema = z
  .object({
    id: z.string().max(64).optional(),
    name: z
      .string()
      .trim()
      .min(1, 'Give the profile a name, for example “Main store”.')
      .max(60, 'Keep the name under 60 characters.')
      .superRefine(refuseUnsafeText('profile name')),
    merchantNo: digits('merchant number', '200043'),
    storeNo: digits('store number', '300014'),
    environment: environmentSchema,
    baseUrl: z.string().trim().max(300).superRefine(refuseUnsafeText('service address')).optional(),
    ipnEnabled: z.boolean().default(false),
    operatorName: z
      .string()
      .trim()
      .max(60, 'Keep the operator name under 60 characters.')
      .superRefine(refuseUnsafeText('operator name'))
      .optional(),
    guardrails: guardrailsInputSchema.optional(),
    /** Custom addresses on this machine only: what is behind it (moneyModeOf); live money when absent. */
    loopbackMoneyMode: moneyModeSchema.optional(),
    merGroupNo: z
      .string()
      .trim()
      .regex(
        /^\d{0,20}$/,
        'The partner group number is digits only; leave it empty unless you are a partner.',
      )
      .optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.environment !== 'custom') return;
    if (!p.baseUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: 'A custom profile needs the service address, for example https://mapi.example.com.',
      });
    } else if (!isAcceptableBaseUrl(p.baseUrl)) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message:
          'Use an https:// address without anything after the host (plain http:// only for 127.0.0.1 or localhost).',
      });
    }
  });
export type ProfileInput = z.input<typeof profileInputSchema>;

export const profileSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(60),
  merchantNo: z.string().regex(/^\d{1,20}$/),
  storeNo: z.string().regex(/^\d{1,20}$/),
  environment: environmentSchema,
  baseUrl: z.string().max(300).optional(),
  ipnEnabled: z.boolean(),
  operatorName: z.string().max(60).optional(),
  merGroupNo: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  guardrails: guardrailsSchema.optional(),
  /** Custom addresses on this machine only: what the person declared is behind it (moneyModeOf). */
  loopbackMoneyMode: moneyModeSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** Field → first message, for forms. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'form';
    out[key] ??= issue.message;
  }
  return out;
}
