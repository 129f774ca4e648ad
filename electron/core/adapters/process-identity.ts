import { hostname, userInfo } from 'node:os';
import type { ProcessIdentity } from '../services/ports';

/** The OS account name, used as the operator when a profile names none. */
function osUser(): string {
  try {
    return userInfo().username || 'unknown operator';
  } catch {
    return 'unknown operator';
  }
}

/**
 * Who this process is: `host:pid` labels the intents it sends (people read it; liveness is the lease,
 * engine/lease.ts), and the OS account is the default operator. Read here so services touch no OS state.
 */
export function processIdentity(): ProcessIdentity {
  return { sender: `${hostname()}:${process.pid}`, osUser: osUser() };
}
