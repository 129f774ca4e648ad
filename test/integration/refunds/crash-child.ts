/**
 * Child process for the crash test: submits one refund against the sandbox given on argv and is killed
 * by the parent while the request is in flight.
 */
import { toCurrency } from '../../../shared/domain/currencies';
import { buildRefunds, reason } from './harness';

const [baseUrl, dir, transactionNo, amount, currency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const { service } = buildRefunds({ baseUrl } as never, dir, {}, 30_000);
void service.submit({
  transactionNo,
  amountMinor: Number(amount),
  currency: toCurrency(currency),
  ...reason,
});
setInterval(() => {}, 1000);
