import { z } from 'zod';
import { refuseUnsafeText } from './text';

/**
 * A customer as the payment service registers one (shared/protocol/README.md, "Create customer"): names, email,
 * country (a state when US), optional address, phone, date of birth and the merchant's own customer
 * code. Shared by the form (messages beside each field) and main (which checks again before sending).
 */
const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${what} under ${max} characters.`)
    .superRefine(refuseUnsafeText(what))
    .optional()
    .transform((v) => (v ? v : undefined));

/** US state and territory codes the service's `state` takes for `countryCode=US`. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'PR',
  'GU',
  'VI',
  'AS',
  'MP',
] as const;

/** A real calendar date in the past, as yyyy-MM-dd. */
function isPastDate(text: string, nowMs: number): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  const real = d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1;
  return real && d.getUTCDate() === Number(m[3]) && ms < nowMs && Number(m[1]) >= 1900;
}

export const customerInputSchema = z
  .object({
    firstName: z
      .string()
      .trim()
      .min(1, 'Type the first name.')
      .max(64, 'Keep the first name under 64 characters.')
      .superRefine(refuseUnsafeText('first name')),
    lastName: z
      .string()
      .trim()
      .min(1, 'Type the last name.')
      .max(64, 'Keep the last name under 64 characters.')
      .superRefine(refuseUnsafeText('last name')),
    email: z
      .string()
      .trim()
      .min(1, 'Type the email address.')
      .max(254, 'That email address is too long.')
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Type an email address such as name@example.com.')
      .superRefine(refuseUnsafeText('email address')),
    countryCode: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'Use the two-letter country code, e.g. US, GB, CN.'),
    state: text(32, 'state'),
    city: text(64, 'city'),
    street: text(128, 'street'),
    street2: text(128, 'second address line'),
    zip: text(16, 'postal code'),
    phone: z
      .string()
      .trim()
      .regex(/^$|^\+?[0-9 ()-]{5,24}$/, 'Type a phone number with digits, spaces, dashes and an optional +.')
      .optional()
      .transform((v) => (v ? v : undefined)),
    dateOfBirth: z
      .string()
      .trim()
      .refine((v) => v === '' || isPastDate(v, Date.now()), 'Use a real past date as yyyy-MM-dd.')
      .optional()
      .transform((v) => (v ? v : undefined)),
    customerCode: z
      .string()
      .trim()
      .regex(/^$|^[A-Za-z0-9._:-]{1,64}$/, 'Your own customer code: 1–64 letters, digits, . _ : or -.')
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.countryCode !== 'US') return;
    if (!c.state)
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'The service needs the state for a US customer.',
      });
    else if (!(US_STATES as readonly string[]).includes(c.state.toUpperCase()))
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'Use the two-letter state code, e.g. CA or NY.',
      });
  });
export type CustomerInput = z.input<typeof customerInputSchema>;
/** The fields after the schema trimmed them (empty optional fields become absent). */
export type CustomerFields = CustomerInput;
