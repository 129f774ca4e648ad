/** "about 2 min left" from milliseconds. */
export function etaText(ms: number | undefined): string {
  if (ms === undefined) return 'estimating…';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  return `about ${Math.ceil(s / 60)} min left`;
}
