/**
 * The refund batch dry run, read-only: read the file (CSV or workbook), query each distinct payment
 * fresh through the gateway with the adaptive concurrency of batch queries (one limiter per profile,
 * shared with bulk refresh and reconciliation), read the intents of those payments from the database,
 * and classify every row (./classify.ts). Nothing is written and nothing is sent.
 *
 * Its dependencies are narrow ports: `intentsOf(account, transactionNo)` is all it needs from the money
 * core (the app wires it to the engine's read of one payment's refunds, refunds/store.ts forPayment), and
 * `doneKeys(account)` is where the batch store will say which rows a batch has already refunded (no
 * batch store yet: none are).
 */
import { createHash } from 'node:crypto';
import type { Currency } from '../../../../shared/domain/currencies';
import { AppError } from '../../../../shared/domain/errors';
import { type MoneyMode } from '../../../../shared/domain/profile';
import type { BatchMapping } from '../../../../shared/batch/mapping';
import { BatchInputError, readBatchFile, type BatchFileInfo } from '../../../../shared/batch/read';
import type { BatchDryRun } from '../../../../shared/batch/result';
import type { BatchAccount, Digest } from '../../../../shared/batch/row-key';
import type { DecimalSeparator } from '../../../../shared/recon/amounts';
import type { AdaptiveLimiter } from '../gateway/adaptive-limit';
import { queryMany } from '../gateway/batch';
import type { GatewayClient, QueryKey } from '../gateway/client';
import type { Clock } from '../ports';
import type { Intent } from '../refunds/intent';
import { UnreadableIntentError } from '../refunds/store';
import { classifyBatch, lookupKeyOf, type PaymentAnswer, type PaymentIntents } from './classify';

/** The account a profile refunds in, and how it is named to the person. */
export interface BatchProfile extends BatchAccount {
  profileId: string;
  profileName: string;
  moneyMode: MoneyMode;
}

export interface BatchDryRunDeps {
  /** The named profile's account (`not_found` for a profile that does not exist). */
  profile: (profileId: string) => BatchProfile;
  gatewayFor: (profileId: string) => Pick<GatewayClient, 'queryTransaction'>;
  /** The profile's shared adaptive limiter (gateway/adaptive-limit.ts); a fresh one per run without it. */
  limiterFor?: (profileId: string) => AdaptiveLimiter;
  /**
   * Every intent of one payment in the database (final ones included). Throws UnreadableIntentError
   * when one that may have moved money cannot be read.
   */
  intentsOf: (account: BatchAccount, transactionNo: string) => Promise<readonly Intent[]>;
  /** Row keys a batch already refunded in this account → that batch's id. */
  doneKeys?: (account: BatchAccount) => Promise<ReadonlyMap<string, string>>;
  /**
   * Team mode: the account's approval policy per currency, as the database holds it (undefined: single
   * desk, no approval; a currency absent from it needs none).
   */
  approvalLimits?: (
    account: BatchAccount,
  ) => Partial<Record<Currency, number>> | undefined | Promise<Partial<Record<Currency, number>> | undefined>;
  clock: Clock;
  digest?: Digest;
}

export interface BatchFileInput {
  name: string;
  bytes: Uint8Array;
}

export interface BatchDryRunOptions {
  mapping?: BatchMapping;
  sheet?: string;
  decimal?: DecimalSeparator;
  /**
   * Reuse a payment's answer from this service's own earlier queries when it is at most this old
   * (a dry run opened again, a mapping changed): default 0, every payment queried fresh. Execution
   * never relies on it: each row is checked again against a fresh query immediately before it is sent.
   */
  reuseWithinMs?: number;
  onProgress?: (p: { done: number; total: number; failed: number }) => void;
  signal?: AbortSignal;
}

export interface BatchDryRunAnswer extends BatchDryRun {
  profileId: string;
  profileName: string;
  moneyMode: MoneyMode;
  merchantNo: string;
  storeNo: string;
  file: BatchFileInfo;
  mapping: BatchMapping;
  headers: string[];
  /** When the payments were queried: the oldest answer used (the answer is only as fresh as this). */
  checkedAt: string;
  /** Payments queried now, and answers reused from this service's queries of the last reuseWithinMs. */
  queried: number;
  reused: number;
}

export const sha256Hex: Digest = (text) => createHash('sha256').update(text).digest('hex');

/** Intents read a few at a time: the store is local, the point is only not to start thousands at once. */
const INTENT_READS = 8;

/** Answers kept for reuse at most this long, and at most this many (the oldest go first). */
const REUSE_MAX_MS = 10 * 60_000;
const REUSE_MAX_ENTRIES = 100_000;

