import type { AppErrorShape } from '../../../../shared/domain/errors';

/**
 * Field messages from main's answer: the service's own (`details.fields`) or the contract's
 * (`details.issues`, paths such as `customer.email`; `prefix` strips the wrapper object's name).
 */
export function fieldErrorsOf(error: AppErrorShape, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  // Typed by errorDetailsSchema, which main checks every envelope's details against.
  for (const [k, v] of Object.entries(error.details?.fields ?? {})) out[k] = v;
  for (const i of error.details?.issues ?? []) {
    const key = prefix && i.path.startsWith(prefix) ? i.path.slice(prefix.length) : i.path;
    out[key] ??= i.message;
  }
  return out;
}
