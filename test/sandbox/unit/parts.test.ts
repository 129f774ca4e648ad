import { describe, expect, it } from 'vitest';
import { isExpired, luhnValid } from '../../../electron/sandbox/cards';
import { parseCli } from '../../../electron/sandbox/cli';
import { FaultInjector, mergeFaults } from '../../../electron/sandbox/faults';
import { KeyedMutex } from '../../../electron/sandbox/mutex';
import { escapeHtml, substituteCallback } from '../../../electron/sandbox/pages';
import { parseParams } from '../../../electron/sandbox/http-util';
import { ApiError } from '../../../electron/sandbox/params';

describe('cards', () => {
  it('Luhn', () => {
    for (const n of ['4242424242424242', '4000000000000002', '4000000000003220', '5555555555554444'])
      expect(luhnValid(n)).toBe(true);
    for (const n of ['4242424242424241', '1234', '4242 4242 4242 4242', '']) expect(luhnValid(n)).toBe(false);
  });
  it('expiry is the end of the month', () => {
    const now = Date.UTC(2025, 4, 31, 23, 0, 0); // May 2025
    expect(isExpired('2025', '05', now)).toBe(false);
    expect(isExpired('2025', '04', now)).toBe(true);
    expect(isExpired('2024', '12', now)).toBe(true);
  });
});

describe('KeyedMutex', () => {
  it('serializes tasks of one key and lets other keys run', async () => {
    const m = new KeyedMutex();
    const order: string[] = [];
    const task = (name: string, ms: number) => async () => {
      order.push(`${name}>`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`<${name}`);
    };
    await Promise.all([m.run('a', task('a1', 20)), m.run('a', task('a2', 1)), m.run('b', task('b1', 1))]);
    expect(order.indexOf('<a1')).toBeLessThan(order.indexOf('a2>'));
    expect(order.indexOf('b1>')).toBeLessThan(order.indexOf('<a1'));
    expect(m.size).toBe(0);
  });
  it('a failing task does not block the next', async () => {
    const m = new KeyedMutex();
    await expect(m.run('k', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(m.run('k', () => Promise.resolve(1))).resolves.toBe(1);
  });
});

describe('pages helpers', () => {
  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
  it('substitutes callbackUrl placeholders, raw and percent-encoded, URL-encoding values', () => {
    expect(
      substituteCallback('https://m.example/r?s={status}&ref=%7Breference%7D&a={amount}&t={transactionNo}', {
        status: 'success',
        amount: '1.00',
        reference: 'a b&c',
        transactionNo: '123',
      }),
    ).toBe('https://m.example/r?s=success&ref=a%20b%26c&a=1.00&t=123');
  });
});

describe('body parsing', () => {
  it('JSON and form bodies become string params', () => {
    expect(parseParams('application/json', '{"a":"1","b":2,"c":true,"d":null}')).toEqual({
      a: '1',
      b: '2',
      c: 'true',
    });
    expect(parseParams('application/x-www-form-urlencoded', 'a=1&b=x%20y')).toEqual({ a: '1', b: 'x y' });
    expect(parseParams(undefined, 'a=1')).toEqual({ a: '1' });
    expect(parseParams(undefined, '{"a":"1"}')).toEqual({ a: '1' });
  });
  it('malformed bodies are ApiErrors', () => {
    expect(() => parseParams('application/json', '{')).toThrow(ApiError);
    expect(() => parseParams('application/json', '"x"')).toThrow(ApiError);
    expect(() => parseParams('application/json', '{"a":[1]}')).toThrow(ApiError);
    expect(() => parseParams('application/json', '  ')).toThrow(ApiError);
  });
});

describe('faults', () => {
  it('merges patches field by field and rolls exactly at 0 and 1', () => {
    const merged = mergeFaults(
      {
        all: { latencyMs: 5 },
        endpoints: { refund: { http5xxRate: 1 } },
        ipnDelayMs: 0,
        ipnFailRate: 0,
        refundFailRate: 0,
      },
      { endpoints: { refund: { dropAfterRate: 1 } } },
    );
    expect(merged.endpoints.refund).toEqual({ http5xxRate: 1, dropAfterRate: 1 });
    expect(merged.all).toEqual({ latencyMs: 5 });
    const f = new FaultInjector(1, merged);
    expect(f.forEndpoint('refund')).toMatchObject({
      latencyMs: 5,
      http5xxRate: 1,
      dropAfterRate: 1,
      systemErrorRate: 0,
    });
    expect(f.forEndpoint('capture').http5xxRate).toBe(0);
    expect(Array.from({ length: 50 }, () => f.roll(1)).every(Boolean)).toBe(true);
    expect(Array.from({ length: 50 }, () => f.roll(0)).some(Boolean)).toBe(false);
  });
});

describe('CLI flags', () => {
  it('parses the documented flags into options', () => {
    const { options } = parseCli([
      '--port',
      '8787',
      '--seed',
      '9',
      '--data',
      's.json',
      '--transactions',
      '100000',
      '--drop-after-rate',
      '0.2',
      '--fault',
      'refund.dropAfterRate=1',
      '--fault',
      'tran-query.latencyMs=300',
      '--ipn-schedule',
      '10,20',
      '--refund-fail-rate',
      '0.1',
      '--ipn-fail-rate',
      '0.5',
    ]);
    expect(options).toMatchObject({
      port: 8787,
      seed: 9,
      dataFile: 's.json',
      transactions: 100_000,
      refundFailRate: 0.1,
      ipnSchedule: [10, 20],
      faults: {
        all: { dropAfterRate: 0.2 },
        endpoints: { refund: { dropAfterRate: 1 }, 'tran-query': { latencyMs: 300 } },
        ipnFailRate: 0.5,
      },
    });
  });
  it('rejects bad values', () => {
    expect(() => parseCli(['--http5xx-rate', '2'])).toThrow();
    expect(() => parseCli(['--fault', 'refund.nope=1'])).toThrow();
    expect(() => parseCli(['--fault', 'nope.latencyMs=1'])).toThrow();
    expect(() => parseCli(['--unknown'])).toThrow();
  });
});
