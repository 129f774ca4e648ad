import { z } from 'zod';

/**
 * The team connection as the settings file keeps it (non-secret): the address, the CA file and the
 * login. The password is never here: main keeps it in its secret store (`team-database:password`).
 */
export const teamSettingsSchema = z.object({
  /** postgres://host:5432/database (a login in it is used unless `login` is given). */
  address: z.string().trim().min(1),
  caFile: z.string().trim().min(1).optional(),
  login: z.string().trim().min(1).max(63).optional(),
});
export type TeamSettings = z.infer<typeof teamSettingsSchema>;

export type TeamField = 'address' | 'caFile' | 'login' | 'password';

/** A team setting that cannot be used: which field, and in words what to do. */
export class TeamSettingsProblem extends Error {
  override name = 'TeamSettingsProblem';
  constructor(
    readonly field: TeamField,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The connection string of the team settings, without any password: the login (when given) replaces
 * the address's. A password written into the address is dropped (`drop`: the settings file, where it
 * would be on disk in clear) or refused with what to do (`refuse`: the Settings form, which has a
 * Password field for it). Throws TeamSettingsProblem.
 */
export function teamUrlOf(t: TeamSettings, passwordInAddress: 'drop' | 'refuse'): string {
  let url: URL;
  try {
    url = new URL(t.address.trim());
  } catch {
    throw new TeamSettingsProblem(
      'address',
      'The team database address is not valid: write it as postgres://host:5432/database.',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new TeamSettingsProblem('address', 'The team database address must start with postgres://.');
  if (!url.hostname)
    throw new TeamSettingsProblem(
      'address',
      'The team database address names no server: write it as postgres://host:5432/database.',
    );
  if (url.password || /password=/i.test(url.search)) {
    if (passwordInAddress === 'refuse')
      throw new TeamSettingsProblem(
        'address',
        'Leave the password out of the address and type it in Password: it is kept encrypted by this computer, never in the settings file.',
      );
    url.password = '';
    url.searchParams.delete('password');
  }
  const login = t.login?.trim();
  if (login) url.username = encodeURIComponent(login);
  return url.toString();
}
