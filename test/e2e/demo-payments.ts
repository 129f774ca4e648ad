import { DEMO_MERCHANT } from '../../electron/sandbox';
import type { PaymentRecord } from '../../electron/sandbox/types';
import type { HostFixture } from './fixtures';

/**
 * A successful Demo payment with nothing refunded yet, straight from the embedded sandbox's state;
 * `used` keeps tests of one file from taking the same payment twice; `also` narrows it further (a card
 * payment, say).
 */
export function freshPayment(
  app: HostFixture,
  used: Set<string> = new Set(),
  currency = 'USD',
  minMinor = 2000,
  also: (p: PaymentRecord) => boolean = () => true,
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
        !used.has(x.transactionNo) &&
        also(x),
    );
  if (!p) throw new Error('no fresh payment in the Demo seed');
  used.add(p.transactionNo);
  return p;
}
