import type { JsonlFile } from '../../adapters/jsonl-file';

/** One line of the audit log: every refund attempt, refused, rejected and unknown ones included. */
export interface AuditEntry {
  at: string;
  operator: string;
  profileId: string;
  profileName: string;
  environment: string;
  intentId: string;
  transactionNo: string;
  amountMinor: number;
  currency: string;
  reasonCode: string;
  reasonNote: string;
  outcome: 'refused' | 'rejected' | 'accepted' | 'outcome_unknown' | 'succeeded' | 'failed';
  retCode?: string;
  retMsg?: string;
  refundTransactionNo?: string;
  detail?: string;
}

/** Append-only audit log in main; the renderer can read it, never write it. */
export interface AuditLog {
  record(entry: AuditEntry): void;
  list(): AuditEntry[];
}

export function createAuditLog(file: JsonlFile<AuditEntry>): AuditLog {
  const entries = file.readAll().records.map((r) => r.value);
  return {
    record(entry) {
      file.append(entry);
      entries.push(entry);
    },
    list: () => [...entries].reverse(),
  };
}
