/**
 * Column mapping of a refund batch file: which column holds what. Stored by header name, like the
 * reconciliation mapping (shared/recon/mapping.ts), whose header guess is reused for the columns both
 * files share (transaction number, reference, currency, amount); only what a batch adds is named here.
 */
import { z } from 'zod';
import { refuseUnsafeText } from '../domain/text';
import { guessMapping as guessLedgerMapping } from '../recon/mapping';

export const BATCH_FIELDS = ['transactionNo', 'reference', 'amount', 'currency', 'reason', 'rowRef'] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];

/** A header name as the reader gives it (already escaped visibly, see shared/csv/parser.ts). */
const columnName = z.string().max(200).superRefine(refuseUnsafeText('column name')).optional();

/** Field → header name. transactionNo and/or reference, amount, currency and reason are needed. */
export const batchMappingSchema = z
  .object({
    transactionNo: columnName,
    reference: columnName,
    amount: columnName,
    currency: columnName,
    reason: columnName,
    rowRef: columnName,
  })
  .strict();
export type BatchMapping = z.infer<typeof batchMappingSchema>;

export const BATCH_FIELD_LABELS: Readonly<Record<BatchField, string>> = {
  transactionNo: 'Transaction number',
  reference: 'Merchant reference (order / invoice no.)',
  amount: 'Amount to refund (or “full”)',
  currency: 'Currency',
  reason: 'Reason',
  rowRef: 'Row reference (optional)',
};

const norm = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Headers only a refund list has, tried before the ledger's guess: "Refund amount" is the amount to
 * refund here (a ledger reads it as what was refunded already).
 */
const BATCH_SYNONYMS: Readonly<Partial<Record<BatchField, readonly string[]>>> = {
  amount: ['refundamount', 'amounttorefund', 'refund', 'refundvalue', 'refundtotal'],
  reason: ['reason', 'refundreason', 'reasonnote', 'note', 'notes', 'comment', 'comments', 'memo'],
  rowRef: [
    'rowref',
    'rowreference',
    'lineref',
    'claimid',
    'claimno',
    'claimnumber',
    'ticket',
    'ticketid',
    'caseid',
    'caseno',
    'yourreference',
    'externalid',
  ],
};

/**
 * Guesses a mapping: the batch's own header words first (exact match), then the ledger's guess over the
 * headers left for transaction number, reference, amount and currency. Each header is used once.
 */
export function guessBatchMapping(headers: readonly string[]): BatchMapping {
  const out: BatchMapping = {};
  const used = new Set<string>();
  for (const field of ['amount', 'reason', 'rowRef'] as const)
    for (const syn of BATCH_SYNONYMS[field] ?? []) {
      const hit = headers.find((h) => !used.has(h) && norm(h) === syn);
      if (hit) {
        out[field] = hit;
        used.add(hit);
        break;
      }
    }
  const ledger = guessLedgerMapping(headers.filter((h) => !used.has(h)));
  for (const field of ['transactionNo', 'reference', 'amount', 'currency'] as const)
    if (!out[field] && ledger[field]) out[field] = ledger[field];
  return out;
}

/** What is wrong with a mapping for these headers; empty when it can be used. */
export function batchMappingIssues(mapping: BatchMapping, headers: readonly string[]): string[] {
  const issues: string[] = [];
  if (!mapping.transactionNo && !mapping.reference)
    issues.push('Choose the column with the transaction number or the merchant reference (or both).');
  if (!mapping.amount) issues.push('Choose the amount column (an amount, or the word “full”).');
  if (!mapping.currency) issues.push('Choose the currency column.');
  if (!mapping.reason) issues.push('Choose the reason column: every refund is recorded with its reason.');
  const known = new Set(headers);
  for (const field of BATCH_FIELDS) {
    const h = mapping[field];
    if (h && !known.has(h))
      issues.push(`The file has no column “${h}” (mapped to ${BATCH_FIELD_LABELS[field]}).`);
  }
  const chosen = BATCH_FIELDS.map((f) => mapping[f]).filter((h): h is string => Boolean(h));
  if (new Set(chosen).size !== chosen.length) issues.push('Each column can be used for one field only.');
  return issues;
}

/** Whether a header row maps to a batch as guessed: the sheet of a workbook read when none is named. */
export const fitsBatch = (header: readonly string[]) =>
  batchMappingIssues(guessBatchMapping(header), header).length === 0;
