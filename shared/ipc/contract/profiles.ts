import { z } from 'zod';
import { profileInputSchema, profileSchema } from '../../domain/profile';
import { refuseUnsafeText } from '../../domain/text';

/** A profile as the renderer sees it: never the token, only whether one is set. */
export const profileViewSchema = profileSchema.extend({
  hasToken: z.boolean(),
  /** The address calls go to now (Demo: the running sandbox; undefined if it is not running). */
  effectiveBaseUrl: z.string().optional(),
  /**
   * The operator main records for this profile's refunds and payments: its operator name, else this
   * computer's account name (then `operatorName` is absent). Every confirmation shows this same name.
   */
  operator: z.string().optional(),
});

const idInput = z.object({ id: z.string().min(1).max(64) }).strict();

export const profilesList = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({
    profiles: z.array(profileViewSchema),
    activeProfileId: z.string().nullable(),
    /** The embedded sandbox runs in this session, so a Demo profile can be (re)created. */
    demoAvailable: z.boolean(),
    secretStorage: z.object({ backend: z.string(), persistent: z.boolean(), requiresOptIn: z.boolean() }),
    notices: z.array(
      z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string(), at: z.string() }),
    ),
  }),
};

export const profilesSave = { input: profileInputSchema, output: profileViewSchema };

export const profilesDelete = { input: idInput, output: z.object({ deleted: z.literal(true) }) };

export const profilesActivate = { input: idInput, output: profileViewSchema };

export const profilesSetToken = {
  input: z
    .object({
      id: z.string().min(1).max(64),
      // Never echoed: the message names only the character and where it is.
      token: z.string().min(1, 'Paste the API token.').max(256).superRefine(refuseUnsafeText('API token')),
      /** Store even where the OS offers no real encryption (Linux basic_text); off unless the person ticks it. */
      allowPlainTextStorage: z.boolean().optional(),
    })
    .strict(),
  // Deliberately no token in the output: the renderer can never read it back.
  output: z.object({ hasToken: z.literal(true), persisted: z.boolean() }),
};

export const profilesClearToken = { input: idInput, output: z.object({ hasToken: z.literal(false) }) };

export const profilesTestConnection = {
  input: idInput,
  output: z.object({
    verdict: z.enum(['ok', 'credentials', 'network', 'service']),
    message: z.string(),
    elapsedMs: z.number().int().nonnegative(),
    retCode: z.string().optional(),
    retMsg: z.string().optional(),
  }),
};

export const profileEvents = {
  /** Profiles, the active profile or a token's presence changed. */
  'profiles.changed': z.object({ activeProfileId: z.string().nullable() }),
};
