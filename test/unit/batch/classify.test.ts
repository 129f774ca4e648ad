import { describe, expect, it } from 'vitest';
import {
  classifyBatch,
  type ClassifyInput,
  type PaymentAnswer,
} from '../../../electron/core/services/batch/classify';
import { rowKey } from '../../../shared/batch/row-key';
import type { Transaction } from '../../../shared/domain/transaction';
import { ACCOUNT, digest, intent, row, tx } from './fixtures';

const A = '297553638300000001';
const B = '297553638300000002';

function run(
  rows: ClassifyInput['rows'],
  txs: Transaction[],
  extra: Partial<ClassifyInput> = {},
): ReturnType<typeof classifyBatch> {
  const payments = new Map<string, PaymentAnswer>();
  for (const t of txs) payments.set(`tx:${t.transactionNo}`, { kind: 'found', transaction: t });
  for (const r of rows)
    if (!payments.has(`tx:${r.transactionNo}`)) payments.set(`tx:${r.transactionNo}`, { kind: 'not_found' });
  return classifyBatch({
    account: ACCOUNT,
    rows,
    unusable: [],
    payments,
    intents: new Map(),
    digest,
    ...extra,
  });
}

describe('refund batch classification', () => {
  it('accounts rows on one payment cumulatively: two rows of 6.00 on a 10.00 payment, the second exceeds with 4.00 left', () => {
    const r = run([row(A, 600, { rowRef: 'C-1' }), row(A, 600, { rowRef: 'C-2' })], [tx(A, 1000)]);
    expect(r.rows.map((x) => x.class)).toEqual(['will_refund', 'exceeds_remaining']);
    expect(r.rows[1]!.remainingMinor).toBe(400);
    expect(r.rows[1]!.message).toMatch(/6\.00 USD is more than the 4\.00 USD that remains/);
    expect(r.totals).toEqual([{ currency: 'USD', amountMinor: 600, rows: 1 }]);
  });

  it('`full` is what remains when its turn comes; a later row finds nothing left', () => {
    const r = run(
      [row(A, 300, { rowRef: 'a' }), row(A, 'full', { rowRef: 'b' }), row(A, 100, { rowRef: 'c' })],
      [
        tx(A, 1000, {
          refunds: [{ refundTransactionNo: '1', refundAmountMinor: 200, currency: 'USD', status: 'success' }],
        }),
      ],
    );
    expect(r.rows.map((x) => [x.class, x.amountMinor])).toEqual([
      ['will_refund', 300],
      ['will_refund', 500],
      ['nothing_remains', undefined],
    ]);
    expect(r.totals).toEqual([{ currency: 'USD', amountMinor: 800, rows: 2 }]);
  });

  it('the same row twice is a duplicate of the first; the same amount with its own row reference is not', () => {
    const r = run([row(A, 100), row(A, 100), row(A, 100, { rowRef: 'x' })], [tx(A, 1000)]);
    expect(r.rows.map((x) => x.class)).toEqual(['will_refund', 'duplicate', 'will_refund']);
    expect(r.rows[1]!.duplicateOf).toBe(r.rows[0]!.line);
  });

  it('counts the desk’s own refunds the service does not show yet, and refuses a payment with one in flight', () => {
    const intents = new Map([
      [A, [intent(A, 700, 'accepted')]],
      [B, [intent(B, 100, 'outcome_unknown')]],
    ]);
    const r = run([row(A, 400), row(B, 100)], [tx(A, 1000), tx(B, 1000)], { intents });
    expect(r.rows[0]).toMatchObject({ class: 'exceeds_remaining', remainingMinor: 300 });
    expect(r.rows[1]).toMatchObject({ class: 'in_progress' });
    expect(r.rows[1]!.message).toMatch(/unknown outcome/);
  });

  it('names every other class: unknown id, not successful, other currency, blocked, not checked, unreadable intents', () => {
    const C = '297553638300000003';
    const D = '297553638300000004';
    const E = '297553638300000005';
    const F = '297553638300000006';
    const G = '297553638300000007';
    const payments = new Map<string, PaymentAnswer>([
      [`tx:${B}`, { kind: 'found', transaction: tx(B, 1000, { status: 'pending' }) }],
      [`tx:${C}`, { kind: 'found', transaction: tx(C, 1000, { currency: 'EUR' }) }],
      [`tx:${D}`, { kind: 'found', transaction: tx(D, 1000, { transactionType: 'refund' }) }],
      [`tx:${E}`, { kind: 'failed', message: 'The service did not answer in time.' }],
      [`tx:${F}`, { kind: 'found', transaction: tx(F, 1000) }],
      [`tx:${G}`, { kind: 'found', transaction: tx(G, 1000, { reference: 'SO-1' }) }],
    ]);
    const r = classifyBatch({
      account: ACCOUNT,
      rows: [
        row(A, 1),
        row(B, 1),
        row(C, 1),
        row(D, 1),
        row(E, 1),
        row(F, 1),
        row(G, 1, { reference: 'SO-2' }),
      ],
      unusable: [{ line: 99, reason: 'amount: “1.005” has more decimals than USD has' }],
      payments: new Map([...payments, [`tx:${A}`, { kind: 'not_found' }]]),
      intents: new Map([[F, { unreadable: 'A refund of this payment cannot be read.' }]]),
      digest,
    });
    expect(r.rows.map((x) => x.class)).toEqual([
      'unknown_id',
      'not_successful',
      'other_currency',
      'blocked',
      'not_checked',
      'blocked',
      'unknown_id',
      'unusable',
    ]);
    expect(r.rows[6]!.message).toMatch(/“SO-1”, not “SO-2”/);
    expect(r.dataRows).toBe(8);
    expect(r.rowsRead + r.unusableRows).toBe(r.dataRows);
    expect(r.totals).toEqual([]);
  });

  it('marks rows a previous batch run refunded and offers only what is left; an edited row is a new row', () => {
    const done = row(A, 100, { rowRef: 'C-1' });
    const key = rowKey(ACCOUNT, done, A, digest);
    const r = run(
      [{ ...done }, row(A, 200, { rowRef: 'C-1' }), row(A, 100, { rowRef: 'C-2' })],
      [
        tx(A, 1000, {
          refunds: [{ refundTransactionNo: '9', refundAmountMinor: 100, currency: 'USD', status: 'success' }],
        }),
      ],
      { done: new Map([[key, 'B-7']]) },
    );
    expect(r.rows.map((x) => x.class)).toEqual(['already_refunded', 'will_refund', 'will_refund']);
    expect(r.rows[0]!.message).toBe('already refunded in batch B-7');
    expect(r.totals).toEqual([{ currency: 'USD', amountMinor: 300, rows: 2 }]);
  });

  it('in team mode a row above the approval limit needs approval, and its amount still counts against what remains', () => {
    const r = run(
      [row(A, 800, { rowRef: '1' }), row(A, 300, { rowRef: '2' }), row(A, 100, { rowRef: '3' })],
      [tx(A, 1000)],
      {
        approvalLimitMinor: { USD: 500 },
      },
    );
    expect(r.rows.map((x) => x.class)).toEqual(['needs_approval', 'exceeds_remaining', 'will_refund']);
    expect(r.approvalTotals).toEqual([{ currency: 'USD', amountMinor: 800, rows: 1 }]);
    expect(r.totals).toEqual([{ currency: 'USD', amountMinor: 100, rows: 1 }]);
  });

  it('in team mode a currency without an approval policy needs no approval, as the team database reads it', () => {
    const J = '297553638300000010';
    const r = run(
      [row(A, 800), row(J, 4000, { currency: 'JPY' })],
      [tx(A, 1000), tx(J, 5000, { currency: 'JPY' })],
      { approvalLimitMinor: { USD: 500 } },
    );
    expect(r.rows.map((x) => x.class)).toEqual(['needs_approval', 'will_refund']);
    expect(r.totals).toEqual([{ currency: 'JPY', amountMinor: 4000, rows: 1 }]);
  });

  it('keeps totals per currency, never mixed', () => {
    const J = '297553638300000010';
    const r = run(
      [row(A, 250), row(J, 1200, { currency: 'JPY' })],
      [tx(A, 1000), tx(J, 5000, { currency: 'JPY' })],
    );
    expect(r.totals).toEqual([
      { currency: 'USD', amountMinor: 250, rows: 1 },
      { currency: 'JPY', amountMinor: 1200, rows: 1 },
    ]);
  });
});

