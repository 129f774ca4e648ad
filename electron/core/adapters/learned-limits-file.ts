/**
 * What the adaptive limiters learned (services/gateway/adaptive-limit.ts), kept in a small JSON file of
 * the data directory — `{ "<profile id>": { "limit": 24, "at": "<ISO time>" } }` — so the first batch
 * after a restart, and every `cli` command (a process of its own), starts from what the last one
 * learned for that connection instead of from 8. A file of its own, not the settings document: that one
 * is the profiles' (validated as a whole, moved aside when it holds anything else).
 *
 * Written through on each change (a limit changes a few dozen times in a batch at most; each write is a
 * hundred bytes, renamed into place so a reader never sees half a file). A missing, unreadable or
 * damaged file is as good as an empty one: the limiters start from 8 and the next change rewrites it.
 * A file that cannot be written leaves the learning in memory for this process.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { LearnedLimits } from '../services/gateway/adaptive-limit';
import type { Clock } from '../services/ports';

const MAX_LIMIT = 1000;

type Doc = Record<string, { limit: number; at: string }>;

function read(path: string): Doc {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Doc = {};
  for (const [key, v] of Object.entries(raw as Record<string, unknown>)) {
    const limit = (v as { limit?: unknown } | null)?.limit;
    const at = (v as { at?: unknown } | null)?.at;
    if (Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_LIMIT)
      out[key] = { limit: limit as number, at: typeof at === 'string' ? at : '' };
  }
  return out;
}

export function createLearnedLimitsFile(path: string, clock: Clock): LearnedLimits {
  const doc = read(path);
  return {
    get: (key) => (Object.hasOwn(doc, key) ? doc[key]!.limit : undefined),
    set(key, limit) {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return;
      if (doc[key]?.limit === limit) return;
      doc[key] = { limit, at: new Date(clock.now()).toISOString() };
      const tmp = `${path}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, `${JSON.stringify(doc)}\n`, { mode: 0o600 });
        renameSync(tmp, path);
      } catch {
        // Not written: what was learned still holds for this process.
      }
    },
  };
}
