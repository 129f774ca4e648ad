import {
  PAYMENT_AUDIT_COLUMNS,
  PAYMENT_COLUMNS,
  type PaymentRow,
} from '../../../../shared/csv/exports/payments';
import { UTC_ZONE } from '../../../../shared/domain/zones';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import { downloadExport } from '../../lib/download';
import type { Formatters } from '../preferences/format';
import { profilePart } from '../refunds/filters';

// Times are written in UTC: both column sets carry a constant `timezone` column that says so, which
// scripts reading these files rely on.

/** Downloads the payments shown, with their refunds as the screen shows them (CSV for machines, Excel for people). */
export function exportPayments(kind: 'csv' | 'xlsx', rows: readonly PaymentRow[], f: Formatters) {
  return downloadExport(kind, {
    area: 'payments',
    profileName: profilePart(rows),
    sheetName: 'Payments',
    columns: PAYMENT_COLUMNS,
    rows,
    zone: UTC_ZONE,
    excelDateFormat: f.excelDateFormat,
  });
}

/** Downloads the payments audit entries shown. */
export function exportPaymentAudit(kind: 'csv' | 'xlsx', rows: readonly PaymentAuditEntry[], f: Formatters) {
  return downloadExport(kind, {
    area: 'payments-audit',
    profileName: profilePart(rows),
    sheetName: 'Payments audit',
    columns: PAYMENT_AUDIT_COLUMNS,
    rows,
    zone: UTC_ZONE,
    excelDateFormat: f.excelDateFormat,
  });
}
