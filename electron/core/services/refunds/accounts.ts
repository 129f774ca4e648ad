import { AppError } from '../../../../shared/domain/errors';
import type { Environment } from '../../../../shared/domain/profile';
import type { IntentAccount } from './intent';

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

/** "merchant 200043, store 300014 at https://…" — how a person recognises an account. */
export function describeAccount(
  a: Pick<IntentAccount, 'merchantNo' | 'storeNo' | 'baseUrl' | 'environment'>,
) {
  const where =
    a.environment === 'demo' ? 'the built-in Demo sandbox' : a.baseUrl || 'an address not recorded';
  return `merchant ${a.merchantNo}, store ${a.storeNo} at ${where}`;
}

/** The Demo sandbox moves port between runs: a Demo intent belongs to whichever Demo profile exists. */
function sameService(p: AccountCandidate, a: IntentAccount): boolean {
  if (a.environment === 'demo' || p.environment === 'demo') return a.environment === p.environment;
  return a.baseUrl !== '' && p.effectiveBaseUrl === a.baseUrl;
}

const isAccount = (p: AccountCandidate, a: IntentAccount) =>
  p.merchantNo === a.merchantNo && p.storeNo === a.storeNo && sameService(p, a);

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