export function createBatchDryRun(deps: BatchDryRunDeps) {
  const digest = deps.digest ?? sha256Hex;
  /** Answers of this service's own queries: `${profileId} ${lookup key}` → answer and when it came. */
  const recent = new Map<string, { at: number; answer: PaymentAnswer }>();
  const remember = (key: string, at: number, answer: PaymentAnswer) => {
    recent.delete(key);
    recent.set(key, { at, answer });
    for (const [k, v] of recent) {
      if (recent.size <= REUSE_MAX_ENTRIES && at - v.at <= REUSE_MAX_MS) break;
      recent.delete(k);
    }
  };

  async function dryRun(
    profileId: string,
    file: BatchFileInput,
    opts: BatchDryRunOptions = {},
  ): Promise<BatchDryRunAnswer> {
    const profile = deps.profile(profileId);
    let prepared;
    try {
      prepared = await readBatchFile(file.bytes, file.name, {
        ...(opts.mapping ? { mapping: opts.mapping } : {}),
        ...(opts.sheet !== undefined ? { sheet: opts.sheet } : {}),
        ...(opts.decimal ? { decimal: opts.decimal } : {}),
      });
    } catch (e) {
      if (e instanceof BatchInputError) throw new AppError('invalid_input', e.message);
      throw e;
    }
    const account: BatchAccount = {
      environment: profile.environment,
      baseUrl: profile.baseUrl,
      merchantNo: profile.merchantNo,
      storeNo: profile.storeNo,
    };

    // Each payment once, however many rows name it.
    const lookups = new Map<string, QueryKey>();
    for (const row of prepared.rows) {
      const k = lookupKeyOf(row);
      if (!lookups.has(k))
        lookups.set(
          k,
          row.transactionNo ? { transactionNo: row.transactionNo } : { reference: row.reference! },
        );
    }
    const now = deps.clock.now();
    const maxAge = Math.min(Math.max(0, opts.reuseWithinMs ?? 0), REUSE_MAX_MS);
    const payments = new Map<string, PaymentAnswer>();
    let oldest = now;
    for (const k of lookups.keys()) {
      const hit = maxAge > 0 ? recent.get(`${profile.profileId} ${k}`) : undefined;
      // Only what the service answered is reused; a failed query is asked again.
      if (!hit || now - hit.at > maxAge || hit.answer.kind === 'failed') continue;
      payments.set(k, hit.answer);
      oldest = Math.min(oldest, hit.at);
    }
    const keys = [...lookups.keys()].filter((k) => !payments.has(k));
    const items = await queryMany(
      deps.gatewayFor(profile.profileId),
      keys.map((k) => lookups.get(k)!),
      {
        ...(deps.limiterFor ? { limiter: deps.limiterFor(profile.profileId) } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    items.forEach((item, i) => {
      const k = keys[i]!;
      const answer: PaymentAnswer = item.ok
        ? { kind: 'found', transaction: item.value.transaction }
        : item.error.code === 'not_found'
          ? { kind: 'not_found' }
          : { kind: 'failed', message: item.error.message };
      payments.set(k, answer);
      remember(`${profile.profileId} ${k}`, now, answer);
    });
    const checkedAt = new Date(oldest).toISOString();

    const found = [
      ...new Set(
        [...payments.values()].flatMap((p) => (p.kind === 'found' ? [p.transaction.transactionNo] : [])),
      ),
    ];
    const intents = new Map<string, PaymentIntents>();
    for (let at = 0; at < found.length; at += INTENT_READS)
      await Promise.all(
        found.slice(at, at + INTENT_READS).map(async (no) => {
          try {
            intents.set(no, await deps.intentsOf(account, no));
          } catch (e) {
            if (!(e instanceof UnreadableIntentError)) throw e;
            intents.set(no, { unreadable: e.message });
          }
        }),
      );

    const limits = await deps.approvalLimits?.(account);
    const result = classifyBatch({
      account,
      rows: prepared.rows,
      unusable: prepared.unusable,
      payments,
      intents,
      done: (await deps.doneKeys?.(account)) ?? new Map(),
      ...(limits ? { approvalLimitMinor: limits } : {}),
      digest,
    });
    return {
      profileId: profile.profileId,
      profileName: profile.profileName,
      moneyMode: profile.moneyMode,
      merchantNo: profile.merchantNo,
      storeNo: profile.storeNo,
      file: prepared.file,
      mapping: prepared.mapping,
      headers: prepared.headers,
      checkedAt,
      queried: keys.length,
      reused: lookups.size - keys.length,
      ...result,
    };
  }

  return { dryRun };
}

export type BatchDryRunService = ReturnType<typeof createBatchDryRun>;
