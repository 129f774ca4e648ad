/** The navigation areas of the shell. Later work fills each one in. */
export const AREAS = [
  {
    id: 'transactions',
    label: 'Transactions',
    shortcut: '1',
    coming:
      'Look up payments by transaction number or reference, browse what you have fetched, and work offline.',
  },
  {
    id: 'refunds',
    label: 'Refunds',
    shortcut: '2',
    coming: 'Every refund this desk has sent, followed to its final status.',
  },
  {
    id: 'reconciliation',
    label: 'Reconciliation',
    shortcut: '3',
    coming: 'Import your ledger CSV and match it against the payment service.',
  },
  {
    id: 'payments',
    label: 'Payments',
    shortcut: '4',
    coming:
      'Payment links, whitelabel and card payments, customers and their stored methods, with an audit log.',
  },
  {
    id: 'audit',
    label: 'Audit',
    shortcut: '5',
    coming: 'A read-only record of every refund attempt, exportable to CSV.',
  },
  {
    id: 'settings',
    label: 'Settings',
    shortcut: '6',
    coming: 'Merchant profiles, credentials and guardrails.',
  },
] as const;

export type AreaId = (typeof AREAS)[number]['id'];
