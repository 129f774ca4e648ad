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

/**
 * Header spellings seen in merchant exports and accounting systems, in English, German, French, Spanish
 * and Chinese (simplified and traditional), written as they appear: each is normalised once (see norm).
 * Listed most specific first within a field; a field takes the first spelling any header matches.
 */
const SPELLINGS: Readonly<Record<MappingField, readonly string[]>> = {
  transactionNo: [
    'Transaction No',
    'Transaction Number',
    'Transaction ID',
    'Txn No',
    'Txn ID',
    'TxID',
    'Yuansfer ID',
    'Pockyt ID',
    'Payment ID',
    'Service Transaction No',
    // German
    'Transaktions-Nr',
    'Transaktionsnummer',
    'Transaktions-ID',
    'Zahlungs-ID',
    // French
    'N° de transaction',
    'Numéro de transaction',
    'ID de transaction',
    'Identifiant de transaction',
    'Référence de transaction',
    // Spanish
    'N.º de transacción',
    'Número de transacción',
    'ID de transacción',
    'Nº transacción',
    // Chinese
    '交易号',
    '交易單號',
    '交易单号',
    '交易流水号',
    '支付单号',
    '支付流水号',
    '流水号',
    '交易編號',
    '交易编号',
    '支付宝交易号',
    '微信支付单号',
  ],
  reference: [
    'Reference',
    'Ref',
    'Merchant Reference',
    'Order No',
    'Order Number',
    'Order ID',
    'Order',
    'Invoice',
    'Invoice No',
    'Invoice Number',
    // German
    'Referenz',
    'Bestellnummer',
    'Bestell-Nr',
    'Auftragsnummer',
    'Rechnungsnummer',
    'Rechnungs-Nr',
    'Belegnummer',
    'Beleg-Nr',
    'Belegfeld 1',
    // French
    'Référence',
    'N° de commande',
    'Numéro de commande',
    'Commande',
    'N° de facture',
    'Numéro de facture',
    'Facture',
    // Spanish
    'Referencia',
    'N.º de pedido',
    'Número de pedido',
    'Pedido',
    'N.º de factura',
    'Número de factura',
    'Factura',
    // Chinese
    '商户订单号',
    '訂單號',
    '订单号',
    '订单编号',
    '參考號',
    '参考号',
    '发票号',
  ],
  amount: [
    'Amount',
    'Total',
    'Gross Amount',
    'Gross',
    'Order Amount',
    'Amount Paid',
    'Paid',
    'Value',
    'Sum',
    // German
    'Betrag',
    'Bruttobetrag',
    'Gesamtbetrag',
    'Summe',
    'Umsatz',
    // French
    'Montant',
    'Montant brut',
    'Montant TTC',
    'Total TTC',
    // Spanish
    'Importe',
    'Monto',
    'Importe bruto',
    'Importe total',
    'Valor',
    // Chinese
    '金额',
    '金額',
    '交易金额',
    '订单金额',
    '总金额',
    '实收金额',
  ],
  currency: [
    'Currency',
    'Ccy',
    'Currency Code',
    'Cur',
    // German (WKZ: DATEV's Währungskennzeichen)
    'Währung',
    'Währungscode',
    'WKZ',
    // French
    'Devise',
    'Monnaie',
    'Code devise',
    // Spanish
    'Moneda',
    'Divisa',
    // Chinese
    '币种',
    '幣種',
    '货币',
    '貨幣',
    '币别',
  ],
  date: [
    'Date',
    'Order Date',
    'Payment Date',
    'Created At',
    'Created',
    'Paid At',
    'Time',
    'Timestamp',
    'Datetime',
    // German
    'Datum',
    'Buchungsdatum',
    'Belegdatum',
    'Zahlungsdatum',
    'Bestelldatum',
    'Rechnungsdatum',
    'Valutadatum',
    'Wertstellung',
    // French
    'Date de transaction',
    'Date de paiement',
    'Date de commande',
    "Date d'opération",
    'Date comptable',
    // Spanish
    'Fecha',
    'Fecha de transacción',
    'Fecha de pago',
    'Fecha de pedido',
    'Fecha de operación',
    'Fecha valor',
    // Chinese
    '日期',
    '交易日期',
    '交易时间',
    '交易時間',
    '支付时间',
    '付款时间',
    '下单时间',
    '创建时间',
  ],
  status: [
    'Status',
    'State',
    'Payment Status',
    'Order Status',
    // German
    'Zahlungsstatus',
    'Bestellstatus',
    // French
    'Statut',
    'État',
    // Spanish
    'Estado',
    'Estatus',
    // Chinese
    '状态',
    '狀態',
    '交易状态',
    '订单状态',
    '支付状态',
  ],
  refunded: [
    'Refunded',
    'Refunded Amount',
    'Refund Amount',
    'Refunds',
    'Refund Total',
    // German
    'Erstattet',
    'Erstattungsbetrag',
    'Rückerstattung',
    'Rückerstattungsbetrag',
    // French
    'Remboursé',
    'Montant remboursé',
    'Remboursement',
    // Spanish
    'Reembolsado',
    'Importe reembolsado',
    'Monto reembolsado',
    'Reembolso',
    'Devolución',
    // Chinese
    '退款金额',
    '退款金額',
    '已退款',
    '已退款金额',
    '退款',
  ],
};

