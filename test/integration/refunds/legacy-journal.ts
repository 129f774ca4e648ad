import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MERCHANT } from '../../../electron/sandbox/index';

/**
 * `refund-journal.jsonl` as versions before the database wrote it: one checksummed line per event,
 * `{"c":"<sha256(d), 16 hex>","d":<event>}` (git d3cc16c, electron/main/adapters/jsonl-file.ts).
 */
export const journalLine = (value: unknown): string => {
  const d = JSON.stringify(value);
  return `{"c":"${createHash('sha256').update(d).digest('hex').slice(0, 16)}","d":${d}}`;
};

/** An old intent draft of the demo merchant (earlier versions kept any string as a currency). */
export const legacyDraft = (
  id: string,
  transactionNo: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> => ({
  id,
  profileId: `cli:${DEMO_MERCHANT.merchantNo}:${DEMO_MERCHANT.storeNo}`,
  profileName: 'CLI',
  environment: 'custom',
  merchantNo: DEMO_MERCHANT.merchantNo,
  storeNo: DEMO_MERCHANT.storeNo,
  transactionNo,
  amountMinor: 1000,
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'other',
  reasonNote: 'old desk',
  operator: 'Ana',
  createdAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

/** The lines of a refund the old desk sent and never heard back about (the process stopped). */
export const sentUnanswered = (draft: Record<string, unknown>, at = '2026-11-01T10:00:01.000Z') => [
  journalLine({ type: 'created', at, intent: draft }),
  journalLine({ type: 'sent', at, id: draft['id'], intent: draft }),
];

/** The lines of a refund the service accepted (not final yet). */
export const acceptedRefund = (
  draft: Record<string, unknown>,
  refundTransactionNo: string,
  at = '2026-11-01T10:00:01.000Z',
) => [
  ...sentUnanswered(draft, at),
  journalLine({
    type: 'accepted',
    at,
    id: draft['id'],
    refundTransactionNo,
    refundStatus: 'pending',
    via: 'response',
  }),
];

export function writeJournal(dataDir: string, lines: readonly string[]): void {
  writeFileSync(join(dataDir, 'refund-journal.jsonl'), lines.join('\n') + '\n');
}
