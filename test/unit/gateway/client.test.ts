import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../../shared/protocol/signing';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { TransportError } from '../../../electron/core/services/gateway/http-port';
import { backoffDelay, DEFAULT_RETRY } from '../../../electron/core/services/gateway/transport';
import { createFakeClock } from '../../fakes/clock';
import { createFakeHttp, envelope, type FakeReply, success } from '../../fakes/http';
import { createFakeLogger } from '../../fakes/logger';
import { caughtAppError as caught } from '../../fakes/app-error';

const TOKEN = '5cbfb079f15b150122261c8537086d77a';
const TX = {
  transactionNo: '297553638300708562',
  reference: 'ref-1',
  amount: '10.00',
  status: 'success',
  currency: 'USD',
  settleCurrency: 'USD',
  transactionType: 'payment',
  refundInfo: [
    {
      refundTransactionId: '397553638300708563',
      refundReference: 'RD1',
      refundAmount: '2.50',
      currency: 'USD',
      status: 'success',
    },
  ],
};

function setup(replies: FakeReply[], extra: { timeoutMs?: number } = {}) {
  const http = createFakeHttp(replies);
  const log = createFakeLogger();
  const sleeps: number[] = [];
  const gw = createGatewayClient({
    http,
    log,
    clock: createFakeClock(),
    config: () => ({ baseUrl: 'http://svc.test/', merchantNo: '200043', storeNo: '300014', token: TOKEN }),
    timeoutMs: extra.timeoutMs ?? 1_000,
    retry: { retries: 2, baseDelayMs: 100, maxDelayMs: 1_000 },
    random: () => 0.5,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { gw, http, log, sleeps };
}

describe('gateway client: requests', () => {
  it('signs every request, sends only strings, and leaves empty values out', async () => {
    const { gw, http } = setup([success(TX)]);
    const r = await gw.queryTransaction({ transactionNo: '297553638300708562' });
    expect(r.transaction.amountMinor).toBe(1000);
    expect(r.transaction.refunds[0]?.refundAmountMinor).toBe(250);
    const call = http.calls[0]!;
    expect(call.url).toBe('http://svc.test/app-data-search/v3/tran-query');
    expect(call.body).toEqual({
      transactionNo: '297553638300708562',
      merchantNo: '200043',
      storeNo: '300014',
      verifySign: '0df745088d7202a6d186596acdc82c6a',
    });
  });

  it('refund sends minor units as the two-decimal wire amount and keeps refundReference', async () => {
    const { gw, http } = setup([
      success({
        refundTransactionNo: '3975',
        transactionNo: '2975',
        refundAmount: '1.05',
        currency: 'USD',
        status: 'success',
        refundReference: 'RDX',
      }),
    ]);
    const r = await gw.refund({
      transactionNo: '2975',
      refundAmountMinor: 105,
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'RDX',
      ipnUrl: '',
    });
    expect(r).toMatchObject({ refundTransactionNo: '3975', refundAmountMinor: 105, status: 'success' });
    const body = http.calls[0]!.body;
    expect(body.refundAmount).toBe('1.05');
    expect(body).not.toHaveProperty('ipnUrl');
    expect(Object.values(body).every((v) => typeof v === 'string')).toBe(true);
    expect(verifySignature(body, TOKEN)).toBe(true);
  });

  it('secure-pay sends goodsInfo verbatim and numbers as strings', async () => {
    const { gw, http } = setup([
      success({ transactionNo: '1', cashierUrl: 'http://x/checkout/1', reference: 'r' }),
    ]);
    const goodsInfo = '[{"goods_name":"Tea","quantity":"1"}]';
    const r = await gw.securePay({
      amountMinor: 100,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'alipay',
      terminal: 'ONLINE',
      reference: 'r',
      ipnUrl: 'http://i',
      callbackUrl: 'http://c',
      goodsInfo,
      timeoutMin: 120,
    });
    expect(r.cashierUrl).toBe('http://x/checkout/1');
    expect(http.calls[0]!.body).toMatchObject({ goodsInfo, timeout: '120', amount: '1.00' });
  });

  it('capture accepts authenticationUrl as the 3-D Secure page', async () => {
    const { gw } = setup([
      success({ transactionNo: '1', status: 'pending', authenticationUrl: 'http://x/3ds' }),
    ]);
    const r = await gw.capture({
      amountMinor: 100,
      currency: 'USD',
      settleCurrency: 'USD',
      reference: 'r',
      terminal: 'ONLINE',
      card: { number: '4111111111111111', expYear: '2030', expMonth: '01', cvv: '123' },
    });
    expect(r.authUrl).toBe('http://x/3ds');
  });

  it('create customer reads the `customer` key and sends a UTC timestamp', async () => {
    const { gw, http } = setup([
      envelope({ ret_code: '000100', customer: { customerNo: '1234567890123456789012' } }),
    ]);
    const r = await gw.createCustomer({ firstName: 'A', lastName: 'B', email: 'a@b.co', countryCode: 'GB' });
    expect(r.customerNo).toBe('1234567890123456789012');
    expect(http.calls[0]!.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('trans-list sends UTC+8 dates and maps every row', async () => {
    const { gw, http } = setup([envelope({ ret_code: '000100', transactions: [TX], size: 1 })]);
    const rows = await gw.listTransactions({
      startMs: Date.UTC(2026, 0, 1, 17),
      endMs: Date.UTC(2026, 0, 2),
    });
    expect(rows).toHaveLength(1);
    expect(http.calls[0]!.body).toMatchObject({ startDate: '20260102', endDate: '20260102' });
  });

  it('refuses an answer in a currency it does not handle, naming it, without retrying or guessing', async () => {
    const cases = [
      { ...TX, currency: 'ZAR', amount: '10.005' },
      { ...TX, refundInfo: [{ ...TX.refundInfo[0], currency: 'ZAR' }] },
      { ...TX, settleCurrency: 'ZAR' },
    ];
    for (const result of cases) {
      const { gw, http } = setup([success(result)]);
      const e = await caught(gw.queryTransaction({ transactionNo: TX.transactionNo }));
      expect(e.code).toBe('unavailable');
      expect(e.retryable).toBe(false);
      expect(e.details).toMatchObject({ unsupportedCurrency: 'ZAR', endpoint: 'tranQuery' });
      expect(e.message).toContain('ZAR');
      expect(http.calls).toHaveLength(1);
    }
    // One such payment in a list refuses the list (its window), rather than dropping the payment unseen.
    const { gw } = setup([
      envelope({ ret_code: '000100', transactions: [TX, { ...TX, currency: 'ZAR' }], size: 2 }),
    ]);
    const e = await caught(
      gw.listTransactions({ startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 0, 2) }),
    );
    expect(e.details).toMatchObject({ unsupportedCurrency: 'ZAR', endpoint: 'transList' });
  });

  it('refuses to call without a token', async () => {
    const http = createFakeHttp([success(TX)]);
    const gw = createGatewayClient({
      http,
      log: createFakeLogger(),
      clock: createFakeClock(),
      config: () => ({ baseUrl: 'http://x', merchantNo: '1', storeNo: '2', token: ' ' }),
    });
    expect((await caught(gw.queryTransaction({ reference: 'r' }))).code).toBe('unauthorized');
    expect(http.calls).toHaveLength(0);
  });
});

describe('gateway client: ret_code mapping', () => {
  it.each([
    ['000021', 'not_found'],
    ['000030', 'unauthorized'],
    ['000020', 'upstream_rejected'],
    ['000040', 'upstream_rejected'],
    ['000000', 'upstream_rejected'],
    ['999999', 'upstream_rejected'],
  ])('%s → %s, keeping ret_code and ret_msg', async (code, expected) => {
    const { gw, http } = setup([envelope({ ret_code: code, ret_msg: 'the service words' })]);
    const e = await caught(gw.queryTransaction({ reference: 'r' }));
    expect(e.code).toBe(expected);
    expect(e.details).toMatchObject({ ret_code: code, ret_msg: 'the service words' });
    expect(e.message).toContain('the service words');
    expect(http.calls).toHaveLength(1); // a rejection is an answer: never retried
  });

  it.each(['000000', '000080'])(
    'a write answered %s (the service failed, not refused) never says rejected or that nothing moved',
    async (code) => {
      for (const send of [
        (gw: ReturnType<typeof setup>['gw']) =>
          gw.refund({ transactionNo: '1', refundAmountMinor: 1, currency: 'USD', settleCurrency: 'USD' }),
        (gw: ReturnType<typeof setup>['gw']) =>
          gw.capture({
            amountMinor: 1234,
            currency: 'USD',
            settleCurrency: 'USD',
            reference: 'R1',
            terminal: 'ONLINE',
            vaultId: 'pp_1',
          }),
      ]) {
        const { gw } = setup([envelope({ ret_code: code, ret_msg: 'system error' })]);
        const e = await caught(send(gw));
        expect(e.details).toMatchObject({ ret_code: code, ret_msg: 'system error' });
        expect(e.message).toMatch(/may or may not have gone through.*system error/);
        expect(e.message).not.toMatch(/rejected|Nothing was charged/);
        expect(e.retryable).toBe(false);
      }
    },
  );

  it('a write rejection says nothing was charged or refunded', async () => {
    const { gw } = setup([envelope({ ret_code: '000040', ret_msg: 'status error' })]);
    const e = await caught(
      gw.refund({ transactionNo: '1', refundAmountMinor: 1, currency: 'USD', settleCurrency: 'USD' }),
    );
    expect(e.code).toBe('upstream_rejected');
    expect(e.message).toMatch(/Nothing was charged or refunded/);
  });
});

describe('gateway client: retries and ambiguity', () => {
  const http500 = { status: 503, text: 'busy' };
  const drop = new TransportError('connection dropped', 'unknown', 'ECONNRESET');

  it('retries reads on 5xx with exponential backoff, then succeeds', async () => {
    const { gw, http, sleeps } = setup([http500, http500, success(TX)]);
    await gw.queryTransaction({ transactionNo: '1' });
    expect(http.calls).toHaveLength(3);
    expect(sleeps).toEqual([75, 150]);
  });

  it('tells the caller what each attempt showed: 5xx and dropped connections as overload, then the answer', async () => {
    const { gw } = setup([http500, drop, success(TX)]);
    const seen: string[] = [];
    await gw.queryTransaction({ transactionNo: '1' }, { onAttempt: (a) => seen.push(a.outcome) });
    expect(seen).toEqual(['overloaded', 'overloaded', 'answered']);
    const four: string[] = [];
    await caught(
      setup([{ status: 404, text: 'no' }]).gw.queryTransaction(
        { transactionNo: '1' },
        { onAttempt: (a) => four.push(a.outcome) },
      ),
    );
    expect(four).toEqual(['other']);
  });

  it('gives up on reads after the configured retries', async () => {
    const { gw, http } = setup([drop]);
    const e = await caught(gw.queryTransaction({ transactionNo: '1' }));
    expect(e.code).toBe('network');
    expect(e.retryable).toBe(true);
    expect(http.calls).toHaveLength(3);
  });

  it('does not retry a read on 4xx or an unreadable body', async () => {
    for (const reply of [
      { status: 404, text: 'no' },
      { status: 200, text: '{not json' },
    ]) {
      const { gw, http } = setup([reply]);
      const e = await caught(gw.queryTransaction({ transactionNo: '1' }));
      expect(e.code).toBe('unavailable');
      expect(http.calls).toHaveLength(1);
    }
  });

  it('times out a hanging read per attempt and retries it', async () => {
    const { gw, http } = setup(['hang'], { timeoutMs: 20 });
    const e = await caught(gw.queryTransaction({ transactionNo: '1' }));
    expect(e.code).toBe('timeout');
    expect(http.calls).toHaveLength(3);
  });

  it.each([
    ['a 5xx', http500],
    ['a dropped connection', drop],
    ['an unparseable body', { status: 200, text: '<html>' }],
    ['a success without ids', success({ currency: 'USD', refundAmount: '1.00' })],
  ])('never retries a refund; %s is outcome_unknown', async (_name, reply) => {
    const { gw, http } = setup([reply]);
    const e = await caught(
      gw.refund({
        transactionNo: '1',
        refundAmountMinor: 100,
        currency: 'USD',
        settleCurrency: 'USD',
        refundReference: 'RD1',
      }),
    );
    expect(e.code).toBe('outcome_unknown');
    expect(e.retryable).toBe(false);
    expect(http.calls).toHaveLength(1);
  });

  it('a write that timed out is outcome_unknown; one refused before sending is "not sent"', async () => {
    const hang = setup(['hang'], { timeoutMs: 20 });
    expect(
      (
        await caught(
          hang.gw.capture({
            amountMinor: 1,
            currency: 'USD',
            settleCurrency: 'USD',
            reference: 'r',
            terminal: 'ONLINE',
            vaultId: 'pp_1',
          }),
        )
      ).code,
    ).toBe('outcome_unknown');
    expect(hang.http.calls).toHaveLength(1);
    const refused = setup([new TransportError('refused', 'before-send', 'ECONNREFUSED')]);
    const e = await caught(
      refused.gw.securePay({
        amountMinor: 1,
        currency: 'USD',
        settleCurrency: 'USD',
        vendor: 'alipay',
        terminal: 'ONLINE',
        reference: 'r',
        ipnUrl: 'http://i',
      }),
    );
    expect(e.code).toBe('network');
    expect(e.details).toMatchObject({ sent: false });
    expect(refused.http.calls).toHaveLength(1);
  });

  it('cancelling a read stops it with `cancelled`', async () => {
    const { gw } = setup(['hang'], { timeoutMs: 10_000 });
    const ctl = new AbortController();
    const p = gw.queryTransaction({ transactionNo: '1' }, { signal: ctl.signal });
    ctl.abort();
    expect((await caught(p)).code).toBe('cancelled');
    const ctl2 = new AbortController();
    const inFlight = gw.queryTransaction({ transactionNo: '1' }, { signal: ctl2.signal });
    setTimeout(() => ctl2.abort(), 10);
    expect((await caught(inFlight)).code).toBe('cancelled');
  });

  it('backoff grows exponentially, is capped and jittered', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelay(0, p, () => 0)).toBe(50);
    expect(backoffDelay(0, p, () => 0.999)).toBe(100);
    expect(backoffDelay(3, p, () => 0)).toBe(400);
    expect(backoffDelay(10, p, () => 1)).toBe(1_000);
  });
});
