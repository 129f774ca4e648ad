import { useEffect, useState } from 'react';

/** The current time, re-read every `everyMs`, so "5 minutes ago" texts stay true while shown. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
