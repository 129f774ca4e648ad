/** Finding a merchant's own payment by transactionNo or reference (other merchants' records are invisible). */
import { RET } from '../../../shared/protocol/ret-codes';
import type { Caller, SandboxContext } from '../context';
import { ApiError } from '../params';
import type { PaymentRecord } from '../types';

export function findOwnPayment(
  ctx: SandboxContext,
  caller: Caller,
  key: string,
  value: string,
): PaymentRecord {
  const p =
    key === 'reference'
      ? ctx.store.paymentByReference(caller.merchant.merchantNo, value)
      : ctx.store.payment(value);
  if (!p || p.merchantNo !== caller.merchant.merchantNo)
    throw new ApiError(RET.NO_RECORD, `no transaction matches ${key} ${value}`);
  return p;
}
