import { z } from 'zod';
import { appHealth, appInfo } from './app';
import { profilesList } from './profiles';
import { refundsList } from './refunds';
import { teamStatus } from './team';

/**
 * What the renderer needs to show its first screen, in one round to main (issue 30): the app's facts,
 * its health, the profiles (which is active) and the desk's team state (the header's who-am-I, the
 * read-only banner) and the active profile's refund intents (the landing list marks a payment whose
 * refund has an unknown outcome) — each exactly what app.info, app.health, profiles.list, team.status and
 * refunds.list for the active profile answer, so the screens read them from the same queries as ever.
 */
export const appBootstrap = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({
    info: appInfo.output,
    health: appHealth.output,
    profiles: profilesList.output,
    team: teamStatus.output,
    /** refunds.list for the active profile; null when no profile is active. */
    intents: refundsList.output.nullable(),
  }),
};
