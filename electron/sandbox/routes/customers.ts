/** `/v1/customers/create`: registers a customer; the response uses the key `customer`. */
import { toServiceDateTime } from '../../../shared/protocol/time';
import { bad, enumParam, opt, req, requireAll, textParam } from '../params';
import type { RouteHandler } from './types';

export const createCustomer: RouteHandler = (ctx, caller, p) => {
  requireAll(p, ['timestamp', 'firstName', 'lastName', 'email', 'countryCode']);
  const countryCode = req(p, 'countryCode');
  if (countryCode === 'US') req(p, 'state');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(req(p, 'timestamp')))
    throw bad('timestamp must be yyyy-MM-ddTHH:mm:ssZ (UTC)');
  if (!/^[A-Z]{2}$/.test(countryCode)) throw bad('countryCode must be 2 capital letters');
  const email = req(p, 'email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw bad('email is not a valid address');
  const dob = opt(p, 'dateOfBirth');
  if (dob !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(dob)) throw bad('dateOfBirth must be yyyy-MM-dd');
  enumParam(p, 'profileType', ['INDIVIDUAL', 'BUSINESS'], false);
  const firstName = textParam(p, 'firstName', 64) ?? '';
  const lastName = textParam(p, 'lastName', 64) ?? '';
  const customerCode = textParam(p, 'customerCode', 64);
  const createdAt = ctx.now();
  const customerNo = ctx.ids.customerNo();
  ctx.store.addCustomer({
    customerNo,
    merchantNo: caller.merchant.merchantNo,
    ...(customerCode ? { customerCode } : {}),
    firstName,
    lastName,
    email,
    countryCode,
    createdAt,
  });
  return {
    customer: {
      customerNo,
      customerCode: customerCode ?? '',
      firstName,
      lastName,
      email,
      createdTime: toServiceDateTime(createdAt),
    },
  };
};
