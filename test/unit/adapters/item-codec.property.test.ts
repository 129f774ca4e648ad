/**
 * Report items as stored since schema v10 (electron/core/adapters/sqlite/item-codec.ts): whatever is
 * written reads back exactly, the compact form is used only where the service side is the one the
 * transaction gives, and items stored before v10 (plain JSON) read as they always did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeItem, encodeItem } from '../../../electron/core/adapters/sqlite/item-codec';
import { RECON_OUTCOMES, serviceView, type ReconItem, type ServiceSource } from '../../../shared/recon/match';
import { text, transactionArb } from '../recon/arbitraries';

const source = fc.constantFrom<ServiceSource>('lookup', 'list', 'cache');

/** An item with a transaction and a service side: made of it (as the engine does), or not. */
const itemArb: fc.Arbitrary<{ item: ReconItem; derived: boolean }> = fc
  .record({
    line: fc.option(fc.integer({ min: 2, max: 1e6 }), { nil: undefined }),
    outcome: fc.constantFrom(...RECON_OUTCOMES),
    transaction: fc.option(transactionArb, { nil: undefined }),
    source,
    fetchedAt: fc.oneof(fc.constant('2025-07-02T00:00:00.000Z'), text),
    service: fc.constantFrom('made', 'changed', 'absent', 'other source'),
    detail: text,
    dayOffset: fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
  })
  .map((r) => {
    const item: ReconItem = { outcome: r.outcome, detail: r.detail, deltas: [] };
    if (r.line !== undefined) item.line = r.line;
    if (r.transaction) item.transaction = r.transaction;
    if (r.dayOffset !== undefined) item.dayOffset = r.dayOffset;
    const base = r.transaction ?? {
      transactionNo: '1',
      amountMinor: 5,
      currency: 'USD' as const,
      status: 'success' as const,
      transactionType: 'payment' as const,
      refunds: [],
    };
    const view = serviceView(base, r.source, r.fetchedAt);
    if (r.service === 'made') item.service = view;
    if (r.service === 'changed') item.service = { ...view, amountMinor: view.amountMinor + 1 };
    if (r.service === 'other source') item.service = { ...view, source: 'elsewhere' as ServiceSource };
    return { item, derived: r.service === 'made' && r.transaction !== undefined };
  });

describe('report items as stored', () => {
  it('read back exactly as written; compact only where the service side is the transaction’s', () => {
    fc.assert(
      fc.property(itemArb, ({ item, derived }) => {
        const stored = encodeItem(item);
        expect(decodeItem(stored)).toStrictEqual(item);
        expect(stored.startsWith('S')).toBe(derived && !item.service!.fetchedAt.includes('\t'));
      }),
      { numRuns: 3000 },
    );
  });

  it('an item stored before v10 (its plain JSON) reads as it always did', () => {
    fc.assert(
      fc.property(itemArb, ({ item }) => {
        expect(decodeItem(JSON.stringify(item))).toStrictEqual(item);
      }),
      { numRuns: 1000 },
    );
  });
});
