import { userInfo } from 'node:os';

/** The OS account name, used as the operator when a profile names none. */
export function osUser(): string {
  try {
    return userInfo().username || 'unknown operator';
  } catch {
    return 'unknown operator';
  }
}
