import type { Input, Output } from '../../../shared/ipc/contract';
import { AppError } from '../../../shared/domain/errors';
import { isAllowedExternalUrl } from './external-links';
import type { Clock, Logger, OpenExternal } from './ports';

export interface AppServiceDeps {
  name: string;
  version: string;
  dataDir: string;
  host: Output<'app.info'>['host'];
  platform: string;
  clock: Clock;
  log: Logger;
  openExternal: OpenExternal;
  /** The active profile's environment; 'none' until profiles exist. */
  mode: () => Output<'app.info'>['mode'];
  /** Extra health checks contributed by other services (sandbox, journal, …). */
  /** The checks for the named profile (the active one when none is named). */
  healthChecks?: (profileId?: string) => Promise<Output<'app.health'>['checks']>;
}

/** App-level facts and the health check behind the shell's indicator. */
export function createAppService(deps: AppServiceDeps) {
  const startedAt = deps.clock.now();
  // A renderer stuck in a loop of exceptions must not flood the log: a few a minute are plenty to act on.
  const reports = { windowStart: startedAt, count: 0 };
  const REPORTS_PER_MINUTE = 20;
  return {
    info(): Output<'app.info'> {
      return {
        name: deps.name,
        version: deps.version,
        dataDir: deps.dataDir,
        host: deps.host,
        mode: deps.mode(),
        platform: deps.platform,
      };
    },
    async health(profileId?: string): Promise<Output<'app.health'>> {
      const checks = [{ name: 'main', ok: true }, ...((await deps.healthChecks?.(profileId)) ?? [])];
      return {
        status: checks.every((c) => c.ok) ? 'ok' : 'degraded',
        checkedAt: new Date(deps.clock.now()).toISOString(),
        uptimeMs: Math.max(0, deps.clock.now() - startedAt),
        checks,
      };
    },
    /** A renderer exception, logged (through the redacting logger) with the renderer's correlation id. */
    reportRendererError(input: Input<'app.reportError'>): Output<'app.reportError'> {
      const now = deps.clock.now();
      if (now - reports.windowStart >= 60_000) Object.assign(reports, { windowStart: now, count: 0 });
      reports.count += 1;
      if (reports.count > REPORTS_PER_MINUTE) return { logged: false };
      deps.log.error('renderer.exception', {
        correlationId: input.correlationId,
        source: input.source,
        message: input.message,
        ...(input.stack ? { stack: input.stack } : {}),
      });
      return { logged: true };
    },
    async openExternal(url: string): Promise<Output<'app.openExternal'>> {
      if (!isAllowedExternalUrl(url)) {
        deps.log.warn('external.refused', { host: safeHost(url) });
        throw new AppError(
          'forbidden',
          'Refund Desk only opens https links to the payment provider’s own sites.',
        );
      }
      await deps.openExternal(url);
      return { opened: true };
    },
  };
}
export type AppService = ReturnType<typeof createAppService>;

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unparseable)';
  }
}
