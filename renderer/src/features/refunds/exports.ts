/** Renderer side of the refunds/audit exports: the column sets are shared with `cli export`. */
export { AUDIT_COLUMNS, auditCsv, REFUND_COLUMNS, refundsCsv } from '../../../../shared/csv/exports/refunds';

/** A file name that sorts by date and never contains characters Windows refuses ("audit-2024-06-01T10-20-30Z.csv"). */
export function exportFileName(kind: 'audit' | 'refunds', now: Date): string {
  return `${kind}-${now.toISOString().slice(0, 19).replace(/:/g, '-')}Z.csv`;
}
