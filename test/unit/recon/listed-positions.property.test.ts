/**
 * The run hands the matching each row's listed payment by position (run.ts listPositions): the report
 * made with those positions (`listedAt`: the payments rows claimed marked by position, not gathered in
 * a set of every number) is exactly the report made without them — rows answered by the list, by a
 * lookup whose payment the list also holds, by nothing; duplicates; payments the ledger lacks. The
 * listed payments rows claimed are marked by the matching itself (matchLedger's listedClaims).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/domain/transaction';
import type { LedgerRow } from '../../../shared/recon/ledger';
import {
  keyOf,
  matchLedger,
  NO_DELTAS,
  serviceView,
  type ReconItem,
  type ServiceAnswer,
} from '../../../shared/recon/match';
import { buildReport, detailAmount, makeReport } from '../../../shared/recon/report';

const JUNE = {
  period: { from: '2025-06-01', to: '2025-06-30' },
  days: 'service',
  timeZone: 'UTC',
  dateToleranceDays: 1,
  refundLookbackDays: 0,
} as const;
const FETCHED = '2025-07-01T00:00:00.000Z';
const numbers = ['1', '2', '3', '4', '5', '6'];
const refs = ['A', 'B', 'C'];

const paymentArb = fc.record({
  reference: fc.option(fc.constantFrom(...refs), { nil: undefined }),
  amountMinor: fc.integer({ min: 1, max: 3 }),
  status: fc.constantFrom('success' as const, 'closed' as const),
  // In the period, or before it (then only its refunds in the period can be the ledger's lack).
  createdAt: fc.constantFrom('2025-06-03T04:00:00.000Z', '2025-05-20T04:00:00.000Z'),
  refunded: fc.boolean(),
});
type Payment = typeof paymentArb extends fc.Arbitrary<infer T> ? T : never;
const txOf = (no: string, p: Payment): Transaction => ({
  transactionNo: no,
  ...(p.reference ? { reference: p.reference } : {}),
  amountMinor: p.amountMinor,
  currency: 'USD',
  status: p.status,
  transactionType: 'payment',
  createdAt: p.createdAt,
  paidAt: p.createdAt,
  refunds: p.refunded
    ? [
        {
          refundTransactionNo: `r${no}`,
          refundAmountMinor: 1,
          currency: 'USD',
          status: 'success',
          createdAt: '2025-06-10T00:00:00.000Z',
        },
      ]
    : [],
});

const rowArb = fc.record({
  byTx: fc.boolean(),
  no: fc.constantFrom(...numbers),
  ref: fc.constantFrom(...refs),
  amountMinor: fc.integer({ min: 1, max: 3 }),
});
/** What a lookup said for a key the list does not answer: a payment (maybe one the list holds), or not. */
const lookupArb = fc.oneof(
  fc.constant(undefined),
  fc.constant('not_found' as const),
  fc.constant('failed' as const),
  fc.tuple(fc.constantFrom(...numbers), paymentArb),
);

