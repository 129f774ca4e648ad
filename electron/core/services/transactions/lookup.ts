import { AppError, isAppError } from '../../../../shared/domain/errors';
import { classifyId } from '../../../../shared/domain/id-kind';
import { remainingRefundableMinor, type Transaction } from '../../../../shared/domain/transaction';
import { type AdaptiveLimiter, createLimiters } from '../gateway/adaptive-limit';
import { queryMany } from '../gateway/batch';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';

export type LookupKind = 'transactionNo' | 'refundTransactionNo' | 'reference' | 'refundReference';

export interface LookupResult {
  profileId: string;
  /** Which kind of id matched. */
  kind: LookupKind;
  /** The payment (for a refund number or reference: the payment that refund belongs to). */
  transaction: Transaction;
  matchedRefundTransactionNo?: string;
  /** From the service's refundInfo only; the refund dialog subtracts this desk's pending intents too. */
  remainingRefundableMinor: number;
  fetchedAt: string;
}

/** Payments tried for a refund reference (each is one signed query). */
export const MAX_CANDIDATES = 5;

/**
 * Looks one transaction up by whatever a person pasted, classified by the one shared rule
 * (shared/domain/id-kind.ts, as the search box does): an 18+ digit number (spaces between digits
 * dropped) is tried as a transactionNo, then as a refundTransactionNo, then (merchants do use numeric
 * references) as a reference; anything else is a reference (this desk's `RD…` refund references in
 * any case). Text that cannot be an id is refused with the rule's reason. Only `not_found` moves on to
 * the next kind: a network or credential failure stops at once, so "not found" is never claimed when
 * the truth is "could not ask".
 *
 * A refund's own reference (this desk's `RD…`, or `RF-…` from another system) cannot be queried: the
 * service has no such key. The caller may name `candidates` — payments it believes the reference
 * belongs to (the renderer's cache, this desk's refund list). Each is queried fresh and accepted only
 * when the service's own refundInfo carries that refundReference: the renderer is never taken on trust.
 */
export function createTransactionLookup(deps: {
  /** The named profile's gateway (`not_found` when the profile no longer exists). */
  gateway: (
    profileId: string,
  ) => Promise<{ profileId: string; client: Pick<GatewayClient, 'queryTransaction'> }>;
  clock: Clock;
  /** The profile's shared limiter, so the small batches of one bulk refresh adapt as one. */
  limiterFor?: (profileId: string) => AdaptiveLimiter;
}) {
  const limiterFor = deps.limiterFor ?? createLimiters(deps.clock);
  const tryQuery = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (e) {
      if (isAppError(e) && e.code === 'not_found') return undefined;
      throw e;
    }
  };

  return {
    async lookup(
      forProfile: string,
      rawQuery: string,
      candidates: readonly string[] = [],
    ): Promise<LookupResult> {
      const id = classifyId(rawQuery);
      if (id.shape === 'empty')
        throw new AppError(
          'invalid_input',
          'Type a transaction number, refund number or reference to look up.',
        );
      if (id.shape === 'invalid') throw new AppError('invalid_input', id.reason);
      const query = id.text;
      const { profileId, client } = await deps.gateway(forProfile);
      const done = (
        kind: LookupKind,
        transaction: Transaction,
        matchedRefundTransactionNo?: string,
      ): LookupResult => ({
        profileId,
        kind,
        transaction,
        ...(matchedRefundTransactionNo ? { matchedRefundTransactionNo } : {}),
        remainingRefundableMinor:
          transaction.transactionType === 'payment' ? remainingRefundableMinor(transaction) : 0,
        fetchedAt: new Date(deps.clock.now()).toISOString(),
      });

      if (id.shape === 'service-number') {
        const asPayment = await tryQuery(() => client.queryTransaction({ transactionNo: query }));
        if (asPayment) return done('transactionNo', asPayment.transaction);
        const asRefund = await tryQuery(() => client.queryTransaction({ refundTransactionNo: query }));
        if (asRefund) {
          const original = asRefund.originalTransactionNo
            ? await tryQuery(() =>
                client.queryTransaction({ transactionNo: asRefund.originalTransactionNo! }),
              )
            : undefined;
          return done('refundTransactionNo', (original ?? asRefund).transaction, query);
        }
      }
      const asReference = await tryQuery(() => client.queryTransaction({ reference: query }));
      if (asReference) return done('reference', asReference.transaction);
      for (const transactionNo of candidates.slice(0, MAX_CANDIDATES)) {
        const hit = await tryQuery(() => client.queryTransaction({ transactionNo }));
        const refund = hit?.transaction.refunds.find((r) => r.refundReference === query);
        if (hit && refund) return done('refundReference', hit.transaction, refund.refundTransactionNo);
      }
      throw new AppError(
        'not_found',
        `No payment or refund matches “${query.slice(0, 64)}” in this profile. Check the number, or switch profile if it belongs to another store.`,
        {
          details: { query: query.slice(0, 64) },
        },
      );
    },

    /** Re-queries known payments with bounded, adaptive concurrency; one failure never hides the others. */
    async refresh(
      forProfile: string,
      transactionNos: readonly string[],
      opts: { signal?: AbortSignal; concurrency?: number } = {},
    ) {
      const { profileId, client } = await deps.gateway(forProfile);
      const items = await queryMany(
        client,
        transactionNos.map((transactionNo) => ({ transactionNo })),
        opts.concurrency ? opts : { ...opts, limiter: limiterFor(profileId) },
      );
      return {
        profileId,
        fetchedAt: new Date(deps.clock.now()).toISOString(),
        items: items.map((it, i) =>
          it.ok
            ? { transactionNo: transactionNos[i]!, ok: true as const, transaction: it.value.transaction }
            : {
                transactionNo: transactionNos[i]!,
                ok: false as const,
                error: { code: it.error.code, message: it.error.message },
              },
        ),
      };
    },
  };
}
export type TransactionLookup = ReturnType<typeof createTransactionLookup>;
