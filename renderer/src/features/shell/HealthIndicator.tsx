import { useQuery } from '@tanstack/react-query';
import { useBridge } from '../../lib/bridge';
import { appHealthQuery } from './queries';

/** Shows whether the main process answers, through the real app.health handler. */
export function HealthIndicator() {
  const bridge = useBridge();
  const health = useQuery(appHealthQuery(bridge));
  const state = health.isPending ? 'checking' : health.isError ? 'down' : health.data.status;
  const label =
    state === 'checking'
      ? 'Checking…'
      : state === 'down'
        ? 'Main process not answering'
        : state === 'ok'
          ? 'All systems normal'
          : 'Degraded';
  const failing = health.data?.checks.filter((c) => !c.ok) ?? [];
  return (
    <div
      className={`health health-${state}`}
      data-testid="health"
      data-state={state}
      role="status"
      aria-live="polite"
    >
      <span className="dot" aria-hidden="true" />
      <span>{label}</span>
      {failing.length > 0 && (
        <span className="health-detail">{failing.map((c) => c.detail ?? c.name).join('; ')}</span>
      )}
      {health.isError && (
        <button type="button" className="link" onClick={() => void health.refetch()}>
          Retry
        </button>
      )}
    </div>
  );
}
