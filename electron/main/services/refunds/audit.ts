/** One entry of the audit log: every refund attempt, refused, rejected and unknown ones included. */
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
