import fc from 'fast-check';
import { withProfile } from '../../fakes/scope';
import type { InvokeChannel } from '../../../shared/ipc/channels';

/**
 * Generators of hostile IPC payloads: what a compromised renderer can send through Electron's structured
 * clone (or the browser host's JSON). Values a schema might not expect (NaN, -0, 2^53, BigInt, Map,
 * typed arrays, null-prototype objects, sparse arrays), text that hides (NUL, bidi overrides), text that
 * is too long, ids that are not ids, and prototype-pollution keys.
 */
const TX = '297553638300708562';

/** One well-formed input per channel: mutated one field at a time into hostile variants. */
const RAW_SAMPLES: Readonly<Record<InvokeChannel, unknown>> = {
  'app.info': undefined,
  'app.health': undefined,
  'app.bootstrap': undefined,
  'app.openExternal': { url: 'https://docs.pockyt.io/' },
  'app.reportError': { correlationId: 'R-TEST-0001', source: 'window.onerror', message: 'boom' },
  'profiles.list': undefined,
  'profiles.save': {
    name: 'Fuzzed store',
    merchantNo: '200043',
    storeNo: '300014',
    environment: 'custom',
    baseUrl: 'https://mapi.example.test',
    ipnEnabled: false,
    operatorName: 'Ann',
    guardrails: { limits: [{ currency: 'USD', maxSingleMinor: 10_000 }] },
  },
  'profiles.delete': { id: 'P0000000000000000' },
  'profiles.activate': { id: 'P0000000000000000' },
  'profiles.setToken': { id: 'P0000000000000000', token: 'abcdefgh12345678' },
  'profiles.clearToken': { id: 'P0000000000000000' },
  'profiles.testConnection': { id: 'P0000000000000000' },
  'transactions.lookup': { query: TX },
  'transactions.refresh': { transactionNos: [TX] },
  'transactions.sync': { startDate: '20260101', endDate: '20260110' },
  'reconciliation.create': {
    label: 'ledger.csv',
    file: {
      name: 'ledger.csv',
      encoding: 'utf-8',
      delimiter: ',',
      dataRows: 1,
      decimal: '.',
      decimalSource: 'detected',
      dateOrder: 'ymd',
      dateOrderSource: 'default',
    },
    mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Currency' },
    options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
  },
  'reconciliation.addInput': {
    runId: 'RC0000000000',
    rows: [{ line: 2, transactionNo: TX, amountMinor: 100, currency: 'USD', status: 'paid' }],
  },
  'reconciliation.start': { runId: 'RC0000000000' },
  'reconciliation.pause': { runId: 'RC0000000000' },
  'reconciliation.resume': { runId: 'RC0000000000' },
  'reconciliation.cancel': { runId: 'RC0000000000' },
  'reconciliation.get': { runId: 'RC0000000000' },
  'reconciliation.list': undefined,
  'reconciliation.report': { runId: 'RC0000000000' },
  'reconciliation.items': { runId: 'RC0000000000', offset: 0, limit: 10 },
  'reconciliation.recheck': { runId: 'RC0000000000' },
  'reconciliation.demoLedger': undefined,
  'reconciliation.exceptions': { runId: 'RC0000000000', filter: { states: ['open'], owner: 'Ann' } },
  'reconciliation.updateException': {
    runId: 'RC0000000000',
    exceptionId: 'i3',
    version: 0,
    state: 'explained',
    owner: 'Ann',
    note: 'Fee booked apart.',
  },
  'reconciliation.matchException': {
    runId: 'RC0000000000',
    exceptionId: 'i3',
    version: 0,
    kind: 'payment',
    id: TX,
    reason: 'Same order.',
  },
  'reconciliation.signOff': { runId: 'RC0000000000', comment: 'June closed.', open: ['i3'] },
  'reconciliation.awaitingSignOff': {},
  'reconciliation.audit': { runId: 'RC0000000000' },
  'refunds.preview': { transactionNo: TX },
  'refunds.submit': {
    transactionNo: TX,
    amountMinor: 100,
    currency: 'USD',
    reasonCode: 'other',
    reasonNote: 'customer asked',
    confirmation: { overLimit: true, typedAmount: '1.00' },
  },
  'refunds.list': undefined,
  'refunds.checkAgain': { id: 'RD0000000000' },
  'refunds.closeNotSent': { id: 'RD0000000000', confirmation: 'NOT SENT' },
  'refunds.batchDryRun': {
    file: {
      name: 'batch.csv',
      base64: Buffer.from(`Transaction No,Amount,Currency,Reason\r\n${TX},1.00,USD,recall\r\n`).toString(
        'base64',
      ),
    },
  },
  'refunds.batchStart': {
    file: {
      name: 'batch.csv',
      base64: Buffer.from(`Transaction No,Amount,Currency,Reason\r\n${TX},1.00,USD,recall\r\n`).toString(
        'base64',
      ),
    },
  },
  'refunds.batchPause': { batchId: 'RB0000000000' },
  'refunds.batchCancel': { batchId: 'RB0000000000' },
  'refunds.batchApprove': { batchId: 'RB0000000000', typedTotals: ['1.00 USD'] },
  'refunds.batchReject': {
    profileId: 'P0000000000000000',
    batchId: 'RB0000000000',
    comment: 'Wrong file: these were refunded by hand',
  },
  'refunds.batchList': {
    profileId: 'P0000000000000000',
    limit: 20,
    before: 'RB0000000000',
    awaitingApproval: true,
  },
  'refunds.batchStatus': { batchId: 'RB0000000000' },
  'refunds.batchReport': { batchId: 'RB0000000000' },
  'audit.list': undefined,
  'approvals.list': { profileId: 'P0000000000000000' },
  'approvals.approveAndSend': {
    profileId: 'P0000000000000000',
    id: 'RD0000000000',
    confirmation: { overLimit: true, typedAmount: '1.00' },
  },
  'approvals.reject': { profileId: 'P0000000000000000', id: 'RD0000000000', comment: 'Wrong payment.' },
  'approvals.cancel': { profileId: 'P0000000000000000', id: 'RD0000000000', comment: 'Asked twice.' },
  'approvals.whoAmI': undefined,
  'approvals.approvers': { profileId: 'P0000000000000000', id: 'RD0000000000' },
  'customers.list': undefined,
  'customers.register': {
    profileId: 'P0000000000000000',
    customer: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', countryCode: 'US', state: 'CA' },
  },
  'payments.list': undefined,
  'payments.createCheckout': {
    profileId: 'P0000000000000000',
    kind: 'link',
    amountMinor: 2500,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'alipay',
    reference: 'PAYFUZZ0001',
    description: 'phone order',
    note: 'fuzz',
    goods: [{ name: 'Mug', quantity: 2 }],
    timeoutMin: 30,
  },
  'payments.captureCard': {
    profileId: 'P0000000000000000',
    amountMinor: 4200,
    currency: 'USD',
    reference: 'PAYFUZZ0002',
    saveCard: false,
    card: { number: '4242424242424242', expMonth: '12', expYear: '2031', cvv: '123' },
  },
  'payments.chargeMethod': {
    profileId: 'P0000000000000000',
    methodId: 'PM0000000000',
    amountMinor: 1500,
    currency: 'USD',
    reference: 'PAYFUZZ0003',
    confirmation: { typedAmount: '15.00' },
  },
  'payments.checkAgain': { id: 'PY0000000000' },
  'payments.openPage': { id: 'PY0000000000', page: 'checkout' },
  'payments.audit': undefined,
  'payments.timeline': { transactionNo: TX },
  'payments.addNote': { transactionNo: TX, text: 'Customer called about this payment.' },
  'team.status': undefined,
  'team.settings': undefined,
  'team.save': {
    address: 'postgres://db.example.test:5432/refunds',
    caFile: '/etc/ssl/team-ca.pem',
    login: 'alice',
  },
  'team.forget': undefined,
  'team.setPassword': { password: 'Alice-pw-1234' },
  'team.testConnection': {
    address: 'postgres://127.0.0.1:9/refunds',
    caFile: '/etc/ssl/team-ca.pem',
    login: 'alice',
    password: 'Alice-pw-1234',
  },
};

