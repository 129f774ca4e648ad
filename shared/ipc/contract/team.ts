import { z } from 'zod';
import { minorSchema } from '../../domain/money';
import { refuseUnsafeText } from '../../domain/text';

/**
 * Settings → Team database and the desk's team state. The password goes one way only: the renderer may
 * set it (team.setPassword) or hand one to a test (team.testConnection); no output ever carries it, only
 * whether one is set.
 */

const none = z.undefined().or(z.object({}).strict());

/** Empty means "none" (an optional field the person cleared). */
const optionalText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${what} under ${max} characters.`)
    .superRefine(refuseUnsafeText(what))
    .optional();

/** What the Settings form holds (non-secret): the address, the CA file and the login. */
export const teamFormSchema = z
  .object({
    address: z
      .string()
      .trim()
      .min(1, 'Enter the team database address (postgres://host:5432/database).')
      .max(2_000, 'Keep the address under 2000 characters.')
      .superRefine(refuseUnsafeText('team database address')),
    caFile: optionalText('CA file path', 4_096),
    login: optionalText('database login', 63),
  })
  .strict();
export type TeamForm = z.infer<typeof teamFormSchema>;

const password = z
  .string()
  .min(1, 'Type the password.')
  .max(1_024, 'Keep the password under 1024 characters.')
  // Never echoed: the message names only the character and where it is.
  .superRefine(refuseUnsafeText('password'));

const savedSchema = z.object({
  address: z.string(),
  caFile: z.string().optional(),
  login: z.string().optional(),
});

const settingsOutput = z.object({
  /** What Settings hold (none: this desk works alone, on its own SQLite file). */
  saved: savedSchema.nullable(),
  /** Only whether a password is kept in main's secret store; never the password. */
  passwordSet: z.boolean(),
  /**
   * When saved settings are used: `restart` — this host (the desktop app) reads them when it starts;
   * `command-line` — this host takes its team database from --database-url only (browser host, CLI).
   */
  appliesAt: z.enum(['restart', 'command-line']),
  /** Saved settings or the password changed since this desk started: they take effect at its next start. */
  restartNeeded: z.boolean(),
  secretStorage: z.object({ backend: z.string(), persistent: z.boolean(), requiresOptIn: z.boolean() }),
  /** The saved settings cannot be used as they are (then the desk is read-only with this reason). */
  problem: z.string().optional(),
});

export const teamSettings = { input: none, output: settingsOutput };

export const teamSave = { input: teamFormSchema, output: settingsOutput };

/** Stop using a team database: its settings and the kept password are removed (at the next start: alone). */
export const teamForget = { input: none, output: settingsOutput };

export const teamSetPassword = {
  input: z
    .object({
      password,
      /** Store even where the OS offers no real encryption (Linux basic_text); off unless the person ticks it. */
      allowPlainTextStorage: z.boolean().optional(),
    })
    .strict(),
  // Deliberately no password in the output.
  output: z.object({ passwordSet: z.literal(true), persisted: z.boolean() }),
};

export const teamTestConnection = {
  /** The form as it is now; without a password, the one kept in main's secret store is used. */
  input: teamFormSchema.extend({ password: password.optional() }).strict(),
  output: z.object({
    address: z.string(),
    login: z.string(),
    groups: z.array(z.string()),
    limits: z.array(z.object({ currency: z.string(), upToMinor: minorSchema })),
    schema: z.object({ database: z.number().int(), desk: z.number().int() }),
    /** Set when the versions differ: what it means and who does what ("update Refund Desk"). */
    schemaNote: z.string().optional(),
  }),
};

/** The desk's team state now: the header's "who am I" and the read-only banner. */
export const teamStatus = {
  input: none,
  output: z.object({
    mode: z.enum(['single', 'team']),
    address: z.string().optional(),
    login: z.string().optional(),
    deskId: z.string().optional(),
    schema: z.object({ database: z.number().int(), desk: z.number().int() }).optional(),
    /**
     * Refunds and approvals are refused (browse, search and export still work): why, in words, and —
     * while the database cannot be reached — since when (ISO). Gone by itself once it is back.
     */
    readOnly: z.object({ reason: z.string(), since: z.string().optional() }).optional(),
  }),
};