describe('buildReport with each row’s listed position', () => {
  it('gives exactly the report made without the positions', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...numbers), { maxLength: numbers.length }),
        fc.array(paymentArb, { minLength: numbers.length, maxLength: numbers.length }),
        fc.array(rowArb, { maxLength: 14 }),
        fc.array(lookupArb, { minLength: 12, maxLength: 12 }),
        (listedNos, payments, specs, lookups) => {
          const listed = listedNos.map((no, k) => ({
            kind: 'found' as const,
            transaction: txOf(no, payments[k]!),
            source: 'list' as const,
            fetchedAt: FETCHED,
          }));
          const byTx = new Map(listed.map((l, k) => [l.transaction.transactionNo, k]));
          const byRef = new Map<string, number>();
          const repeated = new Set<string>();
          listed.forEach((l, k) => {
            const r = l.transaction.reference;
            if (!r || repeated.has(r)) return;
            if (byRef.has(r)) {
              byRef.delete(r);
              repeated.add(r);
            } else byRef.set(r, k);
          });
          const rows: LedgerRow[] = specs.map((s, i) => ({
            line: i + 2,
            ...(s.byTx ? { transactionNo: s.no } : { reference: s.ref }),
            amountMinor: s.amountMinor,
            currency: 'USD',
            status: 'paid',
            day: '2025-06-03',
          }));
          // The other keys' answers, by key string (the same answer every time a key is asked).
          const other = new Map<string, ServiceAnswer | undefined>();
          const otherOf = (key: string): ServiceAnswer | undefined => {
            if (!other.has(key)) {
              const l = lookups[other.size % lookups.length];
              other.set(
                key,
                l === undefined
                  ? undefined
                  : l === 'not_found'
                    ? { kind: 'not_found', source: 'lookup', fetchedAt: FETCHED }
                    : l === 'failed'
                      ? {
                          kind: 'failed',
                          code: 'network',
                          message: 'down',
                          source: 'lookup',
                          fetchedAt: FETCHED,
                        }
                      : {
                          kind: 'found',
                          transaction: txOf(l[0], l[1]),
                          source: 'lookup',
                          fetchedAt: FETCHED,
                        },
              );
            }
            return other.get(key);
          };
          const positions = rows.map((r) =>
            r.transactionNo ? (byTx.get(r.transactionNo) ?? -1) : (byRef.get(r.reference!) ?? -1),
          );
          const answer = (key: string) => {
            const p = key.startsWith('tx:') ? byTx.get(key.slice(3)) : byRef.get(key.slice(4));
            return p === undefined ? otherOf(key) : listed[p];
          };
          const answerAt = (i: number) =>
            positions[i]! >= 0
              ? listed[positions[i]!]
              : otherOf(
                  keyOf(Boolean(rows[i]!.transactionNo), rows[i]!.transactionNo ?? rows[i]!.reference!),
                );
          const input = {
            rows,
            unusable: [],
            answer,
            answerAt,
            listed,
            listedUnique: true,
            listing: 'complete' as const,
            options: JUNE,
            fmt: detailAmount,
          };
          const plain = buildReport(input);
          let asked = 0;
          const byPosition = buildReport({
            ...input,
            listedAt: (i) => {
              asked += 1;
              return positions[i]!;
            },
          });
          expect(byPosition).toStrictEqual(plain);
          // The matching numbering the list's payments by their positions too.
          let numbered = 0;
          const numberedByPosition = buildReport({
            ...input,
            listedAt: (i) => positions[i]!,
            listedPositionOf: (no) => {
              numbered += 1;
              return byTx.get(no);
            },
          });
          expect(numberedByPosition).toStrictEqual(plain);
          if (rows.some((r, i) => r.transactionNo && positions[i]! < 0)) expect(numbered).toBeGreaterThan(0);
          // The positions were used (one question per row the service answered), not left aside.
          expect(asked).toBe(plain.items.filter((i) => i.line !== undefined && i.service).length);
          // Matched rows answered by their very listed payment, taken as they come (never made: the run
          // stores them by reference) and made here as documented, in their place: exactly the report,
          // between unreadable rows too.
          for (const unusable of [
            [],
            [
              { line: 1, reason: 'x' },
              { line: 6, reason: 'y' },
              { line: 99, reason: 'z' },
            ],
          ]) {
            const spaced = { ...input, rows: rows.map((r, i) => ({ ...r, line: 2 * i + 3 })), unusable };
            const expected = buildReport(spaced);
            const made: ReconItem[] = [];
            let taken = 0;
            let matchedFromList = 0;
            const summary = makeReport(
              { ...spaced, listedAt: (i) => positions[i]!, listedPositionOf: (no) => byTx.get(no) },
              (item) => made.push(item),
              (row, p, dayOffset) => {
                expect(p).toBe(positions[row]);
                // Every third offered row is left to be made as always.
                if (row % 3 === 2) return false;
                taken += 1;
                const ledger = spaced.rows[row]!;
                const transaction = listed[p]!.transaction;
                made.push({
                  line: ledger.line,
                  matchedBy: ledger.transactionNo ? 'transactionNo' : 'reference',
                  ledger,
                  service: serviceView(transaction, 'list', FETCHED),
                  transaction,
                  ...(dayOffset === undefined ? {} : { dayOffset }),
                  outcome: 'matched',
                  detail: '',
                  deltas: NO_DELTAS,
                });
                return true;
              },
            );
            expect(made).toStrictEqual(expected.items);
            expect(JSON.stringify(summary)).toBe(JSON.stringify(expected.summary));
            expected.items.forEach((item) => {
              const i = spaced.rows.findIndex((r) => r.line === item.line);
              if (
                item.outcome === 'matched' &&
                i >= 0 &&
                item.transaction === listed[positions[i]!]?.transaction
              )
                matchedFromList += i % 3 === 2 ? 0 : 1;
            });
            // Every matched row answered by its listed payment was offered, and those taken were not made.
            expect(taken).toBe(matchedFromList);
          }
          // Told that a row with a position is answered by that very listed payment (the run's
          // listedAnswers), the matching asks for no such row's answer and makes none: the same report.
          let askedListed = 0;
          const byList = buildReport({
            ...input,
            listed: {
              length: listed.length,
              transaction: (k) => listed[k]!.transaction,
              fetchedAt: (k) => listed[k]!.fetchedAt,
            },
            listedAt: (i) => positions[i]!,
            listedPositionOf: (no) => byTx.get(no),
            listedAnswers: true,
            answerAt: (i) => {
              if (positions[i]! >= 0) askedListed += 1;
              return answerAt(i);
            },
          });
          expect(byList).toStrictEqual(plain);
          expect(askedListed).toBe(0);
          // The matching marks, by position, exactly the listed payments whose numbers rows' answers have.
          const claims = new Uint8Array(listed.length);
          const items = matchLedger(rows, answer, {
            fmt: detailAmount,
            lookupAt: answerAt,
            listed: {
              size: listed.length,
              at: (i) => positions[i]!,
              positionOf: (no) => byTx.get(no),
              transaction: (p) => listed[p]!.transaction,
            },
            listedClaims: claims,
          });
          const answered = new Set(items.flatMap((i) => (i.service ? [i.service.transactionNo] : [])));
          expect([...claims]).toEqual(listed.map((l) => (answered.has(l.transaction.transactionNo) ? 1 : 0)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
