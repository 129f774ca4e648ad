import { AUDIT_EXPORT_COLUMNS, REFUND_EXPORT_COLUMNS } from '../../../../shared/csv/exports/refunds';
import type { AuditEntryView, IntentView } from '../../../../shared/ipc/contract/refunds';
import { downloadExport } from '../../lib/download';
import type { Formatters } from '../preferences/format';
import { profilePart } from './filters';

/** Downloads the refunds shown (CSV for machines, Excel for people), in the chosen zone. */
export function exportRefunds(kind: 'csv' | 'xlsx', rows: readonly IntentView[], f: Formatters) {
  return downloadExport(kind, {
    area: 'refunds',
    profileName: profilePart(rows),
    sheetName: 'Refunds',
    columns: REFUND_EXPORT_COLUMNS,
    rows,
    zone: f.zone,
    excelDateFormat: f.excelDateFormat,
  });
}

/** Downloads the audit entries shown. */
export function exportAudit(kind: 'csv' | 'xlsx', rows: readonly AuditEntryView[], f: Formatters) {
  return downloadExport(kind, {
    area: 'audit',
    profileName: profilePart(rows),
    sheetName: 'Audit log',
    columns: AUDIT_EXPORT_COLUMNS,
    rows,
    zone: f.zone,
    excelDateFormat: f.excelDateFormat,
  });
}
