import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type AppStorage, openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { classifyBatch } from '../../../electron/core/services/batch/classify';
import type { IntentState } from '../../../electron/core/services/refunds/intent';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { rowKey } from '../../../shared/batch/row-key';
import type { BatchRow } from '../../../shared/batch/rows';
import type { Currency } from '../../../shared/domain/currencies';
import { createFakeLogger } from '../../fakes/logger';
import { ACCOUNT, digest, tx } from './fixtures';

/**
 * Issue 27 item 5: a row a batch refunded is recognised when the same file is opened again — from the
 * refund intent it created (its `data.batch.rowKey`, read back by the batch store on a real SQLite file)
 * — and a row edited since (payment, amount, currency, row reference, or without one its reason) is a
 * new row. A refund that moved no money (rejected, failed) does not make its row done.
 */

const TX = ['297553638300000101', '297553638300000102', '297553638300000103'];
const refOf = (no: string) => `SO-${no.slice(-3)}`;
const PAYMENTS = new Map(
  TX.flatMap((no) => {
    const found = { kind: 'found' as const, transaction: tx(no, 100_000, { reference: refOf(no) }) };
    return [[`tx:${no}`, found] as const, [`ref:${refOf(no)}`, found] as const];
  }),
);

const rowArb: fc.Arbitrary<BatchRow> = fc.record(
  {
    line: fc.constant(2),
    transactionNo: fc.constantFrom(...TX),
    amount: fc.oneof(
      fc.constant('full' as const),
      fc.integer({ min: 1, max: 5_000 }).map((minor) => ({ minor })),
    ),
    currency: fc.constant('USD' as Currency),
    reason: fc.constantFrom('recall', 'price correction', 'never shipped'),
    rowRef: fc.option(fc.stringMatching(/^[A-Z]-[0-9]{1,4}$/), { nil: undefined }),
  },
  { requiredKeys: ['line', 'transactionNo', 'amount', 'currency', 'reason'] },
);

/** An edit that makes another row (another key), and one the key does not see. */
type Edit = (r: BatchRow) => BatchRow;
const EDITS_THAT_MATTER: Record<string, Edit> = {
  payment: (r) => ({ ...r, transactionNo: TX[(TX.indexOf(r.transactionNo!) + 1) % TX.length]! }),
  amount: (r) => ({ ...r, amount: r.amount === 'full' ? { minor: 1 } : { minor: r.amount.minor + 1 } }),
  currency: (r) => ({ ...r, currency: 'EUR' }),
  'row reference': (r) => ({ ...r, rowRef: `${r.rowRef ?? ''}X` }),
  'reason (no row reference)': (r) => ({ ...r, rowRef: undefined, reason: `${r.reason}!` }),
};

let storage: AppStorage;
let seq = 0;
/** A fresh database per case: what one case refunded says nothing about the next. */
const fresh = () => {
  storage?.close();
  storage = openAppStorage({
    dataDir: mkdtempSync(join(tmpdir(), 'rd-rowkey-')),
    now: Date.now,
    log: createFakeLogger(),
  });
};
afterAll(() => storage.close());

/** Records a refund of `row` made by batch `batchId`, in `state`, as the refund service would. */
async function refunded(row: BatchRow, batchId: string, state: IntentState): Promise<string> {
  const refunds = refundStoreOn(storage.intents);
  const key = rowKey(ACCOUNT, row, row.transactionNo!, digest);
  seq += 1;
  const id = `RDKEY${String(seq).padStart(6, '0')}`;
  const at = new Date().toISOString();
  const account = { ...ACCOUNT, environment: 'custom' as const };
  await refunds.decide({ account, transactionNo: row.transactionNo!, currency: 'USD' }, (t) =>
    t.insertSending(
      {
        ...ACCOUNT,
        id,
        profileId: 'p1',
        profileName: 'Shop',
        environment: 'custom',
        transactionNo: row.transactionNo!,
        amountMinor: row.amount === 'full' ? 100_000 : row.amount.minor,
        currency: 'USD',
        settleCurrency: 'USD',
        reasonCode: 'other',
        reasonNote: row.reason,
        operator: 'clerk',
        createdAt: at,
        batch: { id: batchId, line: row.line, rowKey: key },
      },
      { holder: 'test:1', ms: 60_000 },
      at,
    ),
  );
  const to = state === 'sending' ? undefined : state;
  if (to) await refunds.transition(id, ['sending'], to, {}, { at, type: to });
  return id;
}

/** The dry run's class of `row` against what the batch store says is done. */
async function classOf(row: BatchRow) {
  const done = new Map(
    [...(await storage.batches!.doneKeys(ACCOUNT))].map(([k, v]) => [k, v.batchId] as const),
  );
  const r = classifyBatch({
    account: ACCOUNT,
    rows: [row],
    unusable: [],
    payments: PAYMENTS,
    intents: new Map(),
    done,
    digest,
  });
  return r.rows[0]!;
}

describe('row keys: the same row is recognised, an edited row is new', () => {
  it('a row refunded by a batch is recognised from its intent; every edit that matters makes a new row', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowArb,
        fc.constantFrom<IntentState>('sending', 'outcome_unknown', 'accepted', 'succeeded'),
        async (row, state) => {
          fresh();
          const before = await classOf(row);
          expect(before.class).toBe('will_refund');
          const id = await refunded(row, `RB${seq}`, state);
          const again = await classOf(row);
          expect(again.class).toBe('already_refunded');
          expect(again.key).toBe(before.key);
          // Opened by merchant reference instead of number, or with another line: the same row.
          const { transactionNo, ...byRef } = row;
          expect((await classOf({ ...byRef, reference: refOf(transactionNo!), line: 9 })).class).toBe(
            'already_refunded',
          );
          for (const [what, edit] of Object.entries(EDITS_THAT_MATTER)) {
            const edited = edit(row);
            expect(rowKey(ACCOUNT, edited, edited.transactionNo!, digest), what).not.toBe(again.key);
            expect((await classOf(edited)).class, `edited ${what} is a new row`).not.toBe('already_refunded');
          }
          // With a row reference, the reason is the sender's words, not the row's identity.
          if (row.rowRef !== undefined)
            expect((await classOf({ ...row, reason: `${row.reason} (edited)` })).class).toBe(
              'already_refunded',
            );
          // An open refund blocks its payment's next one (one open per payment): settled as accepted,
          // it still counts as done.
          if (state === 'sending' || state === 'outcome_unknown') {
            await refundStoreOn(storage.intents).transition(
              id,
              [state],
              'accepted',
              {},
              { at: new Date().toISOString(), type: 'accepted' },
            );
            expect((await classOf(row)).class).toBe('already_refunded');
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a refund that moved no money (rejected, failed) does not make its row done', async () => {
    fresh();
    for (const state of ['rejected', 'failed'] as const) {
      const row: BatchRow = {
        line: 4,
        transactionNo: TX[2]!,
        amount: { minor: 7_777 },
        currency: 'USD',
        reason: 'recall',
        rowRef: `NOT-${state}`,
      };
      await refunded(row, 'RBFAILED', state === 'failed' ? 'accepted' : state);
      if (state === 'failed') {
        const id = `RDKEY${String(seq).padStart(6, '0')}`;
        await refundStoreOn(storage.intents).transition(
          id,
          ['accepted'],
          'failed',
          {},
          { at: 'x', type: 'settled' },
        );
      }
      expect((await classOf(row)).class, state).toBe('will_refund');
    }
  });
});
