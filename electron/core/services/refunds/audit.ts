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
  outcome:
    | 'refused'
    | 'rejected'
    | 'accepted'
    | 'outcome_unknown'
    | 'succeeded'
    | 'failed'
    /** A person closed an unknown refund the service never listed, after the required checks. */
    | 'closed_not_sent';
  retCode?: string;
  retMsg?: string;
  refundTransactionNo?: string;
  detail?: string;
}
