/**
 * One refund in flight per transaction: a keyed async mutex. Main is a single instance, so this covers
 * every window; the journal's unsettled intents cover what survives a restart.
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<void>>();
  return {
    /** True while someone holds or waits for `key`. */
    isHeld: (key: string) => tails.has(key),
    /**
     * Runs `fn` exclusively for `key`; if the key is already held, fails fast with `onBusy()` rather
     * than queueing — a second click must not become a second refund.
     */
    async tryRun<T>(key: string, fn: () => Promise<T>, onBusy: () => never): Promise<T> {
      if (tails.has(key)) onBusy();
      let release!: () => void;
      tails.set(key, new Promise<void>((r) => (release = r)));
      try {
        return await fn();
      } finally {
        tails.delete(key);
        release();
      }
    },
  };
}
