/**
 * `shell.openExternal` is only ever called with an https URL whose host is on this list: the vendor's
 * documentation and dashboards. Anything else (file:, javascript:, http:, look-alike hosts) is refused.
 */
export const EXTERNAL_HOST_ALLOWLIST: readonly string[] = [
  'www.yuansfer.com',
  'yuansfer.com',
  'docs.yuansfer.com',
  'www.pockyt.io',
  'pockyt.io',
  'docs.pockyt.io',
];

export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    url.port === '' &&
    EXTERNAL_HOST_ALLOWLIST.includes(url.hostname)
  );
}
