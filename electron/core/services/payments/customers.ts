import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { CustomerFields } from '../../../../shared/domain/customer';
import type { Clock, Logger } from '../ports';
import { type AuditWhat, createPaymentAuditor } from './audit';
import type { PaymentGateway } from './follow';
import type { PaymentContext } from './service';
import type { CustomerRecord, PaymentStore } from './store';

/**
 * Customer registration (`/v1/customers/create`). The service has no customer lookup, so the local list
 * is this desk's record of whom it registered; it keeps what finds a customer again (names, email,
 * country, customerNo, your code) — not the address, phone or date of birth, which only the service needs.
 */
export function createCustomerRegistry(deps: {
  store: PaymentStore;
  clock: Clock;
  log: Logger;
  newId: (prefix: string) => string;
  gatewayFor: (ctx: PaymentContext) => Pick<PaymentGateway, 'createCustomer'>;
  onCustomer?: (customerId: string) => void;
}) {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const record = createPaymentAuditor(deps);
  const audit = (ctx: PaymentContext, e: Omit<AuditWhat, 'action'>) =>
    record(ctx, { action: 'customer.register', ...e });

  return {
    async register(ctx: PaymentContext, f: CustomerFields): Promise<CustomerRecord> {
      const state = f.countryCode === 'US' && f.state ? f.state.toUpperCase() : f.state;
      let answer;
      try {
        answer = await deps.gatewayFor(ctx).createCustomer({
          firstName: f.firstName,
          lastName: f.lastName,
          email: f.email,
          countryCode: f.countryCode,
          ...(state ? { state } : {}),
          ...(f.city ? { city: f.city } : {}),
          ...(f.street ? { street: f.street } : {}),
          ...(f.street2 ? { street2: f.street2 } : {}),
          ...(f.zip ? { zip: f.zip } : {}),
          ...(f.phone ? { phone: f.phone } : {}),
          ...(f.dateOfBirth ? { dateOfBirth: f.dateOfBirth } : {}),
          ...(f.customerCode ? { customerCode: f.customerCode } : {}),
        });
      } catch (e) {
        const err = isAppError(e)
          ? e
          : new AppError('internal', 'Registering the customer failed inside Refund Desk.');
        const retCode = typeof err.details?.ret_code === 'string' ? err.details.ret_code : undefined;
        const retMsg = typeof err.details?.ret_msg === 'string' ? err.details.ret_msg : undefined;
        const unknown = err.code === 'outcome_unknown';
        audit(ctx, {
          outcome: unknown ? 'outcome_unknown' : 'rejected',
          subjectId: '',
          ...(f.customerCode ? { detail: `customer code ${f.customerCode}` } : {}),
          ...(retCode ? { retCode } : {}),
          ...(retMsg ? { retMsg } : {}),
        });
        if (unknown)
          throw new AppError(
            'outcome_unknown',
            'Refund Desk cannot tell whether the service registered this customer (its answer was lost). The service offers no customer lookup: registering again may create a second customer record there. No money is involved.',
            { details: err.details ?? {} },
          );
        throw err;
      }
      const record: CustomerRecord = {
        id: deps.newId('CU'),
        profileId: ctx.profileId,
        environment: ctx.environment,
        baseUrl: ctx.baseUrl,
        merchantNo: ctx.merchantNo,
        storeNo: ctx.storeNo,
        customerNo: answer.customerNo,
        ...(f.customerCode ? { customerCode: f.customerCode } : {}),
        firstName: f.firstName,
        lastName: f.lastName,
        email: f.email,
        countryCode: f.countryCode,
        ...(state ? { state } : {}),
        operator: ctx.operator,
        createdAt: iso(),
      };
      try {
        deps.store.customers.insert(record);
      } catch (e) {
        deps.log.error('customer.record_failed', { error: e instanceof Error ? e.message : '' });
        throw new AppError(
          'unavailable',
          `The service registered customer ${answer.customerNo}, but Refund Desk could not keep it in its list (${isAppError(e) ? e.message : 'storage failure'}). Note the customer number.`,
          { details: { customerNo: answer.customerNo } },
        );
      }
      audit(ctx, { outcome: 'registered', subjectId: record.id, customerNo: record.customerNo });
      deps.onCustomer?.(record.id);
      return record;
    },
  };
}