/** A profile id of the right shape: account-scoped samples name it (they are refused: no such profile). */
export const SAMPLE_PROFILE = 'P0000000000000000';

/** One valid input per channel; account-scoped ones name a profile, as every such call must. */
export const VALID_SAMPLES = Object.fromEntries(
  Object.entries(RAW_SAMPLES).map(([channel, input]) => [
    channel,
    withProfile(channel, input, SAMPLE_PROFILE),
  ]),
) as Readonly<Record<InvokeChannel, unknown>>;

/**
 * Characters stored text refuses (shared/domain/text.ts): controls, Bidi_Control, U+2028/2029, invisible
 * (default-ignorable) characters, noncharacters and lone surrogates.
 */
export const HIDING_CHARACTERS = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u2060',
  '\u00ad',
  '\u3164',
  '\ufeff',
  '\ufff9',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
] as const;

const HOSTILE_CONSTANTS: unknown[] = [
  NaN,
  Infinity,
  -Infinity,
  -0,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -1,
  0.1,
  1e21,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'Refunds \u202e001$',
  '\u2066hidden\u2069',
  '\u200f',
  '\r\n\t',
  'x'.repeat(100_001),
  '9'.repeat(64),
  '1e3',
  '0x10',
  '-12.30',
  '=HYPERLINK("https://evil.example")',
  '<img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '%2e%2e%2f',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'https://user:pass@www.yuansfer.com/',
  'RD' + 'A'.repeat(200),
  '__proto__',
  null,
  true,
  false,
  [],
  {},
  [[[[[[[[[[]]]]]]]]]],
  new Array(300_001).fill('tx:297553638300708562'),
  Object.create(null) as object,
  JSON.parse('{"__proto__":{"polluted":true}}') as object,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as object,
  new Date(NaN),
  new Map([['id', 'P1']]),
  new Set(['P1']),
  new Uint8Array(16),
  10n,
];

/** Any value a hostile renderer could send, weighted towards the nasty ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS), weight: 3 },
  {
    arbitrary: fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBoxedValues: true,
    }),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
);

/** A hostile variant of a valid sample: one field changed, dropped or added, or the whole input replaced. */
export function mutate(sample: unknown): fc.Arbitrary<unknown> {
  if (!sample || typeof sample !== 'object') return hostileValue;
  const keys = Object.keys(sample);
  const set = fc.record({ key: fc.constantFrom(...keys), value: hostileValue }).map(({ key, value }) => ({
    ...(sample as object),
    [key]: value,
  }));
  const drop = fc.constantFrom(...keys).map((key) => {
    const copy: Record<string, unknown> = { ...(sample as object) };
    delete copy[key];
    return copy;
  });
  const extra = fc
    .record({
      key: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
      value: hostileValue,
    })
    .map(({ key, value }) => {
      const copy: Record<string, unknown> = { ...(sample as object) };
      Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    });
  return fc.oneof({ arbitrary: set, weight: 4 }, drop, extra, hostileValue);
}
