/**
 * Column mapping: which ledger column holds what. Stored by header name (not position) so a mapping
 * remembered for a profile still fits next month's export even if a column moves.
 */
import { z } from 'zod';
import { refuseUnsafeText } from '../domain/text';

export const MAPPING_FIELDS = [
  'transactionNo',
  'reference',
  'amount',
  'currency',
  'date',
  'status',
  'refunded',
] as const;
export type MappingField = (typeof MAPPING_FIELDS)[number];

/**
 * A header name as the reader gives it: any character the stored-text rule refuses is already escaped
 * visibly (shared/csv/parser.ts), so a name that still holds one did not come from a file.
 */
const columnName = z.string().max(200).superRefine(refuseUnsafeText('column name')).optional();

/** Field → header name. transactionNo and/or reference, amount and currency are needed. */
export const columnMappingSchema = z
  .object({
    transactionNo: columnName,
    reference: columnName,
    amount: columnName,
    currency: columnName,
    date: columnName,
    status: columnName,
    refunded: columnName,
  })
  .strict();
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

export const FIELD_LABELS: Readonly<Record<MappingField, string>> = {
  transactionNo: 'Transaction number',
  reference: 'Reference (order / invoice no.)',
  amount: 'Amount',
  currency: 'Currency',
  date: 'Date',
  status: 'Status (optional)',
  refunded: 'Refunded amount (optional)',
};

/** Header spellings seen in merchant exports, normalised (lower case, letters and digits only). */
const SYNONYMS: Readonly<Record<MappingField, readonly string[]>> = {
  transactionNo: [
    'transactionno',
    'transactionnumber',
    'transactionid',
    'txnno',
    'txnid',
    'txid',
    'yuansferid',
    'pockytid',
    'paymentid',
    'servicetransactionno',
  ],
  reference: [
    'reference',
    'ref',
    'merchantreference',
    'orderno',
    'ordernumber',
    'orderid',
    'order',
    'invoice',
    'invoiceno',
    'invoicenumber',
  ],
  amount: ['amount', 'total', 'grossamount', 'gross', 'orderamount', 'amountpaid', 'paid', 'value', 'sum'],
  currency: ['currency', 'ccy', 'currencycode', 'cur'],
  date: [
    'date',
    'orderdate',
    'paymentdate',
    'createdat',
    'created',
    'paidat',
    'time',
    'timestamp',
    'datetime',
  ],
  status: ['status', 'state', 'paymentstatus', 'orderstatus'],
  refunded: ['refunded', 'refundedamount', 'refundamount', 'refunds', 'refundtotal'],
};

const norm = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Guesses a mapping from header names: exact synonym first, then a header containing the synonym
 * ("Order Reference" → reference). Each header is used at most once.
 */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const used = new Set<string>();
  const out: ColumnMapping = {};
  const normalised = headers.map((h) => ({ h, n: norm(h) }));
  for (const pass of ['exact', 'contains'] as const) {
    for (const field of MAPPING_FIELDS) {
      if (out[field]) continue;
      for (const syn of SYNONYMS[field]) {
        const hit = normalised.find(
          ({ h, n }) => !used.has(h) && (pass === 'exact' ? n === syn : syn.length > 3 && n.includes(syn)),
        );
        if (hit) {
          out[field] = hit.h;
          used.add(hit.h);
          break;
        }
      }
    }
  }
  return out;
}

/** What is wrong with a mapping for these headers; empty when it can be used. */
export function mappingIssues(mapping: ColumnMapping, headers: readonly string[]): string[] {
  const issues: string[] = [];
  if (!mapping.transactionNo && !mapping.reference)
    issues.push('Choose the column with the transaction number or the reference (or both).');
  if (!mapping.amount) issues.push('Choose the amount column.');
  if (!mapping.currency) issues.push('Choose the currency column.');
  const known = new Set(headers);
  for (const field of MAPPING_FIELDS) {
    const h = mapping[field];
    if (h && !known.has(h)) issues.push(`The file has no column “${h}” (mapped to ${FIELD_LABELS[field]}).`);
  }
  const chosen = MAPPING_FIELDS.map((f) => mapping[f]).filter((h): h is string => Boolean(h));
  if (new Set(chosen).size !== chosen.length) issues.push('Each column can be used for one field only.');
  return issues;
}

/** A mapping that fits the headers: the remembered one when it still fits, else a fresh guess. */
export function chooseMapping(headers: readonly string[], remembered?: ColumnMapping): ColumnMapping {
  if (remembered && mappingIssues(remembered, headers).length === 0) return remembered;
  return guessMapping(headers);
}
