import type { AppErrorShape } from '../../../../shared/domain/errors';

/**
 * Field messages from main's answer: the service's own (`details.fields`) or the contract's
 * (`details.issues`, paths such as `customer.email`; `prefix` strips the wrapper object's name).
 */
export function fieldErrorsOf(error: AppErrorShape, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = error.details?.fields;
  if (fields && typeof fields === 'object')
    for (const [k, v] of Object.entries(fields as Record<string, unknown>))
      if (typeof v === 'string') out[k] = v;
  const issues = error.details?.issues;
  if (Array.isArray(issues))
    for (const i of issues as { path?: unknown; message?: unknown }[]) {
      if (typeof i.path !== 'string' || typeof i.message !== 'string') continue;
      const key = prefix && i.path.startsWith(prefix) ? i.path.slice(prefix.length) : i.path;
      out[key] ??= i.message;
    }
  return out;
}
