import { z } from 'zod';
import { appHealth, appInfo } from './app';
import { profilesList } from './profiles';
import { teamStatus } from './team';

/**
 * What the renderer needs to show its first screen, in one round to main (issue 30): the app's facts,
 * its health, the profiles (which is active) and the desk's team state (the header's who-am-I, the
 * read-only banner) — each exactly what app.info, app.health, profiles.list and team.status answer, so
 * the screens read them from the same queries as ever.
 */
export const appBootstrap = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({
    info: appInfo.output,
    health: appHealth.output,
    profiles: profilesList.output,
    team: teamStatus.output,
  }),
};
