import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeVerifySign } from '../../../shared/protocol/signing';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import {
  DEMO,
  PATHS,
  VECTORS,
  call,
  postRaw,
  securePayParams,
  startTestSandbox,
  uniqueRef,
  type Envelope,
} from './helpers';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const parse = (text: string) => JSON.parse(text) as Envelope;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('signing vectors are accepted', () => {
  it('vector 1 (secure-pay) passes the signature check and reaches validation', async () => {
    const v = VECTORS.vectors[0]!;
    const res = parse(
      (await postRaw(sb, PATHS.securePay, JSON.stringify({ ...v.params, verifySign: v.verifySign }))).text,
    );
    // The published example predates settleCurrency, which secure-pay requires (shared/protocol/README.md).
    expect(res.ret_code).toBe('000020');
    expect(res.ret_msg).toContain('settleCurrency');
  });
  for (const v of VECTORS.vectors.slice(1)) {
    it(`${v.name}: reaches the lookup (000021), not 000030`, async () => {
      const res = parse(
        (await postRaw(sb, PATHS.tranQuery, JSON.stringify({ ...v.params, verifySign: v.verifySign }))).text,
      );
      expect(res.ret_code).toBe('000021');
    });
  }
  it('vector 2 as form-urlencoded', async () => {
    const v = VECTORS.vectors[1]!;
    const res = await postRaw(
      sb,
      PATHS.tranQuery,
      new URLSearchParams({ ...v.params, verifySign: v.verifySign }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(parse(res.text).ret_code).toBe('000021');
  });
  it('accepts the variant that signs empty values as key=', async () => {
    const params = {
      merchantNo: DEMO.merchantNo,
      storeNo: DEMO.storeNo,
      transactionNo: '297553638300708562',
      reference: '',
    };
    const verifySign = md5(
      `merchantNo=200043&reference=&storeNo=300014&transactionNo=297553638300708562&${md5(DEMO.token)}`,
    );
    const res = parse((await postRaw(sb, PATHS.tranQuery, JSON.stringify({ ...params, verifySign }))).text);
    expect(res.ret_code).toBe('000021');
  });
});

describe('access and envelope', () => {
  const query = { merchantNo: DEMO.merchantNo, storeNo: DEMO.storeNo, transactionNo: '297553638300708562' };
  it('wrong signature → 000030', async () => {
    const res = parse(
      (await postRaw(sb, PATHS.tranQuery, JSON.stringify({ ...query, verifySign: '0'.repeat(32) }))).text,
    );
    expect(res).toMatchObject({ ret_code: '000030' });
    expect(res.result).toBeUndefined();
  });
  it('upper-case signature → 000030', async () => {
    const verifySign = computeVerifySign(query, DEMO.token).toUpperCase();
    expect(
      parse((await postRaw(sb, PATHS.tranQuery, JSON.stringify({ ...query, verifySign }))).text).ret_code,
    ).toBe('000030');
  });
  it('unknown merchant, unknown store, another merchant’s store → 000030', async () => {
    const other = sb.merchants[1]!;
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: '1' }, { creds: { ...DEMO, merchantNo: '999999' } }))
        .ret_code,
    ).toBe('000030');
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: '1' }, { creds: { ...DEMO, storeNo: '999999' } }))
        .ret_code,
    ).toBe('000030');
    expect(
      (
        await call(
          sb,
          PATHS.tranQuery,
          { transactionNo: '1' },
          { creds: { ...DEMO, storeNo: other.storeNos[0]! } },
        )
      ).ret_code,
    ).toBe('000030');
    // Right merchant and store, signed with another merchant's token.
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: '1' }, { creds: { ...DEMO, token: other.token } }))
        .ret_code,
    ).toBe('000030');
  });
  it('other merchants authenticate with their own tokens', async () => {
    for (const m of sb.merchants) {
      const env = await call(
        sb,
        PATHS.tranQuery,
        { transactionNo: '100000000000000000' },
        { creds: { merchantNo: m.merchantNo, storeNo: m.storeNos[0]!, token: m.token } },
      );
      expect(env.ret_code).toBe('000021');
    }
  });
  it('missing verifySign or credentials → 000020', async () => {
    expect(parse((await postRaw(sb, PATHS.tranQuery, JSON.stringify(query))).text).ret_code).toBe('000020');
    const { merchantNo: _m, ...noMerchant } = query;
    expect(
      parse(
        (
          await postRaw(
            sb,
            PATHS.tranQuery,
            JSON.stringify({ ...noMerchant, verifySign: computeVerifySign(noMerchant, DEMO.token) }),
          )
        ).text,
      ).ret_code,
    ).toBe('000020');
  });
  it('malformed bodies → 000023 / 000020, HTTP 200', async () => {
    for (const [body, code] of [
      ['{"merchantNo":', '000023'],
      ['[1,2]', '000023'],
      ['{"merchantNo":{"x":1}}', '000023'],
      ['', '000020'],
    ] as const) {
      const res = await postRaw(sb, PATHS.tranQuery, body);
      expect(res.status).toBe(200);
      expect(parse(res.text).ret_code).toBe(code);
    }
    const dup = await postRaw(
      sb,
      PATHS.tranQuery,
      'merchantNo=200043&merchantNo=200043',
      'application/x-www-form-urlencoded',
    );
    expect(parse(dup.text).ret_code).toBe('000023');
  });
  it('JSON numbers are signed as their text', async () => {
    const params = { merchantNo: DEMO.merchantNo, storeNo: DEMO.storeNo, transactionNo: '12345' };
    const verifySign = computeVerifySign(params, DEMO.token);
    const res = await postRaw(
      sb,
      PATHS.tranQuery,
      `{"merchantNo":"200043","storeNo":"300014","transactionNo":12345,"verifySign":"${verifySign}"}`,
    );
    expect(parse(res.text).ret_code).toBe('000021');
  });
  it('unknown path version → 000010; unknown path → 404; GET → 405', async () => {
    for (const path of [
      '/online/v2/secure-pay',
      '/app-data-search/v1/refund',
      '/v3/customers/create',
      '/order/v3/capture',
      '/app-data-search/v4/tran-query',
    ]) {
      const res = await postRaw(sb, path, '{}');
      expect([path, parse(res.text).ret_code]).toEqual([path, '000010']);
    }
    expect((await postRaw(sb, '/nope', '{}')).status).toBe(404);
    expect((await fetch(`${sb.baseUrl}${PATHS.tranQuery}`)).status).toBe(405);
  });
  it('requests with a bad signature or malformed body never change state', async () => {
    const before = sb.state.counts();
    const ref = uniqueRef('BAD');
    const p = { merchantNo: DEMO.merchantNo, storeNo: DEMO.storeNo, ...securePayParams({ reference: ref }) };
    const good = computeVerifySign(p, DEMO.token);
    const tampered = { ...p, amount: '99.00', verifySign: good };
    expect(parse((await postRaw(sb, PATHS.securePay, JSON.stringify(tampered))).text).ret_code).toBe(
      '000030',
    );
    expect(
      parse(
        (await postRaw(sb, PATHS.securePay, JSON.stringify({ ...p, verifySign: good }).slice(0, -2))).text,
      ).ret_code,
    ).toBe('000023');
    const refundParams = {
      merchantNo: DEMO.merchantNo,
      storeNo: DEMO.storeNo,
      transactionNo: '1',
      refundAmount: '1.00',
      currency: 'USD',
      settleCurrency: 'USD',
    };
    expect(
      parse(
        (await postRaw(sb, PATHS.refund, JSON.stringify({ ...refundParams, verifySign: 'f'.repeat(32) })))
          .text,
      ).ret_code,
    ).toBe('000030');
    const customer = {
      merchantNo: DEMO.merchantNo,
      storeNo: DEMO.storeNo,
      timestamp: '2024-01-01T00:00:00Z',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.co',
      countryCode: 'GB',
    };
    expect(
      parse(
        (await postRaw(sb, PATHS.customers, JSON.stringify({ ...customer, verifySign: 'a'.repeat(32) })))
          .text,
      ).ret_code,
    ).toBe('000030');
    expect(sb.state.counts()).toEqual(before);
    expect((await call(sb, PATHS.tranQuery, { reference: ref })).ret_code).toBe('000021');
  });
  it('a correctly signed form-urlencoded secure-pay succeeds', async () => {
    const env = await call(sb, PATHS.securePay, securePayParams(), { form: true });
    expect(env.ret_code).toBe('000100');
    expect(env.result?.cashierUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/[0-9a-f]{32}$/);
  });
});
