import { displayMoney } from '../../../../shared/domain/money';

/** Amounts inside detail sentences (same wording as the CLI report). */
export const detailAmount = (amountMinor: number, currency: string) => displayMoney(amountMinor, currency);

/** "about 2 min left" from milliseconds. */
export function etaText(ms: number | undefined): string {
  if (ms === undefined) return 'estimating…';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  return `about ${Math.ceil(s / 60)} min left`;
}
