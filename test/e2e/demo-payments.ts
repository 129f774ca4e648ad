import { DEMO_MERCHANT } from '../../electron/sandbox';
import type { HostFixture } from './fixtures';

/**
 * A successful Demo payment with nothing refunded yet, straight from the embedded sandbox's state;
 * `used` keeps tests of one file from taking the same payment twice.
 */
export function freshPayment(
  app: HostFixture,
  used: Set<string> = new Set(),
  currency = 'USD',
  minMinor = 2000,
) {
  const sandbox = app.core.demoSandbox();
  if (!sandbox) throw new Error('the Demo sandbox is not running');
  const p = sandbox.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.status === 'success' &&
        x.refunds.length === 0 &&
        x.currency === currency &&
        x.amountMinor >= minMinor &&
        !used.has(x.transactionNo),
    );
  if (!p) throw new Error('no fresh payment in the Demo seed');
  used.add(p.transactionNo);
  return p;
}
