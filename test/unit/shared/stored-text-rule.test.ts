import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AppError } from '../../../shared/domain/errors';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../shared/ipc/channels';
import { contract } from '../../../shared/ipc/contract';
import { createDispatcher, type HandlerMap } from '../../../electron/core/ipc/dispatcher';
import { createFakeLogger } from '../../fakes/logger';
import { VALID_SAMPLES } from '../fuzz/hostile';

/**
 * The one stored-text rule (shared/domain/text.ts), applied in the IPC contract: every free-text field
 * that crosses IPC and is stored or sent on refuses every character that can hide or break an export,
 * through the real contract and dispatcher — the table is every such field × every such character. A
 * second test walks the contract's input schemas, so a text field added later without the rule (or
 * without a reason it needs none) fails here.
 */

const TX = '297553638300708562';
const P = 'P0000000000000000';

/** Characters the rule refuses, with the code the message names. */
const BAD: readonly (readonly [string, string])[] = [
  ['\u0000', 'U+0000'],
  ['\u001b', 'U+001B'],
  ['\u007f', 'U+007F'],
  ['\u0085', 'U+0085'],
  ['\u202e', 'U+202E'],
  ['\u2066', 'U+2066'],
  ['\u2028', 'U+2028'],
  ['\ud800', 'U+D800'],
  ['\udc00', 'U+DC00'],
  ['\ufeff', 'U+FEFF'],
  ['\u200b', 'U+200B'],
  ['\u2060', 'U+2060'],
  ['\u00ad', 'U+00AD'],
  ['\u3164', 'U+3164'],
  ['\u{e0041}', 'U+E0041'],
  ['\ufff9', 'U+FFF9'],
  ['\uffff', 'U+FFFF'],
  ['\ufffe', 'U+FFFE'],
  ['\ufdd0', 'U+FDD0'],
];

const transaction = {
  transactionNo: TX,
  reference: 'ORDER-1001',
  amountMinor: 1000,
  currency: 'USD',
  status: 'success',
  vendor: 'alipay',
  transactionType: 'payment',
  createdAt: '2025-06-03T01:02:03.000Z',
  refunds: [],
};

