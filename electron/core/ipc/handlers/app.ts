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
