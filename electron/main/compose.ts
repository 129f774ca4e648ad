import { createDispatcher, type Dispatch, type HandlerMap } from './ipc/dispatcher';
import { appHandlers } from './ipc/handlers/app';
import { createAppService, type AppServiceDeps } from './services/app-service';
import { createEventBus, type EventBus } from './services/event-bus';
import type { Clock, Logger, OpenExternal } from './services/ports';

/** Adapters a host provides. Electron passes its own; the browser host and CLI pass plain-Node ones. */
export interface HostAdapters {
  host: AppServiceDeps['host'];
  name: string;
  version: string;
  dataDir: string;
  platform: string;
  clock: Clock;
  log: Logger;
  openExternal: OpenExternal;
}

export interface AppCore {
  dispatch: Dispatch;
  events: EventBus;
  handlers: HandlerMap;
  /** Stops background work (sandbox, listeners, pollers) so the process can exit cleanly. */
  close(): Promise<void>;
}

/**
 * Builds every service and the IPC handler map from the host's adapters. Both the Electron composition
 * root and the browser host call this, so the renderer talks to exactly the same code in both.
 */
export async function createAppCore(adapters: HostAdapters): Promise<AppCore> {
  const events = createEventBus();
  const app = createAppService({
    name: adapters.name,
    version: adapters.version,
    dataDir: adapters.dataDir,
    host: adapters.host,
    platform: adapters.platform,
    clock: adapters.clock,
    log: adapters.log,
    openExternal: adapters.openExternal,
    mode: () => 'none',
  });
  const handlers: HandlerMap = {
    ...appHandlers(app),
  };
  return {
    dispatch: createDispatcher(handlers, adapters.log),
    events,
    handlers,
    close: async () => {},
  };
}
