/**
 * The service speaks UTC+8 ("yyyy-MM-dd HH:mm:ss", IPN "yyyyMMddHHmmss"); we store UTC ISO strings.
 * Pure arithmetic on epoch milliseconds: no local time zone is involved anywhere.
 */
const OFFSET_MS = 8 * 3600_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function parts(ms: number) {
  const d = new Date(ms + OFFSET_MS);
  return {
    y: d.getUTCFullYear(),
    mo: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    mi: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}

/** epoch ms → "yyyy-MM-dd HH:mm:ss" in UTC+8. */
export function toServiceDateTime(ms: number): string {
  const p = parts(ms);
  return `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}:${p.s}`;
}

/** epoch ms → "yyyyMMddHHmmss" in UTC+8 (IPN `time`). */
export function toIpnTime(ms: number): string {
  const p = parts(ms);
  return `${p.y}${p.mo}${p.d}${p.h}${p.mi}${p.s}`;
}

/** epoch ms → "YYYYMMDD" in UTC+8 (trans-list dates). */
export function toServiceDate(ms: number): string {
  const p = parts(ms);
  return `${p.y}${p.mo}${p.d}`;
}

const DT = /^(\d{4})-?(\d{2})-?(\d{2})[ T]?(\d{2}):?(\d{2}):?(\d{2})$/;

/**
 * Parses a service timestamp to a UTC ISO string. Accepts ISO-8601 with Z/offset as-is, and the
 * UTC+8 forms "yyyy-MM-dd HH:mm:ss" / "yyyyMMddHHmmss". Returns undefined for anything else.
 */
export function serviceTimeToIso(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const t = text.trim();
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(t) && t.includes('T')) {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
  }
  const m = DT.exec(t);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - OFFSET_MS;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** "YYYYMMDD" (UTC+8 calendar day) → epoch ms of that day's start in UTC+8. */
export function serviceDateToMs(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - OFFSET_MS;
  return Number.isNaN(ms) ? undefined : ms;
}
