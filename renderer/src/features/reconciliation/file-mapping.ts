import type { LedgerFileSummary } from './ledger-protocol';

/** How a read file is written, in words: the workbook's sheet, or the CSV's encoding and separator. */
export function fileFormatWords(file: LedgerFileSummary): string {
  return file.kind === 'xlsx'
    ? `Excel workbook, sheet “${file.sheet ?? ''}”`
    : `${file.encoding.toUpperCase()} · separator “${file.delimiter === '\t' ? 'tab' : file.delimiter}”`;
}

/** A mapping with one field's column set, or left out (''). */
export function withColumn<F extends string, M extends Partial<Record<F, string>>>(
  mapping: M,
  field: F,
  header: string,
): M {
  const next = { ...mapping };
  if (header) (next as Partial<Record<F, string>>)[field] = header;
  else delete next[field];
  return next;
}
