import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../electron/core/adapters/logger';

describe('redacting logger', () => {
  it('never writes secret-bearing keys, however deeply nested', () => {
    const lines: string[] = [];
    const log = createLogger({ sink: (l) => lines.push(l) });
    log.info('x', {
      token: 'TOKEN-1',
      md5OfToken: 'MD5-2',
      request: {
        verifySign: 'SIGN-3',
        body: 'BODY-4',
        nested: { cardNumber: '4242424242424242', apiToken: 'T5' },
      },
      signingString: 'a=b&MD5',
      channel: 'ok-visible',
    });
    const text = lines.join('\n');
    for (const secret of ['TOKEN-1', 'MD5-2', 'SIGN-3', 'BODY-4', '4242424242424242', 'T5', 'a=b&MD5'])
      expect(text).not.toContain(secret);
    expect(text).toContain('ok-visible');
  });

  it('masks a card number or code in any text it is given, keeping the ids it names', () => {
    const lines: string[] = [];
    const log = createLogger({ sink: (l) => lines.push(l) });
    // 301234567890123456 passes Luhn, like one service id in ten.
    log.warn('payment.x', {
      transactionNo: '301234567890123456',
      error: 'card 4000 0566 5566 5556 cvv 987 refused for 301234567890123456',
      nested: { why: ['exp 12/2031, 4111-1111-1111-1111'] },
    });
    const text = lines.join('\n');
    expect(text.replace(/(\d)[ -](?=\d)/g, '$1')).not.toMatch(/4000056655665556|4111111111111111/);
    expect(text).toContain('card •••• 5556 cvv ••• refused for 301234567890123456');
    expect(text).toContain('exp ••/••, •••• 1111');
  });
});