/** A valid input per channel with every text field filled (the fuzz samples, completed). */
const FULL: Partial<Record<InvokeChannel, Record<string, unknown>>> = {
  'profiles.save': {
    id: P,
    name: 'Main store',
    merchantNo: '200043',
    storeNo: '300014',
    environment: 'custom',
    baseUrl: 'https://mapi.example.test',
    operatorName: 'Ann Lee',
    merGroupNo: '12345',
  },
  'profiles.setToken': { id: P, token: 'abcdefgh12345678' },
  'transactions.lookup': { profileId: P, query: 'ORDER-1001', candidates: [TX] },
  'reconciliation.create': {
    profileId: P,
    label: 'June ledger',
    file: {
      name: 'ledger june.csv',
      encoding: 'utf-8',
      kind: 'xlsx',
      sheet: 'Ledger',
      delimiter: ',',
      dataRows: 2,
      decimal: '.',
      decimalSource: 'detected',
      dateOrder: 'ymd',
      dateOrderSource: 'default',
    },
    mapping: {
      transactionNo: 'Txn No',
      reference: 'Order ref',
      amount: 'Total',
      currency: 'Ccy',
      date: 'Order date',
      status: 'Order status',
      refunded: 'Refunded amount',
    },
    options: {
      period: { from: '2025-06-01', to: '2025-06-30' },
      days: 'local',
      timeZone: 'Europe/Berlin',
      dateToleranceDays: 1,
      refundLookbackDays: 90,
    },
  },
  'refunds.batchDryRun': {
    profileId: P,
    file: {
      name: 'recall list.csv',
      base64: Buffer.from(`Txn,Amt,Ccy,Why,Ref\r\n${TX},1.00,USD,recall,C-1\r\n`).toString('base64'),
    },
    mapping: {
      transactionNo: 'Txn',
      reference: 'Order ref',
      amount: 'Amt',
      currency: 'Ccy',
      reason: 'Why',
      rowRef: 'Ref',
    },
    sheet: 'Refunds',
  },
  'refunds.batchStart': {
    profileId: P,
    file: {
      name: 'recall list.csv',
      base64: Buffer.from(`Txn,Amt,Ccy,Why,Ref\r\n${TX},1.00,USD,recall,C-1\r\n`).toString('base64'),
    },
    mapping: {
      transactionNo: 'Txn',
      reference: 'Order ref',
      amount: 'Amt',
      currency: 'Ccy',
      reason: 'Why',
      rowRef: 'Ref',
    },
    sheet: 'Refunds',
  },
  'reconciliation.addInput': {
    profileId: P,
    runId: 'RC0000000000',
    rows: [
      {
        line: 2,
        transactionNo: TX,
        reference: 'ORDER-1001',
        amountMinor: 1000,
        currency: 'USD',
        date: '03/06/2025',
        day: '2025-06-03',
        status: 'paid',
        statusText: 'Paid in full',
        refundedMinor: 0,
        keyNote: 'Transaction No “6.2393E+17” looks shortened by Excel: matched by Order ID instead',
      },
    ],
    unusable: [
      {
        line: 3,
        reason: 'has no currency',
        cause: 'currency',
        fields: {
          transactionNo: 'not a number',
          reference: 'ORDER-1002',
          amount: '12.30',
          currency: 'dollars',
          date: 'yesterday',
        },
        raw: 'not a number,ORDER-1002,12.30,dollars,yesterday',
      },
    ],
    cached: [{ key: 'ref:ORDER-1001', transaction, fetchedAt: '2025-06-03T01:02:03.000Z' }],
  },
  'approvals.approveAndSend': {
    ...(VALID_SAMPLES['approvals.approveAndSend'] as object),
    account: { baseUrl: 'https://mapi.example.test', merchantNo: '200043' },
  },
  'refunds.submit': {
    ...(VALID_SAMPLES['refunds.submit'] as object),
    account: { baseUrl: 'https://mapi.example.test', merchantNo: '200043' },
  },
  'customers.register': {
    profileId: P,
    customer: {
      firstName: 'Ann Marie',
      lastName: 'Lee Smith',
      email: 'ann@example.com',
      countryCode: 'US',
      state: 'CA',
      city: 'San Jose',
      street: '1 Main Street',
      street2: 'Suite 200',
      zip: '95112',
      phone: '+1 408 555 0100',
      dateOfBirth: '1990-01-02',
      customerCode: 'C-1001',
    },
  },
  'payments.createCheckout': {
    ...(VALID_SAMPLES['payments.createCheckout'] as object),
    customerId: 'CU0000000000',
    callbackUrl: 'https://shop.example.test/thanks',
    ipnUrl: 'https://shop.example.test/ipn',
  },
  'payments.captureCard': {
    ...(VALID_SAMPLES['payments.captureCard'] as object),
    note: 'phone order',
    customerId: 'CU0000000000',
  },
  'payments.chargeMethod': { ...(VALID_SAMPLES['payments.chargeMethod'] as object), note: 'monthly' },
  'reconciliation.updateException': {
    profileId: P,
    runId: 'RUN-1',
    exceptionId: 'i12',
    version: 0,
    state: 'explained',
    owner: 'Ann Lee',
    note: 'timing difference, clears next month',
  },
  'reconciliation.matchException': {
    profileId: P,
    runId: 'RUN-1',
    exceptionId: 'i12',
    version: 0,
    kind: 'payment',
    id: TX,
    reason: 'same order, typed with another reference',
  },
  'reconciliation.signOff': {
    profileId: P,
    runId: 'RUN-1',
    comment: 'November closed; two timing differences carried',
    open: ['i12'],
  },
};

