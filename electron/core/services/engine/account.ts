import { type AccountKey, describeAccount, sameAccount } from '../../../../shared/domain/account';
import { AppError } from '../../../../shared/domain/errors';
import type { Environment } from '../../../../shared/domain/profile';

export { describeAccount };

/** The account an intent was made in, and the profile (a desk's local name for it) it was made with. */
export interface IntentAccount extends AccountKey {
  profileId: string;
  profileName: string;
}

/** What a follow-up needs to know about a profile to decide whether it is the intent's account. */
export interface AccountCandidate {
  id: string;
  name: string;
  environment: Environment;
  merchantNo: string;
  storeNo: string;
  /** Where its calls go now (Demo: the running sandbox). */
  effectiveBaseUrl?: string;
  hasToken: boolean;
}

/** A profile's account now (Demo: the running sandbox's address). */
const accountOf = (p: AccountCandidate): AccountKey => ({
  environment: p.environment,
  baseUrl: p.effectiveBaseUrl ?? '',
  merchantNo: p.merchantNo,
  storeNo: p.storeNo,
});

const isAccount = (p: AccountCandidate, a: IntentAccount) => sameAccount(a, accountOf(p));

/** An intent that cannot be followed up from here, and why (shown as "Cannot be checked: …"). */
export function cannotCheck(message: string): AppError {
  return new AppError('unavailable', message, { details: { cannotCheck: true } });
}

/**
 * The profile through which an intent may be followed up: its own profile if it still points at the same
 * service and merchant, else (an intent from the CLI, or one whose profile was re-created) a profile for
 * exactly that address, merchant and store. Never another service: a refund made at one service is
 * invisible at another and would look "not found" for ever.
 */
export function findAccountProfile<P extends AccountCandidate>(profiles: readonly P[], a: IntentAccount): P {
  const own = profiles.find((p) => p.id === a.profileId);
  const match = own && isAccount(own, a) ? own : profiles.find((p) => isAccount(p, a));
  if (!match) {
    const target = describeAccount(a);
    if (own)
      throw cannotCheck(
        `its profile “${own.name}” now points at another service or merchant than the one this refund went to (${target}). Add a profile for ${target} with its API token to check it.`,
      );
    if (a.baseUrl === '' && a.environment !== 'demo')
      throw cannotCheck(
        `it was recorded before Refund Desk kept service addresses, and no profile “${a.profileName}” exists. Check it with the CLI: check-refund <its RD… id> --base-url <the service it went to> --merchant ${a.merchantNo} --store ${a.storeNo}.`,
      );
    throw cannotCheck(
      `the profile “${a.profileName}” it was sent with no longer exists. Add a profile for ${target} with its API token to check it.`,
    );
  }
  if (!match.hasToken && match.environment !== 'demo')
    throw cannotCheck(
      `the profile “${match.name}” has no API token. Add it in Settings to check this refund.`,
    );
  return match;
}
