import type { AppService } from '../../services/app-service';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → service call. */
export function appHandlers(
  app: AppService,
): Pick<HandlerMap, 'app.info' | 'app.health' | 'app.openExternal' | 'app.reportError'> {
  return {
    'app.info': () => app.info(),
    'app.health': (input) => app.health(input?.profileId),
    'app.openExternal': (input) => app.openExternal(input.url),
    'app.reportError': (input) => app.reportRendererError(input),
  };
}

/**
 * app.bootstrap: the renderer's first screen in one round — app.info, app.health, profiles.list,
 * team.status and the active profile's refunds.list (the landing list marks payments whose refund has an
 * unknown outcome), asked through their own handlers, so each part is exactly what its own call answers.
 */
export function bootstrapHandler(
  h: Pick<HandlerMap, 'app.info' | 'app.health' | 'profiles.list' | 'team.status' | 'refunds.list'>,
): HandlerMap['app.bootstrap'] {
  return async (_input, ctx) => {
    const profilesAndIntents = (async () => {
      const profiles = await h['profiles.list'](undefined, ctx);
      const active = profiles.activeProfileId;
      return { profiles, intents: active ? await h['refunds.list']({ profileId: active }, ctx) : null };
    })();
    const [info, health, team, { profiles, intents }] = await Promise.all([
      h['app.info'](undefined, ctx),
      h['app.health'](undefined, ctx),
      h['team.status'](undefined, ctx),
      profilesAndIntents,
    ]);
    return { info, health, profiles, team, intents };
  };
}