describe('batch row keys', () => {
  const r = row(A, 100, { reason: 'recall' });
  it('are the same for the same row, and for a Demo sandbox on another port', () => {
    expect(rowKey(ACCOUNT, r, A, digest)).toBe(rowKey(ACCOUNT, { ...r, line: 500 }, A, digest));
    const demo = { ...ACCOUNT, environment: 'demo', baseUrl: 'http://127.0.0.1:4001' };
    expect(rowKey(demo, r, A, digest)).toBe(
      rowKey({ ...demo, baseUrl: 'http://127.0.0.1:5002' }, r, A, digest),
    );
  });
  it('differ for an edited row, another account or another payment', () => {
    const k = rowKey(ACCOUNT, r, A, digest);
    expect(rowKey(ACCOUNT, { ...r, amount: { minor: 101 } }, A, digest)).not.toBe(k);
    expect(rowKey(ACCOUNT, { ...r, reason: 'recall (2)' }, A, digest)).not.toBe(k);
    expect(rowKey(ACCOUNT, { ...r, currency: 'EUR' }, A, digest)).not.toBe(k);
    expect(rowKey({ ...ACCOUNT, storeNo: '1' }, r, A, digest)).not.toBe(k);
    expect(rowKey(ACCOUNT, r, B, digest)).not.toBe(k);
  });
  it('with a row reference, ignore the reason; `full` is keyed as the word', () => {
    const ref = { ...r, rowRef: 'CLAIM-9' };
    expect(rowKey(ACCOUNT, { ...ref, reason: 'other words' }, A, digest)).toBe(
      rowKey(ACCOUNT, ref, A, digest),
    );
    expect(rowKey(ACCOUNT, { ...r, amount: 'full' }, A, digest)).not.toBe(rowKey(ACCOUNT, r, A, digest));
  });
});

describe('batch row keys across spellings of one payment', () => {
  it('a row naming the payment by merchant reference has the key of one naming it by number', () => {
    const byNo = row(A, 100, { reason: 'recall' });
    const { transactionNo: _no, ...rest } = byNo;
    const byRef = { ...rest, reference: 'SO-1' };
    expect(rowKey(ACCOUNT, byRef, A, digest)).toBe(rowKey(ACCOUNT, byNo, A, digest));
  });
});
