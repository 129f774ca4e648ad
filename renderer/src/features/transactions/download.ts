/**
 * Saves text as a file through a blob: URL and an anchor with `download`. The renderer has no file
 * system access and needs none: the browser (or Electron's download handling) asks where to save.
 * Blob URLs are same-origin, so the CSP's connect-src 'none' does not get in the way.
 */
export function downloadText(fileName: string, text: string, mime = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the download a moment to start before the URL is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "transactions-<profile>-20250301-1405.csv": sortable, safe on every file system. */
export function exportFileName(profileName: string, now: Date = new Date()): string {
  const safe = profileName.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'profile';
  const p = (n: number) => String(n).padStart(2, '0');
  return `transactions-${safe}-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.csv`;
}
