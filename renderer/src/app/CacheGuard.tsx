import { type ReactNode, useEffect, useState } from 'react';
import { useCache } from '../db/owner';
import { ResetCache } from '../features/settings/ResetCache';

/**
 * Opens the cache before the app uses it. When it cannot be opened (damaged, blocked, or a newer
 * schema), the app says so and offers the reset instead of failing screen by screen.
 */
export function CacheGuard({ children }: { children: ReactNode }) {
  const cache = useCache();
  const [state, setState] = useState<{ ok: true } | { ok: false; problem: string } | null>(null);
  useEffect(() => {
    let live = true;
    void cache.open().then((problem) => live && setState(problem ? { ok: false, problem } : { ok: true }));
    return () => {
      live = false;
    };
  }, [cache]);
  if (state === null) return null;
  if (!state.ok)
    return (
      <div className="fatal" role="alert" data-testid="cache-problem">
        <h1>Refund Desk cannot read its local cache</h1>
        <ResetCache reason={state.problem} />
      </div>
    );
  return <>{children}</>;
}
