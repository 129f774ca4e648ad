import type { Output } from '../../../../shared/ipc/contract';

export type AuditEntry = Output<'audit.list'>[number];

export interface AuditFilters {
  outcome: AuditEntry['outcome'] | 'all';
  currency: string | 'all';
  text: string;
}

const norm = (s: string) => s.trim().toLowerCase();

function matchesText(needle: string, haystack: ReadonlyArray<string | undefined>): boolean {
  const n = norm(needle);
  return n === '' || haystack.some((h) => h !== undefined && h.toLowerCase().includes(n));
}

/** Audit entries matching the Audit view's filters, newest first. */
export function filterAudit(entries: readonly AuditEntry[], f: AuditFilters): AuditEntry[] {
  return entries
    .filter(
      (e) =>
        (f.outcome === 'all' || e.outcome === f.outcome) &&
        (f.currency === 'all' || e.currency === f.currency),
    )
    .filter((e) =>
      matchesText(f.text, [
        e.intentId,
        e.transactionNo,
        e.refundTransactionNo,
        e.operator,
        e.profileName,
        e.retCode,
        e.retMsg,
      ]),
    )
    .sort((a, b) => b.at.localeCompare(a.at));
}

/** The distinct currencies in a list, sorted, for the currency filter. */
export function currenciesOf(rows: ReadonlyArray<{ currency: string }>): string[] {
  return [...new Set(rows.map((r) => r.currency))].sort();
}

/**
 * The profile part of a refunds/audit export's file name: these lists span every profile this desk has
 * used, so the name says so unless every row is one profile's.
 */
export function profilePart(rows: ReadonlyArray<{ profileName: string }>): string {
  const names = new Set(rows.map((r) => r.profileName));
  const only = [...names][0];
  return names.size === 1 && only ? only : 'all-profiles';
}
