import { createContext, useContext, useEffect } from 'react';
import { exportJob } from '../lib/export-job';
import type { AreaId } from './areas';

/** One thing the palette or a shortcut can do, registered by whatever screen offers it. */
export interface Command {
  id: string;
  title: string;
  /** Heading in the palette ("Transactions", "Go to", "View"). */
  group: string;
  /** Shown beside the title, e.g. "Ctrl+1". */
  shortcut?: string;
  /** Extra words the palette matches ("csv excel download"). */
  keywords?: string;
  /** When set, the command is listed but cannot run, and this says why. */
  disabledReason?: string;
  /** More words under the title (why a found payment matches). */
  detail?: string;
  run(): void;
}

/** App-level navigation and the command registry, shared by the shell, the palette and the screens. */
export interface AppNav {
  area: AreaId;
  goTo(area: AreaId): void;
  /** Opens Transactions and looks this id up (the palette's "Go to payment"). */
  lookup(query: string): void;
  /** Opens Transactions and puts the cursor in its Look up box. */
  focusLookup(): void;
  /** A pending request for the Transactions screen (consumed once, by its nonce). */
  request: { kind: 'lookup'; query: string; nonce: number } | { kind: 'focus'; nonce: number } | null;
  register(source: string, commands: readonly Command[]): () => void;
  commands(): Command[];
}

export const AppNavContext = createContext<AppNav | null>(null);

export function useAppNav(): AppNav | null {
  return useContext(AppNavContext);
}

/**
 * Registers a screen's commands while it is mounted. Re-registered every render so each command runs
 * with the screen's current state (the registry only keeps references; nothing re-renders for it).
 */
export function useCommands(source: string, commands: readonly Command[]): void {
  const nav = useAppNav();
  useEffect(() => nav?.register(source, commands));
}

/** "Ctrl+K", or "⌘K" on a Mac. */
export function modKey(key: string): string {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
  return mac ? `⌘${key}` : `Ctrl+${key}`;
}

/** True while typing into a field: single-key shortcuts (?, /) must not fire then. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file'].includes(target.type);
  return false;
}

/** Commands matching the typed words (every word must appear), best first. */
export function matchCommands(commands: readonly Command[], query: string): Command[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  const scored = commands
    .map((c) => {
      const hay = `${c.title} ${c.group} ${c.keywords ?? ''}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return undefined;
      const title = c.title.toLowerCase();
      return { c, score: title.startsWith(words[0] ?? '') ? 0 : title.includes(words[0] ?? '') ? 1 : 2 };
    })
    .filter((x): x is { c: Command; score: number } => x !== undefined);
  return scored.sort((a, b) => a.score - b.score).map((x) => x.c);
}

/**
 * The pair of export commands every list offers: CSV for other programs, Excel for people. `empty`
 * disables both with that reason.
 */
export function exportCommands(o: {
  id: string;
  what: string;
  group: string;
  empty?: string | undefined;
  run(kind: 'csv' | 'xlsx'): unknown;
}): Command[] {
  const formats = [
    { kind: 'csv', label: 'CSV', keywords: 'download csv machine' },
    { kind: 'xlsx', label: 'Excel (.xlsx)', keywords: 'download excel xlsx spreadsheet' },
  ] as const;
  return formats.map((x) => ({
    id: `${o.id}.${x.kind}`,
    title: `Export ${o.what} as ${x.label}`,
    group: o.group,
    keywords: x.keywords,
    ...(o.empty
      ? { disabledReason: o.empty }
      : exportJob.snapshot()
        ? { disabledReason: 'An export is being written' }
        : {}),
    run: () => void o.run(x.kind),
  }));
}
