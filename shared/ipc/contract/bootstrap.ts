import { z } from 'zod';
import { appHealth, appInfo } from './app';
import { profilesList } from './profiles';

/**
 * What the renderer needs to show its first screen, in one round to main (issue 30): the app's facts,
 * its health and the profiles (which is active) — each exactly what app.info, app.health and
 * profiles.list answer, so the screens read them from the same queries as ever.
 */
export const appBootstrap = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({ info: appInfo.output, health: appHealth.output, profiles: profilesList.output }),
};
