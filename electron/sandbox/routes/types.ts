import type { Caller, SandboxContext } from '../context';
import type { Params } from '../params';

/**
 * An API endpoint: returns the envelope fields besides ret_code/ret_msg (`result`, `customer`, or the
 * top-level `transactions`/`size`), or throws ApiError for a business rejection.
 */
export type RouteHandler = (
  ctx: SandboxContext,
  caller: Caller,
  params: Params,
) => Promise<Record<string, unknown>> | Record<string, unknown>;
