/**
 * isServiceViewOf (shared/recon/match.ts) tells whether a service side is the view serviceView makes of
 * a transaction, without making it (the item codec asks it for every item it stores): its answer must
 * be exactly that of comparing with the view made again — own properties, values, nothing more or less.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/domain/transaction';
import {
  isServiceViewOf,
  serviceView,
  type ServiceSource,
  type ServiceView,
} from '../../../shared/recon/match';
import { text, transactionArb } from './arbitraries';

/** The plain comparison (the item codec's before): the same keys, each with the same value. */
function sameAsMade(view: ServiceView, tx: Transaction): boolean {
  const made = serviceView(tx, view.source, view.fetchedAt) as unknown as Record<string, unknown>;
  const v = view as unknown as Record<string, unknown>;
  let n = 0;
  for (const k in made) {
    if (made[k] !== v[k]) return false;
    n += 1;
  }
  for (const _ in v) n -= 1;
  return n === 0;
}

const KEYS = [
  'transactionNo',
  'reference',
  'amountMinor',
  'currency',
  'status',
  'refundedMinor',
  'createdAt',
  'paidAt',
  'source',
  'fetchedAt',
] as const;

/** A change to a view: a property set to another value, to undefined, removed, or one added. */
const changeArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constantFrom('set' as const, 'undefined' as const, 'delete' as const),
    key: fc.constantFrom(...KEYS),
    value: fc.oneof(text, fc.integer({ min: -3, max: 3 })),
  }),
  fc.record({ kind: fc.constant('extra' as const), key: fc.constantFrom('outcome', 'x', 'ledger') }),
);

describe('isServiceViewOf', () => {
  it('answers as comparing with the view made again (property)', () => {
    fc.assert(
      fc.property(
        transactionArb,
        // Another transaction's view now and then: every field may differ at once.
        fc.option(transactionArb, { nil: undefined }),
        fc.constantFrom<ServiceSource>('lookup', 'list', 'cache'),
        fc.oneof(fc.constant('2025-07-02T00:00:00.000Z'), text),
        changeArb,
        (tx, other, source, fetchedAt, change) => {
          const view = { ...serviceView(other ?? tx, source, fetchedAt) } as Record<string, unknown>;
          if (change.kind === 'set') view[change.key] = change.value;
          if (change.kind === 'undefined') view[change.key] = undefined;
          if (change.kind === 'delete') delete view[change.key];
          if (change.kind === 'extra') view[change.key] = 1;
          const v = view as unknown as ServiceView;
          expect(isServiceViewOf(v, tx)).toBe(sameAsMade(v, tx));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('tells the usual view and each single difference from it', () => {
    const tx: Transaction = {
      transactionNo: '297',
      reference: 'SO-1',
      amountMinor: 500,
      currency: 'USD',
      status: 'success',
      transactionType: 'payment',
      createdAt: '2025-06-02T01:00:00.000Z',
      paidAt: '2025-06-02T01:00:05.000Z',
      refunds: [
        { refundTransactionNo: 'r1', refundAmountMinor: 100, currency: 'USD', status: 'success' },
        { refundTransactionNo: 'r2', refundAmountMinor: 7, currency: 'EUR', status: 'success' },
        { refundTransactionNo: 'r3', refundAmountMinor: 9, currency: 'USD', status: 'failed' },
      ],
    };
    const view = serviceView(tx, 'list', '2025-07-02T00:00:00.000Z');
    expect(view.refundedMinor).toBe(100);
    expect(isServiceViewOf(view, tx)).toBe(true);
    expect(isServiceViewOf({ ...view, refundedMinor: 107 }, tx)).toBe(false);
    expect(isServiceViewOf({ ...view, reference: undefined }, tx)).toBe(false);
    const { paidAt: _paid, ...withoutPaid } = view;
    expect(isServiceViewOf(withoutPaid, tx)).toBe(false);
    expect(isServiceViewOf({ ...view, extra: 1 } as ServiceView, tx)).toBe(false);
    // A view with a key the transaction leaves out (empty reference: serviceView keeps none).
    const bare: Transaction = { ...tx, reference: '' };
    expect(isServiceViewOf(serviceView(bare, 'list', 'f'), bare)).toBe(true);
    expect(isServiceViewOf({ ...serviceView(bare, 'list', 'f'), reference: '' }, bare)).toBe(false);
  });
});
