import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
import { computeVerifySign, signParams, verifySignature } from '../../../shared/protocol/signing';
import { SIGNING_VECTORS } from '../../fixtures/signing-vectors';

const vectors = SIGNING_VECTORS;

describe('verifySign', () => {
  for (const v of vectors.vectors) {
    it(`matches the published vector: ${v.name}`, () => {
      expect(computeVerifySign(v.params, vectors.token)).toBe(v.verifySign);
      expect(verifySignature({ ...v.params, verifySign: v.verifySign }, vectors.token)).toBe(true);
    });
  }
  it('trims the token and leaves out empty and null values', () => {
    const p = { merchantNo: '200043', storeNo: '300014', transactionNo: '297553638300708562' };
    expect(computeVerifySign({ ...p, note: '', x: null }, ` ${vectors.token}\n`)).toBe(
      computeVerifySign(p, vectors.token),
    );
    expect(signParams({ ...p, note: '' }, vectors.token)).not.toHaveProperty('note');
  });
  it('rejects a wrong, short or upper-case signature, and a wrong token', () => {
    const p = vectors.vectors[1]!.params;
    const good = vectors.vectors[1]!.verifySign;
    expect(
      verifySignature(
        { ...p, verifySign: good.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
        vectors.token,
      ),
    ).toBe(false);
    expect(verifySignature({ ...p, verifySign: good.toUpperCase() }, vectors.token)).toBe(false);
    expect(verifySignature({ ...p, verifySign: good.slice(1) }, vectors.token)).toBe(false);
    expect(verifySignature({ ...p, verifySign: good }, 'another-token')).toBe(false);
    expect(verifySignature({ ...p }, vectors.token)).toBe(false);
  });
  it('accepts the empty-as-key= variant only when asked', () => {
    const p = { merchantNo: '200043', storeNo: '300014', note: '' };
    const variant = md5(`merchantNo=200043&note=&storeNo=300014&${md5(vectors.token)}`);
    expect(verifySignature({ ...p, verifySign: variant }, vectors.token)).toBe(false);
    expect(verifySignature({ ...p, verifySign: variant }, vectors.token, { acceptEmptyVariant: true })).toBe(
      true,
    );
  });
  it('signs by the keys each call has, whatever order they come in and whichever shape came before', () => {
    const t = vectors.token;
    const expected = (pairs: string) => md5(`${pairs}&${md5(t)}`);
    // Same keys in two insertion orders, then same-length key sets that differ, then empties dropped.
    expect(computeVerifySign({ b: '2', a: '1' }, t)).toBe(expected('a=1&b=2'));
    expect(computeVerifySign({ a: '1', b: '2' }, t)).toBe(expected('a=1&b=2'));
    expect(computeVerifySign({ a: '1', c: '3' }, t)).toBe(expected('a=1&c=3'));
    expect(computeVerifySign({ b: '', a: '1' }, t)).toBe(expected('a=1'));
    expect(computeVerifySign({ é: 'x', z: 'y', Z: 'w' }, t)).toBe(expected('Z=w&z=y&é=x'));
    expect(computeVerifySign({ b: '2', a: '1', verifySign: 'f'.repeat(32) }, t)).toBe(expected('a=1&b=2'));
  });
  it('sorts keys by byte order, not locale order', () => {
    const a = computeVerifySign({ b: '1', B: '2', a: '3' }, 't');
    expect(a).toBe(md5(`B=2&a=3&b=1&${md5('t')}`));
  });
});
