import { useQuery } from '@tanstack/react-query';
import { unwrap, useBridge } from '../../lib/bridge';
import type { ReconOptions } from '../../../../shared/recon/period';
import { runsKeys } from './report-parts';

/**
 * "Carry forward the open exceptions of …": an earlier ended run of this profile whose period ends
 * before this one starts (main checks the same, and the account). Its outstanding exceptions are
 * re-checked in the new run, which shows which cleared and why.
 */
export function CarryForwardChoice({
  profileId,
  options,
  value,
  onChange,
}: {
  profileId: string;
  options: ReconOptions;
  value: string;
  onChange: (runId: string) => void;
}) {
  const bridge = useBridge();
  const scope = { profileId };
  const runs = useQuery({
    queryKey: runsKeys.list(scope),
    queryFn: () => unwrap(bridge['reconciliation.list'](scope)),
  });
  const from = options.period?.from;
  const earlier = (runs.data?.runs ?? []).filter(
    (r) =>
      r.progress.phase === 'done' &&
      (!from || !r.options.period || r.options.period.to < from) &&
      (r.counts ? Object.entries(r.counts).some(([o, n]) => o !== 'matched' && n > 0) : false),
  );
  if (earlier.length === 0) return null;
  const chosen = earlier.some((r) => r.runId === value) ? value : '';
  return (
    <fieldset className="recon-fieldset" data-testid="recon-carry">
      <legend>Carry forward</legend>
      <label>
        <span>Open exceptions of an earlier run</span>
        <select
          aria-label="Carry forward open exceptions from"
          value={chosen}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">None</option>
          {earlier.map((r) => (
            <option key={r.runId} value={r.runId}>
              {r.label}
              {r.options.period ? ` · ${r.options.period.from} to ${r.options.period.to}` : ''} · {r.runId}
            </option>
          ))}
        </select>
        <small className="muted">
          They are checked again against the service and this ledger; the report shows which cleared and why.
        </small>
      </label>
    </fieldset>
  );
}
