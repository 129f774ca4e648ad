import { describe, expect, it } from 'vitest';
import type { QueriedTransaction, QueryKey } from '../../../electron/core/services/gateway/client';
import { createTransactionLookup } from '../../../electron/core/services/transactions/lookup';
import { describeShape } from '../../../renderer/src/features/transactions/id-kind';
import { AppError } from '../../../shared/domain/errors';
import { classifyId, type IdShape } from '../../../shared/domain/id-kind';
import { transactionsLookup } from '../../../shared/ipc/contract/transactions';
import { createFakeClock } from '../../fakes/clock';

/**
 * The one table of what typed text is as an id. Every place that classifies typed ids reads it through
 * `classifyId`: the table is checked against the classifier itself, the search box's words, main's IPC
 * contract and main's look-up (which keys it asks the service for, in order).
 */
const TABLE: ReadonlyArray<[typed: string, shape: IdShape['shape'], text?: string]> = [
  ['297553638300708562', 'service-number', '297553638300708562'],
  ['  297553638300708562 ', 'service-number', '297553638300708562'],
  // Grouped as on statements and e-mails, with ordinary and no-break spaces.
  ['4066 0296 6802 8308 59', 'service-number', '406602966802830859'],
  ['4066\u00a00296\u00a06802\u00a08308\u00a059', 'service-number', '406602966802830859'],
  ['1'.repeat(32), 'service-number', '1'.repeat(32)],
  // Shorter or longer digit strings are merchant references (merchants do use numeric ones)…
  ['12345', 'reference', '12345'],
  ['123456789012', 'reference', '123456789012'],
  ['40660296680283085', 'reference', '40660296680283085'],
  ['1'.repeat(33), 'reference', '1'.repeat(33)],
  // …but grouped digits are meant as a number: one missing is said, not looked up as something else.
  ['4066 0296 6802 8308 5', 'invalid'],
  ['4066 0296 6802 8308 591', 'service-number', '4066029668028308591'],
  // This desk's refund reference, as sent (upper case) and as typed in lower case.
  ['RD0MWX5ABC01XYZ9Q', 'refund-reference', 'RD0MWX5ABC01XYZ9Q'],
  ['rd0mwx5abc01xyz9q', 'refund-reference', 'RD0MWX5ABC01XYZ9Q'],
  [' Rd0mwx5Abc01xyz9q ', 'refund-reference', 'RD0MWX5ABC01XYZ9Q'],
  // Not quite this desk's shape: a merchant reference, kept exactly as typed.
  ['rd0mwx5abc01xyz9', 'reference', 'rd0mwx5abc01xyz9'],
  ['INV-20250101-000001', 'reference', 'INV-20250101-000001'],
  ['RF-0101-1', 'reference', 'RF-0101-1'],
  ['PAY0MWX5ABC01XYZ9', 'reference', 'PAY0MWX5ABC01XYZ9'],
  ['', 'empty'],
  ['   ', 'empty'],
  ['has space', 'invalid'],
  ['x'.repeat(65), 'invalid'],
  ['Zahlung-Ä', 'invalid'],
];

/** Main's look-up with a service that knows nothing: which keys it asked, or what it refused. */
async function mainAsks(typed: string): Promise<string[] | AppError> {
  const calls: string[] = [];
  const lookup = createTransactionLookup({
    gateway: async () => ({
      profileId: 'P1',
      client: {
        queryTransaction: async (key: QueryKey): Promise<QueriedTransaction> => {
          const [k, v] = Object.entries(key)[0] as [string, string];
          calls.push(`${k}:${v}`);
          throw new AppError('not_found', 'no record');
        },
      },
    }),
    clock: createFakeClock(),
  });
  try {
    await lookup.lookup('P1', typed);
  } catch (e) {
    if (e instanceof AppError && e.code === 'invalid_input') return e;
    if (!(e instanceof AppError) || e.code !== 'not_found') throw e;
  }
  return calls;
}

describe('classifyId: the one rule for typed ids', () => {
  it.each(TABLE)('%j is %s', (typed, shape, text) => {
    const id = classifyId(typed);
    expect(id.shape).toBe(shape);
    if (text !== undefined) expect(id).toMatchObject({ text });
    if (id.shape === 'invalid') expect(id.reason).toMatch(/\.$/);
  });

  it.each(TABLE)('the search box words %j without contradicting it', (typed, shape) => {
    const words = describeShape(classifyId(typed));
    expect(words.length).toBeGreaterThan(0);
    if (shape === 'service-number') expect(words).toContain('transaction or refund number');
    if (shape === 'reference') expect(words).toContain('merchant reference');
    if (shape === 'refund-reference') expect(words).toContain('refund reference');
  });

  it.each(TABLE)('main’s IPC contract takes %j only when it can be an id', (typed, shape) => {
    const r = transactionsLookup.input.safeParse({ profileId: 'P1', query: typed });
    expect(r.success).toBe(shape !== 'invalid' && shape !== 'empty');
  });

  it.each(TABLE)('main’s look-up asks the service about %j by the same rule', async (typed, shape, text) => {
    const asked = await mainAsks(typed);
    if (shape === 'invalid' || shape === 'empty') {
      expect(asked).toBeInstanceOf(AppError);
      if (shape === 'invalid')
        expect((asked as AppError).message).toBe((classifyId(typed) as { reason: string }).reason);
      return;
    }
    expect(asked).toEqual(
      shape === 'service-number'
        ? [`transactionNo:${text}`, `refundTransactionNo:${text}`, `reference:${text}`]
        : [`reference:${text}`],
    );
  });
});
