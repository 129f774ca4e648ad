import { AppError } from '../../../shared/domain/errors';
import { DB_VERSION, type RefundDeskDb } from './schema';

/**
 * The cache as a whole: what it holds for one profile, and the way out when it cannot be used. Only
 * copies of the service's data live here (payments, their refunds, list views), so clearing it
 * never loses anything a person did: the refund journal and the audit log are kept by main.
 */
export function createCacheAdmin(db: RefundDeskDb) {
  return {
    /** Removes everything cached for one profile (its deletion); other profiles are untouched. */
    async clearProfile(profileId: string): Promise<void> {
      await db.transaction('rw', ['transactions', 'refunds', 'meta'], async () => {
        await db.transactions.where('profileId').equals(profileId).delete();
        await db.refunds.where('profileId').equals(profileId).delete();
        // Meta keys end with ":<profileId>" (meta-repo).
        await db.meta.filter((m) => m.key.endsWith(`:${profileId}`)).delete();
      });
    },
  };
}

/** What "Reset local cache" deletes and keeps, in the words every place that offers it uses. */
export const RESET_CACHE_WORDS =
  'This deletes the payments, refunds and list settings cached on this computer, for every profile. Refund Desk’s refund journal and audit log are kept by the app itself and are not touched; the cached data can be fetched again from the payment service.';

/**
 * Deletes the whole cache database, even one this version cannot open (damaged, or written by a newer
 * version), and opens it anew, empty, at this version.
 */
export async function resetLocalCache(db: RefundDeskDb): Promise<void> {
  await db.delete();
  await db.open();
}

/** Why the cache cannot be used, in words a person can act on. */
export function cacheOpenProblem(e: unknown): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'VersionError')
    return 'The local cache on this computer was written by a newer version of Refund Desk, so this version cannot read it. Update Refund Desk, or reset the cache.';
  return `The local cache on this computer cannot be opened (${e instanceof Error ? e.message : 'unknown reason'}). Reload the app; if this persists, reset the cache.`;
}

/** True when IndexedDB refused a write for want of space (the disk, or the origin's storage quota). */
function isQuotaError(e: unknown): boolean {
  const names = [e, (e as { inner?: unknown } | null)?.inner].map((x) =>
    x && typeof x === 'object' && 'name' in x ? String(x.name) : '',
  );
  return names.some((n) => n === 'QuotaExceededError');
}

/**
 * Why a write to the cache failed, in words a person can act on, whichever thread wrote. `details.written`
 * says how many of the rows (in the order given) were stored before the failure: the owner shows those,
 * and the rest are not in the cache (they can be fetched again).
 */
export function cacheWriteProblem(e: unknown, rows: number, written: number): AppError {
  const what = `${rows === 1 ? 'a payment' : `${rows.toLocaleString('en-US')} payments`}`;
  const stored = written > 0 ? ` ${written.toLocaleString('en-US')} were stored before it stopped.` : '';
  const name = e instanceof Error ? e.name : 'Error';
  if (isQuotaError(e))
    return new AppError(
      'unavailable',
      `The local cache could not store ${what}: this computer's disk, or the space the app may use on it, is full.${stored} Free some disk space (or reset the local cache), then fetch them again.`,
      { retryable: false, details: { storage: 'full', cause: name, written }, cause: e },
    );
  return new AppError(
    'internal',
    `The local cache could not store ${what} (${e instanceof Error ? e.message : 'unknown reason'}).${stored} Reload the app; if this persists, reset the cache.`,
    { retryable: false, details: { storage: 'failed', cause: name, written }, cause: e },
  );
}

/**
 * Opens the cache and says why it cannot be used, or undefined when it can. Dexie opens a database
 * written by a newer version when its stores happen to fit, so the version is checked too: this version
 * must not read (or write) a shape it does not know.
 */
export async function openCache(db: RefundDeskDb): Promise<string | undefined> {
  try {
    await db.open();
  } catch (e) {
    return cacheOpenProblem(e);
  }
  // Dexie stores version × 10 in IndexedDB.
  const installed = Math.max(db.verno, db.backendDB().version / 10);
  if (installed > DB_VERSION) {
    db.close();
    return cacheOpenProblem(Object.assign(new Error(`version ${installed}`), { name: 'VersionError' }));
  }
  return undefined;
}
