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
 * app.bootstrap: the renderer's first screen in one round — app.info, app.health, profiles.list and team.status,
 * asked together through their own handlers, so each part is exactly what its own call answers.
 */
export function bootstrapHandler(
  h: Pick<HandlerMap, 'app.info' | 'app.health' | 'profiles.list' | 'team.status'>,
): HandlerMap['app.bootstrap'] {
  return async (_input, ctx) => {
    const [info, health, profiles, team] = await Promise.all([
      h['app.info'](undefined, ctx),
      h['app.health'](undefined, ctx),
      h['profiles.list'](undefined, ctx),
      h['team.status'](undefined, ctx),
    ]);
    return { info, health, profiles, team };
  };
}
