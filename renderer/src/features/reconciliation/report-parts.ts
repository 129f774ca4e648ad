/** Plain helpers of the reconciliation screens (kept out of component files for fast refresh). */
import { OUTCOME_LABELS, RECON_OUTCOMES, type ReconOutcome } from '../../../../shared/recon/match';
import type { CurrencySummary } from '../../../../shared/recon/summary';
import type { ListScope } from '../../../../shared/ipc/contract/scope';

/** Likely causes, named where recognisable (the reason sentence says what to do). */
export const CAUSE_LABELS: Readonly<Record<string, string>> = {
  thousands_separator: 'thousands separator without quotes',
  decimal_comma: 'decimal comma in a comma-separated file',
  scientific_id: 'id shortened by Excel',
  broken_quoting: 'broken quoting',
  field_count: 'wrong number of fields',
};

/** Query keys of the team's runs awaiting sign-off (team mode), per profile (its account). */
export const teamRunsKeys = {
  all: ['reconciliation', 'awaiting'] as const,
  list: (profileId: string) => ['reconciliation', 'awaiting', profileId] as const,
};

/** Query keys of the runs lists: one profile's, or every profile's (invalidated when a run ends). */
export const runsKeys = {
  all: ['reconciliation', 'runs'] as const,
  list: (scope: ListScope) =>
    ['reconciliation', 'runs', 'profileId' in scope ? scope.profileId : '*all*'] as const,
};

export interface Part {
  key: string;
  label: string;
  rows?: number;
  amountMinor: number;
}

/** Where a currency's difference comes from: each explaining outcome, then what is left unexplained. */
export function differenceParts(c: CurrencySummary): Part[] {
  const parts: Part[] = RECON_OUTCOMES.filter((o) => (c.explainedByOutcome[o] ?? 0) !== 0).map(
    (o: ReconOutcome) => ({
      key: o,
      label: OUTCOME_LABELS[o],
      rows: c.counts[o],
      amountMinor: c.explainedByOutcome[o] ?? 0,
    }),
  );
  if (c.unexplainedMinor !== 0)
    parts.push({ key: 'unexplained', label: 'Unexplained', amountMinor: c.unexplainedMinor });
  return parts;
}
