import type { Logger } from '../ports';
import type { DemoHandle } from './runtime';
import type { ProfilesService } from './service';

/**
 * The Demo sandbox's lifecycle at start: it runs when there is no profile yet (first run) or a Demo
 * profile exists; on first run the "Demo" profile is created against it, so a new user sees a working
 * app without credentials. A sandbox that fails to start is logged; the app runs without it.
 */
export async function bootDemo(deps: {
  profiles: ProfilesService;
  startDemo?: () => Promise<DemoHandle>;
  log: Logger;
}): Promise<DemoHandle | undefined> {
  const profiles = deps.profiles.all();
  const needsDemo = profiles.length === 0 || profiles.some((p) => p.environment === 'demo');
  if (!needsDemo || !deps.startDemo) return undefined;
  let demo: DemoHandle;
  try {
    demo = await deps.startDemo();
    deps.log.info('demo.started', { port: new URL(demo.baseUrl).port });
  } catch (e) {
    deps.log.error('demo.start_failed', { error: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
  return demo;
}

/** On first run, the Demo profile against the sandbox that just started. */
export async function createDemoProfileIfFirstRun(profiles: ProfilesService, demo: DemoHandle | undefined) {
  if (profiles.all().length > 0 || !demo) return;
  await profiles.save({
    name: 'Demo',
    environment: 'demo',
    merchantNo: demo.merchantNo,
    storeNo: demo.storeNo,
    ipnEnabled: true,
  });
}