/**
 * Every free-text field that crosses IPC and is stored or sent on, and the name its message uses.
 * Paths as the schema walk below writes them (`[]`: the first element of a list).
 */
const FREE_TEXT: readonly (readonly [InvokeChannel, string, string])[] = [
  ['profiles.save', 'name', 'profile name'],
  ['profiles.save', 'operatorName', 'operator name'],
  ['profiles.save', 'baseUrl', 'service address'],
  ['profiles.setToken', 'token', 'API token'],
  ['transactions.lookup', 'query', 'search'],
  ['reconciliation.create', 'label', 'label'],
  ['reconciliation.create', 'file.name', 'file name'],
  ['reconciliation.create', 'file.sheet', 'sheet name'],
  ['reconciliation.create', 'mapping.transactionNo', 'column name'],
  ['reconciliation.create', 'mapping.reference', 'column name'],
  ['reconciliation.create', 'mapping.amount', 'column name'],
  ['reconciliation.create', 'mapping.currency', 'column name'],
  ['reconciliation.create', 'mapping.date', 'column name'],
  ['reconciliation.create', 'mapping.status', 'column name'],
  ['reconciliation.create', 'mapping.refunded', 'column name'],
  ['reconciliation.create', 'options.timeZone', 'time zone'],
  ['reconciliation.addInput', 'rows[].reference', 'reference'],
  ['reconciliation.addInput', 'rows[].date', 'date'],
  ['reconciliation.addInput', 'rows[].statusText', 'status'],
  ['reconciliation.addInput', 'rows[].keyNote', 'note'],
  ['reconciliation.addInput', 'unusable[].reason', 'reason'],
  ['reconciliation.addInput', 'unusable[].fields.transactionNo', 'transaction number'],
  ['reconciliation.addInput', 'unusable[].fields.reference', 'reference'],
  ['reconciliation.addInput', 'unusable[].fields.amount', 'amount'],
  ['reconciliation.addInput', 'unusable[].fields.currency', 'currency'],
  ['reconciliation.addInput', 'unusable[].fields.date', 'date'],
  ['reconciliation.addInput', 'unusable[].raw', 'row'],
  ['reconciliation.addInput', 'cached[].key', 'cached key'],
  ['refunds.submit', 'reasonNote', 'note'],
  ['refunds.batchDryRun', 'file.name', 'file name'],
  ['refunds.batchDryRun', 'mapping.transactionNo', 'column name'],
  ['refunds.batchDryRun', 'mapping.reference', 'column name'],
  ['refunds.batchDryRun', 'mapping.amount', 'column name'],
  ['refunds.batchDryRun', 'mapping.currency', 'column name'],
  ['refunds.batchDryRun', 'mapping.reason', 'column name'],
  ['refunds.batchDryRun', 'mapping.rowRef', 'column name'],
  ['refunds.batchDryRun', 'sheet', 'sheet'],
  ['refunds.batchStart', 'file.name', 'file name'],
  ['refunds.batchStart', 'mapping.transactionNo', 'column name'],
  ['refunds.batchStart', 'mapping.reference', 'column name'],
  ['refunds.batchStart', 'mapping.amount', 'column name'],
  ['refunds.batchStart', 'mapping.currency', 'column name'],
  ['refunds.batchStart', 'mapping.reason', 'column name'],
  ['refunds.batchStart', 'mapping.rowRef', 'column name'],
  ['refunds.batchStart', 'sheet', 'sheet'],
  ['customers.register', 'customer.firstName', 'first name'],
  ['customers.register', 'customer.lastName', 'last name'],
  ['customers.register', 'customer.email', 'email address'],
  ['customers.register', 'customer.state', 'state'],
  ['customers.register', 'customer.city', 'city'],
  ['customers.register', 'customer.street', 'street'],
  ['customers.register', 'customer.street2', 'second address line'],
  ['customers.register', 'customer.zip', 'postal code'],
  ['payments.createCheckout', 'note', 'note'],
  ['payments.createCheckout', 'description', 'description'],
  ['payments.createCheckout', 'goods[].name', 'item name'],
  ['payments.createCheckout', 'callbackUrl', 'return page address'],
  ['payments.createCheckout', 'ipnUrl', 'notification address'],
  ['payments.captureCard', 'note', 'note'],
  ['payments.chargeMethod', 'note', 'note'],
  ['reconciliation.updateException', 'owner', 'owner'],
  ['reconciliation.updateException', 'note', 'note'],
  ['reconciliation.matchException', 'reason', 'reason for the match'],
  ['reconciliation.signOff', 'comment', 'sign-off comment'],
  ['approvals.reject', 'comment', 'comment'],
  ['approvals.cancel', 'comment', 'comment'],
  ['refunds.batchReject', 'comment', 'comment'],
  ['payments.addNote', 'text', 'note'],
  ['team.save', 'address', 'team database address'],
  ['team.save', 'caFile', 'CA file path'],
  ['team.save', 'login', 'database login'],
  ['team.setPassword', 'password', 'password'],
  ['team.testConnection', 'address', 'team database address'],
  ['team.testConnection', 'caFile', 'CA file path'],
  ['team.testConnection', 'login', 'database login'],
  ['team.testConnection', 'password', 'password'],
];

