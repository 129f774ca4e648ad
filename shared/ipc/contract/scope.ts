import { z } from 'zod';

/**
 * Which merchant account a call concerns. Every call that reads or changes an account's data names its
 * profile, so main never acts for "whichever profile is active when the call arrives": a reply for a
 * profile the screen no longer shows is recognisable (replies carry it), and a resource of another
 * profile is refused with `conflict`.
 */
export const profileIdSchema = z.string().min(1, 'Name the profile.').max(64);

/** The field every account-scoped input carries. */
export const scoped = { profileId: profileIdSchema };

/** A list input: one profile's records, or explicitly every profile's (the "All profiles" choice). */
export const listScopeSchema = z.union([
  z.object({ profileId: profileIdSchema }).strict(),
  z.object({ allProfiles: z.literal(true) }).strict(),
]);
export type ListScope = z.infer<typeof listScopeSchema>;

/** The profile a list is limited to, or undefined for every profile. */
export function scopeProfileId(scope: ListScope): string | undefined {
  return 'profileId' in scope ? scope.profileId : undefined;
}
