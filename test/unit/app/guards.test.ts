import { describe, expect, it } from 'vitest';
import { isAppUrl, isTrustedSender } from '../../../electron/app/security/guards';
import { isAllowedExternalUrl } from '../../../electron/core/services/external-links';
import { RENDERER_CSP } from '../../../electron/app/security/csp';

describe('trusted IPC sender', () => {
  const top = { url: 'app://renderer/index.html', parent: null };
  const ours = (f: unknown) => f === top;
  it('accepts our window’s top frame on our origin', () => {
    expect(isTrustedSender(top, ours)).toBe(true);
  });
  it('rejects subframes, foreign frames, foreign origins and missing frames', () => {
    expect(isTrustedSender({ url: 'app://renderer/index.html', parent: top }, () => true)).toBe(false);
    expect(isTrustedSender({ url: 'app://renderer/index.html', parent: null }, () => false)).toBe(false);
    const evil = { url: 'https://evil.example/', parent: null };
    expect(isTrustedSender(evil, () => true)).toBe(false);
    expect(isTrustedSender(null, () => true)).toBe(false);
    expect(isTrustedSender({ url: 'file:///etc/passwd', parent: null }, () => true)).toBe(false);
  });
  it('accepts the dev server origin only when one is configured', () => {
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5173/')).toBe(false);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });
});

describe('external links', () => {
  it('allows only https to allow-listed hosts', () => {
    expect(isAllowedExternalUrl('https://www.yuansfer.com/docs')).toBe(true);
    for (const bad of [
      'http://www.yuansfer.com/',
      'https://www.yuansfer.com.evil.example/',
      'https://user:pw@www.yuansfer.com/',
      'https://www.yuansfer.com:8443/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(isAllowedExternalUrl(bad), bad).toBe(false);
    }
  });
});

describe('CSP', () => {
  it('forbids remote code, eval, inline script and any network from the renderer', () => {
    expect(RENDERER_CSP).toContain("default-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).toContain("connect-src 'none'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-(inline|eval)|https?:|\*/);
  });
});
