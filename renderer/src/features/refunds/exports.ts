import { AUDIT_EXPORT_COLUMNS, REFUND_RECORD_COLUMNS } from '../../../../shared/csv/exports/refunds';
import type { RefundRecordRow } from '../../../../shared/domain/refund-record';
import type { AuditEntryView } from '../../../../shared/ipc/contract/refunds';
import { downloadExport } from '../../lib/download';
import type { Formatters } from '../preferences/format';
import { profilePart } from './filters';

/** Downloads the refund record shown (CSV for machines, Excel for people), in the chosen zone. */
export function exportRecord(
  kind: 'csv' | 'xlsx',
  rows: readonly RefundRecordRow[],
  profileName: string,
  f: Formatters,
) {
  return downloadExport(kind, {
    area: 'refunds',
    profileName,
    sheetName: 'Refunds',
    columns: REFUND_RECORD_COLUMNS,
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