/**
 * A header name for comparing: compatibility forms folded (full-width letters, º → o), accents dropped,
 * lower case, letters and digits of any script only — "Währung" → "wahrung", "N.º de transacción" →
 * "nodetransaccion", "金额（元）" → "金额元".
 */
export const norm = (h: string) =>
  h
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

const SYNONYMS: Readonly<Record<MappingField, readonly string[]>> = Object.fromEntries(
  MAPPING_FIELDS.map((f) => [f, [...new Set(SPELLINGS[f].map(norm))]]),
) as unknown as Record<MappingField, readonly string[]>;

/**
 * Whether a synonym is long enough to be looked for inside a longer header ("Order Reference" →
 * reference): four letters of a Latin script, two characters of Chinese (where a word is two).
 */
const containable = (syn: string) => syn.length > 3 || (syn.length >= 2 && /^\p{Script=Han}+$/u.test(syn));

/**
 * Whether a header names another field more precisely than `syn` says it is this one: "Refund Amount"
 * holds "amount" but is the refunded column's "refundamount"; "退款金额" holds "金额" but is "退款金额".
 */
function betterFor(field: MappingField, syn: string, n: string): boolean {
  return MAPPING_FIELDS.some(
    (other) =>
      other !== field &&
      SYNONYMS[other].some((t) => t.length > syn.length && t.includes(syn) && n.includes(t)),
  );
}

/**
 * Guesses a mapping from header names: exact synonym first, then a header containing the synonym
 * ("Order Reference" → reference, "订单总金额(元)" → amount) unless it names another field more precisely.
 * Each header is used at most once.
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
          ({ h, n }) =>
            !used.has(h) &&
            (pass === 'exact' ? n === syn : containable(syn) && n.includes(syn) && !betterFor(field, syn, n)),
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

/**
 * Columns of the file a mapping leaves out although they look like a field it has no column for —
 * what a remembered mapping hides when it still fits the next file (a transaction number column
 * unmapped for a file whose ids Excel had shortened stays unmapped for every later file). Each with the
 * field it looks like.
 */
export function omittedColumns(
  mapping: ColumnMapping,
  headers: readonly string[],
): Array<{ field: MappingField; header: string }> {
  const taken = new Set(MAPPING_FIELDS.map((f) => mapping[f]).filter(Boolean));
  const free = headers.filter((h) => !taken.has(h));
  const guess = guessMapping(free);
  return MAPPING_FIELDS.flatMap((field) => {
    const header = guess[field];
    return !mapping[field] && header ? [{ field, header }] : [];
  });
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
