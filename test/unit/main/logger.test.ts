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
});
