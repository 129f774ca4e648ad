/**
 * How long a browser may keep a file of the built renderer (the app:// protocol and the browser host
 * alike). The build names every script, style and worker after a hash of its content
 * (`assets/index-DyDeDOq2.js`): such a file never changes under its name, so it is kept for a year and
 * never asked again (`immutable`). Everything else — index.html, which names the current files — is
 * asked again each time (`no-cache`), so a new build is always what loads.
 */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.(?:js|css|svg|png|woff2)$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Cache-Control for the renderer file at `path` (the URL path, e.g. `/assets/index-DyDeDOq2.js`). */
export function assetCacheControl(path: string): string {
  return HASHED_ASSET.test(path) ? IMMUTABLE : REVALIDATE;
}
