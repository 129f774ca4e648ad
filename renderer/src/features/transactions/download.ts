/** "transactions-<profile>-20250301-1405.csv": sortable, safe on every file system. */
export function exportFileName(profileName: string, now: Date = new Date()): string {
  const safe =
    profileName
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile';
  const p = (n: number) => String(n).padStart(2, '0');
  return `transactions-${safe}-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.csv`;
}
