/**
 * What every endpoint and page handler receives: the state and the services around it. Built once by
 * startSandbox (index.ts); handlers never reach for globals, so several sandboxes can run in one process.
 */
import type { FaultInjector } from './faults';
import type { IdFactory } from './ids';
import type { IpnDispatcher } from './ipn';
import type { RefundRequestLog } from './refund-requests';
import type { RefundEngine } from './refunds';
import type { Store } from './store';
import type { Merchant } from './types';

export interface SandboxContext {
  store: Store;
  ids: IdFactory;
  faults: FaultInjector;
  ipn: IpnDispatcher;
  refunds: RefundEngine;
  /** Every refund request as handled: arrival, answer, refusal over the remainder (tests count from it). */
  refundRequests: RefundRequestLog;
  merchants: readonly Merchant[];
  now: () => number;
  /** `http://host:port` once listening (used for cashierUrl and the 3-D Secure page). */
  baseUrl: () => string;
  log: (line: string) => void;
}

/** The authenticated caller of an API request. */
export interface Caller {
  merchant: Merchant;
  storeNo: string;
}