/** Text fields held to a fixed pattern (digits, codes, dates, enums): refused by the pattern itself. */
const PATTERNED: readonly (readonly [InvokeChannel, string])[] = [
  ['app.reportError', 'correlationId'],
  ['transactions.refresh', 'transactionNos[]'],
  ['transactions.sync', 'startDate'],
  ['transactions.sync', 'endDate'],
  ['refunds.preview', 'transactionNo'],
  ['profiles.save', 'merchantNo'],
  ['profiles.save', 'storeNo'],
  ['profiles.save', 'merGroupNo'],
  ['transactions.lookup', 'candidates[]'],
  ['reconciliation.create', 'options.period.from'],
  ['reconciliation.create', 'options.period.to'],
  ['reconciliation.addInput', 'runId'],
  ['reconciliation.addInput', 'rows[].transactionNo'],
  ['reconciliation.addInput', 'rows[].day'],
  ['refunds.submit', 'transactionNo'],
  ['refunds.batchDryRun', 'file.base64'],
  ['refunds.batchStart', 'file.base64'],
  ['reconciliation.updateException', 'exceptionId'],
  ['reconciliation.matchException', 'exceptionId'],
  ['reconciliation.signOff', 'open[]'],
  ['customers.register', 'customer.countryCode'],
  ['customers.register', 'customer.phone'],
  ['customers.register', 'customer.dateOfBirth'],
  ['customers.register', 'customer.customerCode'],
  ['payments.createCheckout', 'reference'],
  ['payments.captureCard', 'reference'],
  ['payments.captureCard', 'card.expMonth'],
  ['payments.captureCard', 'card.expYear'],
  ['payments.captureCard', 'card.cvv'],
  ['payments.chargeMethod', 'reference'],
  ['payments.timeline', 'transactionNo'],
  ['payments.addNote', 'transactionNo'],
];

/**
 * Text that crosses IPC but is neither stored nor sent on as typed, each with why. Paths without a
 * channel apply to every channel.
 */
