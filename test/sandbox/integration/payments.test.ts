import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { PATHS, VALID_CARD, call, securePayParams, startTestSandbox, uniqueRef } from './helpers';

let sb: RunningSandbox;
let clockOffset = 0;
beforeAll(async () => {
  sb = await startTestSandbox({ now: () => Date.now() + clockOffset });
});
afterAll(() => sb.close());

async function status(transactionNo: string): Promise<string> {
  const env = await call(sb, PATHS.tranQuery, { transactionNo });
  return String(env.result?.status);
}

/** Submits a hosted-page form (Pay/Fail/Cancel/Approve/Deny) without following the redirect. */
async function submit(pageUrl: string, verb: string): Promise<Response> {
  const page = await (await fetch(pageUrl)).text();
  const action = new RegExp(`action="([^"]*/${verb})"`).exec(page)?.[1];
  expect(action, `form ${verb} on page`).toBeDefined();
  return fetch(new URL(action!, pageUrl), { method: 'POST', redirect: 'manual' });
}

describe('customers/create', () => {
  const base = {
    timestamp: '2024-05-01T10:00:00Z',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    countryCode: 'GB',
  };
  it('returns a 22-digit customerNo under the key customer', async () => {
    const env = await call(sb, PATHS.customers, { ...base, customerCode: 'C-1' });
    expect(env.ret_code).toBe('000100');
    expect(env.result).toBeUndefined();
    expect(env.customer).toMatchObject({ customerCode: 'C-1', firstName: 'Ada', email: 'ada@example.com' });
    expect(env.customer?.customerNo).toMatch(/^\d{22}$/);
  });
  it('rules: required fields, state for US, email and country format', async () => {
    expect((await call(sb, PATHS.customers, { ...base, email: '' })).ret_code).toBe('000020');
    expect((await call(sb, PATHS.customers, { ...base, countryCode: 'US' })).ret_code).toBe('000020');
    expect((await call(sb, PATHS.customers, { ...base, countryCode: 'US', state: 'CA' })).ret_code).toBe(
      '000100',
    );
    expect((await call(sb, PATHS.customers, { ...base, email: 'nope' })).ret_code).toBe('000023');
    expect((await call(sb, PATHS.customers, { ...base, countryCode: 'GBR' })).ret_code).toBe('000023');
    expect((await call(sb, PATHS.customers, { ...base, timestamp: '2024-05-01 10:00:00' })).ret_code).toBe(
      '000023',
    );
  });
});

describe('secure-pay rules', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['missing amount', { amount: '' }, '000020'],
    ['missing ipnUrl', { ipnUrl: '' }, '000020'],
    ['missing callbackUrl (not YIP)', { callbackUrl: '' }, '000020'],
    ['WAP without osType', { terminal: 'WAP' }, '000020'],
    ['unknown vendor', { vendor: 'bitcoin' }, '000023'],
    ['unknown terminal', { terminal: 'POS' }, '000023'],
    ['vendor does not take currency', { vendor: 'creditcard', currency: 'CNY' }, '000023'],
    ['settleCurrency must be USD', { settleCurrency: 'CNY' }, '000023'],
    ['GBP settles in GBP', { currency: 'GBP', settleCurrency: 'USD' }, '000023'],
    ['YIP only for some vendors', { terminal: 'YIP', vendor: 'alipay' }, '000023'],
    ['three decimals', { amount: '1.005' }, '000023'],
    ['zero amount', { amount: '0.00' }, '000023'],
    ['negative amount', { amount: '-1.00' }, '000023'],
    ['KRW with a fraction', { currency: 'KRW', amount: '100.50' }, '000023'],
    ['bad ipnUrl', { ipnUrl: 'ftp://x' }, '000023'],
    ['note too long', { note: 'x'.repeat(101) }, '000023'],
    ['bad goodsInfo', { goodsInfo: '{"goods_name":"x"}' }, '000023'],
    ['bad timeout', { timeout: '0' }, '000023'],
    ['bad creditType', { creditType: 'loan' }, '000023'],
    ['vault with a non-vault vendor', { creditType: 'vault', vendor: 'wechatpay' }, '000023'],
    ['recurring without paymentCount', { creditType: 'recurring', frequency: '30' }, '000020'],
    ['unknown vaultId', { vendor: 'creditcard', vaultId: 'pp_' + '0'.repeat(32) }, '000021'],
    ['unknown customerNo', { customerNo: '1'.repeat(22) }, '000021'],
  ];
  for (const [name, over, code] of cases) {
    it(`${name} → ${code}`, async () => {
      const before = sb.state.counts().payments;
      expect((await call(sb, PATHS.securePay, securePayParams(over))).ret_code).toBe(code);
      expect(sb.state.counts().payments).toBe(before);
    });
  }
  it('accepted currency combinations', async () => {
    const combos: Record<string, string>[] = [
      { vendor: 'alipay', currency: 'CNY', settleCurrency: 'GBP' },
      { vendor: 'alipay', currency: 'GBP', settleCurrency: 'GBP' },
      { vendor: 'alipay', currency: 'KRW', settleCurrency: 'USD', amount: '1000' },
      { vendor: 'truemoney', currency: 'THB', settleCurrency: 'USD' },
      { vendor: 'wechatpay', currency: 'CNY', settleCurrency: 'USD', terminal: 'WAP', osType: 'IOS' },
    ];
    for (const over of combos) {
      const env = await call(sb, PATHS.securePay, securePayParams(over));
      expect([over, env.ret_code]).toEqual([over, '000100']);
    }
  });
  it('returns 2-decimal amounts and an 18-digit transactionNo; the reference cannot be reused', async () => {
    const params = securePayParams({ amount: '5', goodsInfo: '[{"goods_name":"Tea","quantity":"1"}]' });
    const env = await call(sb, PATHS.securePay, params);
    expect(env.result).toMatchObject({
      amount: '5.00',
      currency: 'USD',
      settleCurrency: 'USD',
      reference: params.reference,
    });
    expect(env.result?.transactionNo).toMatch(/^\d{18}$/);
    expect(await status(String(env.result?.transactionNo))).toBe('init');
    const again = await call(sb, PATHS.securePay, { ...params, amount: '6.00' });
    expect(again.ret_code).toBe('000022');
  });
  it('terminal=YIP returns authorization instead of cashierUrl', async () => {
    const env = await call(
      sb,
      PATHS.securePay,
      securePayParams({ terminal: 'YIP', vendor: 'paypal', callbackUrl: '' }),
    );
    expect(env.ret_code).toBe('000100');
    expect(env.result?.cashierUrl).toBeUndefined();
    const auth = JSON.parse(
      Buffer.from(String(env.result?.authorization), 'base64').toString('utf8'),
    ) as Record<string, string>;
    expect(auth).toMatchObject({
      environment: 'sandbox',
      vendor: 'paypal',
      transactionNo: env.result?.transactionNo,
    });
    expect(sb.completePayment(String(env.result?.transactionNo), 'success')).toBe(true);
    expect(await status(String(env.result?.transactionNo))).toBe('success');
  });
});

