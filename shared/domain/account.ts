import type { RecordedEnvironment } from './profile';

/**
 * The account a payment lives in and money moves through: where the service is, and as which merchant
 * and store. Intents, locks and gateways are keyed by it. A profile is only a desk's local name and
 * token for an account; its id means nothing to another desk.
 */
export interface AccountKey {
  environment: RecordedEnvironment;
  /** The service address ('' for intents recorded before addresses were kept). */
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
}

/** Just the key fields of anything that carries an account (an intent, a profile's context). */
export function accountKeyOf(a: AccountKey): AccountKey {
  return { environment: a.environment, baseUrl: a.baseUrl, merchantNo: a.merchantNo, storeNo: a.storeNo };
}

/**
 * Whether `intent` (recorded) went to the account `current` (a profile's account now). The Demo sandbox
 * moves port between runs: a Demo account is any Demo sandbox for the same merchant and store, so a
 * Demo intent belongs to whichever Demo profile exists. Any other account is the exact address; an
 * intent recorded without an address matches none (it could have gone anywhere).
 */
export function sameAccount(intent: AccountKey, current: AccountKey): boolean {
  if (intent.merchantNo !== current.merchantNo || intent.storeNo !== current.storeNo) return false;
  if (intent.environment === 'demo' || current.environment === 'demo')
    return intent.environment === current.environment;
  return intent.baseUrl !== '' && intent.baseUrl === current.baseUrl;
}

/** "merchant 200043, store 300014 at https://…" — how a person recognises an account. */
export function describeAccount(a: AccountKey): string {
  const where =
    a.environment === 'demo' ? 'the built-in Demo sandbox' : a.baseUrl || 'an address not recorded';
  return `merchant ${a.merchantNo}, store ${a.storeNo} at ${where}`;
}