const NOT_STORED: Readonly<Record<string, string>> = {
  profileId: 'an id: looked up, never stored as given (an unknown one is refused)',
  id: 'an id: looked up, never stored as given (an unknown one is refused)',
  customerId: 'an id: looked up, never stored as given',
  methodId: 'an id: looked up, never stored as given',
  'app.openExternal url': "the app's own link: checked against the allowed addresses and opened, not stored",
  'app.reportError message':
    'a renderer exception for the log, not text a person typed: refusing it would lose the report',
  'app.reportError stack': 'as the message',
  runId: 'an id of a fixed pattern (letters, digits, - and _): looked up, never stored as given',
  batchId: 'an id of a fixed pattern (letters, digits, - and _): looked up, never stored as given',
  'refunds.batchStart typedTotals[]': "compared with the batch's totals (read as money), never stored",
  'refunds.batchApprove typedTotals[]': "compared with the batch's totals (read as money), never stored",
  'refunds.batchList before': 'a batch id of a fixed pattern: looked up, never stored as given',
  carryForwardOf: 'a run id of a fixed pattern: looked up, never stored as given',
  'reconciliation.exceptions filter.owner': 'a filter compared with the owners kept, never stored',
  'refunds.submit confirmation.typedAmount': 'compared with the amount (read as money), never stored',
  'refunds.submit account.baseUrl': "compared with the profile's address, never stored",
  'refunds.submit account.merchantNo': "compared with the profile's merchant number, never stored",
  'payments.captureCard card.number':
    'a card number: spaces and dashes removed, then 12–19 digits passing Luhn; never stored (last four only)',
  'refunds.closeNotSent confirmation': 'compared with “NOT SENT”, never stored',
  'approvals.approveAndSend confirmation.typedAmount':
    'compared with the amount (read as money), never stored',
  'approvals.approveAndSend account.baseUrl': "compared with the profile's address, never stored",
  'approvals.approveAndSend account.merchantNo': "compared with the profile's merchant number, never stored",
  'payments.chargeMethod confirmation.typedAmount': 'compared with the amount (read as money), never stored',
  'reconciliation.addInput cached[].transaction.*':
    "the service's own answer from the renderer's cache, not typed",
  'reconciliation.addInput cached[].fetchedAt': "the cache's own time stamp, not typed",
};

// ---- the schema walk: every string an input schema takes, by path ----

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown) => (s as { _zod: { def: Def } })._zod.def;

function stringPaths(schema: z.ZodType, path = '', out = new Set<string>()): Set<string> {
  const def = defOf(schema);
  const join = (k: string) => (path ? `${path}.${k}` : k);
  switch (def.type) {
    case 'object':
      for (const [k, v] of Object.entries(def['shape'] as Record<string, z.ZodType>))
        stringPaths(v, join(k), out);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      stringPaths(def['innerType'] as z.ZodType, path, out);
      break;
    case 'pipe':
      stringPaths(def['in'] as z.ZodType, path, out);
      break;
    case 'array':
      stringPaths(def['element'] as z.ZodType, `${path}[]`, out);
      break;
    case 'union':
      for (const o of def['options'] as z.ZodType[]) stringPaths(o, path, out);
      break;
    case 'string':
      out.add(path);
      break;
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'undefined':
    case 'custom':
      break;
    default:
      throw new Error(`the walk does not know ${def.type} (at ${path}): teach it`);
  }
  return out;
}

// ---- through the real dispatcher: handlers only record that the contract let the input through ----

const reached: { channel: string; input: unknown }[] = [];
const handlers = Object.fromEntries(
  INVOKE_CHANNELS.map((c) => [
    c,
    (input: unknown) => {
      reached.push({ channel: c, input });
      throw new AppError('conflict', 'reached the handler');
    },
  ]),
) as unknown as HandlerMap;
const dispatch = createDispatcher(handlers, createFakeLogger());

const keysOf = (path: string) =>
  path.split('.').flatMap((k) => (k.endsWith('[]') ? [k.slice(0, -2), 0] : [k]));

function getAt(value: unknown, path: string): unknown {
  return keysOf(path).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

function withAt(value: unknown, path: string, text: string): unknown {
  const copy = structuredClone(value);
  const keys = keysOf(path);
  const parent = keys
    .slice(0, -1)
    .reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], copy);
  (parent as Record<string | number, unknown>)[keys.at(-1)!] = text;
  return copy;
}

