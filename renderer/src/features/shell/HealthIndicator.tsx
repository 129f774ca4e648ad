import { useQuery } from '@tanstack/react-query';
import type { Output } from '../../../../shared/ipc/contract';
import { useBridge } from '../../lib/bridge';
import type { Formatters } from '../preferences/format';
import { useActiveProfile } from '../profiles/queries';
import { useFormat } from '../preferences/use-prefs';
import { appHealthQuery } from './queries';

type Check = Output<'app.health'>['checks'][number];

/** A failing check in words; the payment service's times in the person's zone and date format. */
function describeFailing(c: Check, f: Formatters): string {
  if (!c.problem) return c.detail ?? c.name;
  const since = c.failingSince ? ` since ${f.dateTimeSeconds(c.failingSince)}` : '';
  const last = c.lastSuccessAt
    ? `last answer ${f.dateTimeSeconds(c.lastSuccessAt)}`
    : 'no answer since Refund Desk started';
  return `${c.problem}${since}; ${last}. Cached data stays available; refunds may end as “outcome unknown”.`;
}

/**
 * The same in a few words, for the header (one line at every window size): what is wrong and since
 * when; the whole sentence is its tooltip, and the screen's own banner says what still works.
 */
function shortFailing(c: Check, f: Formatters): string {
  if (!c.problem) return c.detail ?? c.name;
  return `${c.problem}${c.failingSince ? ` since ${f.soon(c.failingSince)}` : ''}`;
}

/**
 * Whether main answers and how the active profile's payment service has been answering, through the real
 * app.health handler; the time of its last answer shows even while all is well.
 */
export function HealthIndicator() {
  const bridge = useBridge();
  const f = useFormat();
  const { profile } = useActiveProfile();
  const health = useQuery(appHealthQuery(bridge, profile?.id));
  const state = health.isPending ? 'checking' : health.isError ? 'down' : health.data.status;
  const failing = health.data?.checks.filter((c) => !c.ok) ?? [];
  const service = health.data?.checks.find((c) => c.name === 'service');
  // Main reports the service only once the app has talked to it: until then "normal" would claim what
  // nobody has checked.
  const untried = state === 'ok' && !service?.lastSuccessAt;
  const label =
    state === 'checking'
      ? 'Checking…'
      : state === 'down'
        ? 'Main process not answering'
        : untried
          ? 'Payment service not contacted yet'
          : state === 'ok'
            ? 'All systems normal'
            : 'Degraded';
  return (
    <div
      className={`health health-${untried ? 'untried' : state}`}
      data-testid="health"
      data-state={untried ? 'untried' : state}
      role="status"
      aria-live="polite"
    >
      <span className="dot" aria-hidden="true" />
      <span>{label}</span>
      {failing.length > 0 ? (
        <span
          className="health-detail"
          title={failing.map((c) => describeFailing(c, f)).join('; ')}
          data-testid="health-detail"
        >
          {failing.map((c) => shortFailing(c, f)).join('; ')}
          <span className="sr-only">. {failing.map((c) => describeFailing(c, f)).join('; ')}</span>
        </span>
      ) : (
        service?.lastSuccessAt && (
          <span
            className="health-detail health-detail-ok"
            data-testid="health-last-answer"
            title="When the payment service last answered this profile"
          >
            Payment service last answered {f.dateTimeSeconds(service.lastSuccessAt)}
          </span>
        )
      )}
      {health.isError && (
        <button type="button" className="link" onClick={() => void health.refetch()}>
          Retry
        </button>
      )}
    </div>
  );
}
