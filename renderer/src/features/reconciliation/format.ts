import { displayMoney } from '../../../../shared/domain/money';

/** Money for tables and the chart: locale display with the currency's own exponent. */
export const money = (amountMinor: number, currency: string) => displayMoney(amountMinor, currency);

/** "about 2 min left" from milliseconds. */
export function etaText(ms: number | undefined): string {
  if (ms === undefined) return 'estimating…';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  return `about ${Math.ceil(s / 60)} min left`;
}

/** "reconciliation-report-20250301-1405.csv" */
export function fileStamp(kind: string, now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `reconciliation-${kind}-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.csv`;
}
