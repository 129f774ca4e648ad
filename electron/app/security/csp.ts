/**
 * Content-Security-Policy for the renderer. The renderer loads only its own bundled code and talks to
 * nothing but IPC: no remote scripts, no eval, no network (`connect-src 'none'`).
 * React's style props are applied through the CSSOM, which style-src does not restrict, so no
 * 'unsafe-inline' is needed.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** The browser host's bridge must reach its own origin over HTTP; everything else is identical. */
export const BROWSER_HOST_CSP = RENDERER_CSP.replace("connect-src 'none'", "connect-src 'self'");