/** The field's good value with `c` put inside it (not at an end, which trimming would remove). */
function spliced(good: string, c: string): { text: string; at: number } {
  const at = Math.max(1, Math.floor(good.length / 2));
  return { text: `${good.slice(0, at)}${c}${good.slice(at)}`, at: at + 1 };
}

const inputOf = (channel: InvokeChannel) => FULL[channel] ?? VALID_SAMPLES[channel];

describe('one text rule for every stored text, in the IPC contract', () => {
  it.each(FREE_TEXT)(
    '%s %s: every hiding or unwritable character is refused, naming it and where',
    async (channel, path, label) => {
      const input = inputOf(channel);
      const good = getAt(input, path);
      expect(typeof good, `${channel} ${path} has a value in the sample`).toBe('string');
      // The sample itself passes the contract: each refusal below is the character's doing.
      reached.length = 0;
      expect(await dispatch(channel, input)).toMatchObject({ ok: false, error: { code: 'conflict' } });
      expect(reached).toHaveLength(1);

      reached.length = 0;
      for (const [c, code] of BAD) {
        const { text, at } = spliced(good as string, c);
        const answer = await dispatch(channel, withAt(input, path, text));
        expect(answer, `${code} in ${channel} ${path}`).toMatchObject({
          ok: false,
          error: { code: 'invalid_input' },
        });
        const message = answer.ok ? '' : answer.error.message;
        expect(message, `${code} in ${channel} ${path}`).toContain(`The ${label} contains ${code} (`);
        expect(message).toContain(`) at character ${at}, which can make it read differently`);
        expect(message).toContain('Retype it without that character.');
      }
      expect(reached, 'nothing with a refused character reached a handler').toEqual([]);
    },
  );

  it.each(PATTERNED)('%s %s: held to its pattern, so refused too', async (channel, path) => {
    const input = inputOf(channel);
    const good = getAt(input, path);
    expect(typeof good).toBe('string');
    reached.length = 0;
    expect(await dispatch(channel, input)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    reached.length = 0;
    for (const [c, code] of BAD) {
      const answer = await dispatch(channel, withAt(input, path, spliced(good as string, c).text));
      expect(answer, `${code} in ${channel} ${path}`).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    }
    expect(reached).toEqual([]);
  });

  it('every text field of every input is in one of the lists above', () => {
    const listed = new Set([
      ...FREE_TEXT.map(([c, p]) => `${c} ${p}`),
      ...PATTERNED.map(([c, p]) => `${c} ${p}`),
    ]);
    const unlisted: string[] = [];
    for (const channel of INVOKE_CHANNELS) {
      for (const path of stringPaths(contract[channel].input)) {
        const key = `${channel} ${path}`;
        const wildcard = `${channel} ${path.replace(/^(cached\[\]\.transaction)\..*$/, '$1.*')}`;
        if (listed.has(key) || NOT_STORED[key] || NOT_STORED[wildcard] || NOT_STORED[path]) continue;
        unlisted.push(key);
      }
    }
    expect(unlisted, 'text fields with neither the rule nor a reason').toEqual([]);
  });

  it('text in any script passes: accents, RTL letters, CJK, emoji with joiners, variation selectors and flags', async () => {
    const ordinary = [
      'Zürich Café',
      'متجر رئيسي',
      'שלום',
      '東京店',
      'नमस्ते',
      'Team 👩‍💻',
      '❤️ thanks',
      'Go 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland',
      'می‌خواهم',
      "O'Brien & Co",
    ];
    for (const [channel, path] of FREE_TEXT.filter(([, , label]) => /name|note|description/.test(label))) {
      if (path.startsWith('mapping.') || path === 'file.name') continue;
      for (const text of ordinary) {
        reached.length = 0;
        const answer = await dispatch(channel, withAt(inputOf(channel), path, text));
        expect(answer, `${text} in ${channel} ${path}`).toMatchObject({
          ok: false,
          error: { code: 'conflict' },
        });
        expect(getAt(reached[0]?.input, path)).toBe(text);
      }
    }
  });
});