describe('hosted checkout page', () => {
  for (const [verb, expected, finalStatus] of [
    ['pay', 'success', 'success'],
    ['fail', 'failed', 'failed'],
    ['cancel', 'cancelled', 'init'],
  ] as const) {
    it(`${verb} redirects to the callbackUrl with values substituted`, async () => {
      const params = securePayParams({ amount: '12.5', reference: uniqueRef('a&b c') });
      const env = await call(sb, PATHS.securePay, params);
      const cashierUrl = String(env.result?.cashierUrl);
      const html = await (await fetch(cashierUrl)).text();
      expect(html).toContain('12.50 USD');
      expect(html).toContain(params.reference!.replace('&', '&#38;'));
      const res = await submit(cashierUrl, verb);
      expect(res.status).toBe(303);
      const loc = new URL(res.headers.get('location')!);
      expect(loc.origin + loc.pathname).toBe('https://merchant.example/return');
      expect(Object.fromEntries(loc.searchParams)).toEqual({
        s: expected,
        a: '12.50',
        r: params.reference,
        t: env.result?.transactionNo,
      });
      expect(await status(String(env.result?.transactionNo))).toBe(finalStatus);
    });
  }
  it('escapes interpolated text and refuses a second payment', async () => {
    const env = await call(
      sb,
      PATHS.securePay,
      securePayParams({ description: '<script>alert(1)</script>' }),
    );
    const url = String(env.result?.cashierUrl);
    const html = await (await fetch(url)).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
    expect((await submit(url, 'pay')).status).toBe(303);
    expect((await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(409);
    expect((await fetch(`${sb.baseUrl}/checkout/${'0'.repeat(32)}`)).status).toBe(404);
  });
  it('an unpaid payment closes after its timeout', async () => {
    const env = await call(sb, PATHS.securePay, securePayParams({ timeout: '2' }));
    const no = String(env.result?.transactionNo);
    clockOffset = 60_000;
    expect(await status(no)).toBe('init');
    clockOffset = 2 * 60_000 + 1;
    try {
      expect(await status(no)).toBe('closed');
      const res = await fetch(`${String(env.result?.cashierUrl)}/pay`, {
        method: 'POST',
        redirect: 'manual',
      });
      expect(res.status).toBe(409);
    } finally {
      clockOffset = 0;
    }
  });
});

describe('capture', () => {
  const capture = (over: Record<string, string>) =>
    call(sb, PATHS.capture, {
      amount: '20.00',
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'creditcard',
      terminal: 'ONLINE',
      reference: uniqueRef('CAP'),
      cardNumber: '4242424242424242',
      ...VALID_CARD,
      ...over,
    });

  it('4242… succeeds at once and only the last 4 digits are kept', async () => {
    const env = await capture({});
    expect(env.ret_code).toBe('000100');
    expect(env.result).toMatchObject({ status: 'success', amount: '20.00', cardLast4: '4242' });
    expect(String(env.result?.paymentTime)).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    const snapshot = JSON.stringify(sb.state.snapshot());
    expect(snapshot).not.toContain('4242424242424242');
  });
  it('card checks: Luhn, expiry, month, cvv, vendor, missing fields', async () => {
    const year = new Date().getUTCFullYear();
    expect((await capture({ cardNumber: '4242424242424241' })).ret_code).toBe('000023');
    expect((await capture({ cardExpYear: String(year - 1) })).ret_code).toBe('000023');
    expect((await capture({ cardExpMonth: '13' })).ret_code).toBe('000023');
    expect((await capture({ cardExpYear: '27' })).ret_code).toBe('000023');
    expect((await capture({ cardCvv: '12' })).ret_code).toBe('000023');
    expect((await capture({ vendor: 'alipay' })).ret_code).toBe('000023');
    expect((await capture({ cardCvv: '' })).ret_code).toBe('000020');
    expect((await capture({ currency: 'CNY' })).ret_code).toBe('000023');
  });
  it('4000000000000002 is declined (000080) and recorded as failed', async () => {
    const env = await capture({ cardNumber: '4000000000000002' });
    expect(env.ret_code).toBe('000080');
    expect(env.result?.status).toBe('failed');
    expect(await status(String(env.result?.transactionNo))).toBe('failed');
  });
  for (const [verb, finalStatus] of [
    ['approve', 'success'],
    ['deny', 'failed'],
  ] as const) {
    it(`4000000000003220 needs 3-D Secure: ${verb} → ${finalStatus}`, async () => {
      const env = await capture({
        cardNumber: '4000000000003220',
        callbackUrl: 'https://shop.example/back/{status}/{transactionNo}',
      });
      expect(env.ret_code).toBe('000100');
      expect(env.result?.status).toBe('pending');
      expect(env.result?.authUrl).toBe(env.result?.authenticationUrl);
      const no = String(env.result?.transactionNo);
      expect(await status(no)).toBe('pending');
      const res = await submit(String(env.result?.authUrl), verb);
      expect(res.headers.get('location')).toBe(`https://shop.example/back/${finalStatus}/${no}`);
      expect(await status(no)).toBe(finalStatus);
    });
  }
  it('creditType=vault yields a vaultId that later charges without card data (capture and secure-pay)', async () => {
    const first = await capture({ creditType: 'vault' });
    expect(first.ret_code).toBe('000100');
    const vaultId = String(first.result?.vaultId);
    expect(vaultId).toMatch(/^pp_[0-9a-f]{32}$/);
    const {
      cardNumber: _c,
      cardExpYear: _y,
      cardExpMonth: _m,
      cardCvv: _v,
      ...noCard
    } = { cardNumber: '', ...VALID_CARD };
    const again = await call(sb, PATHS.capture, {
      amount: '7.00',
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'creditcard',
      terminal: 'ONLINE',
      reference: uniqueRef('V'),
      vaultId,
      ...noCard,
    });
    expect(again.result).toMatchObject({ status: 'success', vaultId, cardLast4: '4242' });
    const sp = await call(sb, PATHS.securePay, securePayParams({ vendor: 'creditcard', vaultId }));
    expect(sp.result).toMatchObject({ status: 'success', vaultId });
    expect(sp.result?.cashierUrl).toBeUndefined();
    expect(
      (
        await call(sb, PATHS.capture, {
          amount: '7.00',
          currency: 'USD',
          settleCurrency: 'USD',
          vendor: 'creditcard',
          terminal: 'ONLINE',
          reference: uniqueRef('V'),
          vaultId,
          cardNumber: '4242424242424242',
        })
      ).ret_code,
    ).toBe('000022');
    // Another merchant cannot use it.
    const m = sb.merchants[1]!;
    const other = await call(
      sb,
      PATHS.capture,
      {
        amount: '7.00',
        currency: 'USD',
        settleCurrency: 'USD',
        vendor: 'creditcard',
        terminal: 'ONLINE',
        reference: uniqueRef('V'),
        vaultId,
      },
      { creds: { merchantNo: m.merchantNo, storeNo: m.storeNos[0]!, token: m.token } },
    );
    expect(other.ret_code).toBe('000021');
  });
  it('secure-pay creditType=vault stores the method when the payer pays', async () => {
    const env = await call(sb, PATHS.securePay, securePayParams({ vendor: 'paypal', creditType: 'vault' }));
    await submit(String(env.result?.cashierUrl), 'pay');
    const q = await call(sb, PATHS.tranQuery, { transactionNo: String(env.result?.transactionNo) });
    expect(q.result?.vaultId).toMatch(/^pp_[0-9a-f]{32}$/);
  });
});
