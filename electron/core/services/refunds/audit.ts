/** One entry of the audit log: every refund attempt, refused, rejected and unknown ones included. */
export type { AuditEntry } from '../../../../shared/domain/refund-intent';
