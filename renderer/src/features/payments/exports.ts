import {
  PAYMENT_AUDIT_COLUMNS,
  PAYMENT_COLUMNS,
  type PaymentRow,
} from '../../../../shared/csv/exports/payments';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import { downloadExport } from '../../lib/download';
import type { Formatters } from '../preferences/format';
import { profilePart } from '../refunds/filters';

// Times are written in the person's chosen zone, and the headers name it, as in every other export.

/** Downloads the payments shown, with their refunds as the screen shows them (CSV for machines, Excel for people). */
export function exportPayments(kind: 'csv' | 'xlsx', rows: readonly PaymentRow[], f: Formatters) {
  return downloadExport(kind, {
    area: 'payments',
    profileName: profilePart(rows),
    sheetName: 'Payments',
    columns: PAYMENT_COLUMNS,
    rows,
    zone: f.zone,
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
    zone: f.zone,
    excelDateFormat: f.excelDateFormat,
  });
}
