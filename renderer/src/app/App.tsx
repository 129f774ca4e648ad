import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AppInfoFooter } from '../features/shell/AppInfoFooter';
import { ComingSoon } from '../features/shell/ComingSoon';
import { ProfileSwitcher } from '../features/shell/ProfileSwitcher';
import { HealthIndicator } from '../features/shell/HealthIndicator';
import { TeamBanner } from '../features/shell/TeamBanner';
import { TeamIdentity } from '../features/shell/TeamIdentity';
import { usePrefs } from '../features/preferences/use-prefs';
import { LiveCacheUpdates } from '../features/transactions/LiveCacheUpdates';
import { TransactionsWorkspace } from '../features/transactions/TransactionsWorkspace';
import { RefundDialogHost } from '../features/refunds/RefundDialogHost';
import { AREAS, type AreaId } from './areas';
import { CommandPalette } from './CommandPalette';
import { type AppNav, AppNavContext, type Command, isTyping, modKey, useCommands } from './nav';
import { ShortcutHelp } from './ShortcutHelp';
import { useActiveProfile } from '../features/profiles/queries';
import { usePaymentFinder } from '../features/transactions/use-payment-finder';

// The landing area (Transactions) is in the first bundle; the others load when first opened, so the
// code a start has to fetch and compile is the shell and the list only (issue 30).
const RefundsView = lazy(() =>
  import('../features/refunds/RefundsView').then((m) => ({ default: m.RefundsView })),
);
const AuditView = lazy(() => import('../features/refunds/AuditView').then((m) => ({ default: m.AuditView })));
const SettingsScreen = lazy(() =>
  import('../features/settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })),
);
const ReconciliationScreen = lazy(() =>
  import('../features/reconciliation/ReconciliationScreen').then((m) => ({
    default: m.ReconciliationScreen,
  })),
);
const PaymentsScreen = lazy(() =>
  import('../features/payments/PaymentsScreen').then((m) => ({ default: m.PaymentsScreen })),
);

/** The shell's own commands: areas, look up, theme, display settings, help. */
function useShellCommands(nav: AppNav, openHelp: () => void): void {
  const { prefs, setPrefs, theme } = usePrefs();
  const commands: Command[] = [
    ...AREAS.map((a) => ({
      id: `area.${a.id}`,
      title: `Go to ${a.label}`,
      group: 'Go to',
      shortcut: modKey(a.shortcut),
      keywords: a.coming,
      run: () => nav.goTo(a.id),
    })),
    {
      id: 'lookup.focus',
      title: 'Look up a payment…',
      group: 'Go to',
      shortcut: '/',
      keywords: 'search find transaction reference refund number',
      run: nav.focusLookup,
    },
    {
      id: 'theme.toggle',
      title: theme === 'dark' ? 'Use the light theme' : 'Use the dark theme',
      group: 'View',
      keywords: 'theme dark light mode colours',
      run: () => setPrefs({ theme: theme === 'dark' ? 'light' : 'dark' }),
    },
    ...(prefs.theme !== 'system'
      ? [
          {
            id: 'theme.system',
            title: 'Theme: follow the system',
            group: 'View',
            keywords: 'theme dark light mode os',
            run: () => setPrefs({ theme: 'system' }),
          },
        ]
      : []),
    {
      id: 'display.settings',
      title: 'Display settings (language, time zone, date format)…',
      group: 'View',
      keywords: 'locale timezone utc date format numbers',
      run: () => {
        nav.goTo('settings');
        requestAnimationFrame(() =>
          document.querySelector<HTMLElement>('[data-testid="display-settings"] select')?.focus(),
        );
      },
    },
    { id: 'help', title: 'Keyboard shortcuts', group: 'View', shortcut: '?', run: openHelp },
  ];
  useCommands('shell', commands);
}

function Shell({ nav, onPalette, onHelp }: { nav: AppNav; onPalette(): void; onHelp(): void }) {
  useShellCommands(nav, onHelp);
  const current = AREAS.find((a) => a.id === nav.area) ?? AREAS[0];
  return (
    <div className="shell">
      <nav className="rail" aria-label="Main">
        <div className="brand">Refund Desk</div>
        <ul>
          {AREAS.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className={a.id === nav.area ? 'nav-item active' : 'nav-item'}
                aria-current={a.id === nav.area ? 'page' : undefined}
                onClick={() => nav.goTo(a.id)}
                title={`${a.label} (${modKey(a.shortcut)})`}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
        <div className="rail-tools">
          <button type="button" onClick={onPalette} data-testid="open-palette">
            Commands <kbd>{modKey('K')}</kbd>
          </button>
          <button type="button" onClick={onHelp}>
            Shortcuts <kbd>?</kbd>
          </button>
        </div>
        <AppInfoFooter />
      </nav>
      <div className="workspace">
        <header className="topbar">
          <h1>{current.label}</h1>
          <ProfileSwitcher />
          <TeamIdentity />
          <HealthIndicator />
        </header>
        <TeamBanner />
        {/* The area's class (not a :has() rule): a :has() over the workspace is re-checked on every row the
            list inserts while it scrolls. */}
        <main className={`content area-${nav.area}`}>
          <Suspense
            fallback={
              <p className="muted" role="status">
                Loading {current.label}…
              </p>
            }
          >
            {nav.area === 'transactions' ? (
              <TransactionsWorkspace />
            ) : nav.area === 'refunds' ? (
              <RefundsView />
            ) : nav.area === 'audit' ? (
              <AuditView />
            ) : nav.area === 'settings' ? (
              <SettingsScreen />
            ) : nav.area === 'reconciliation' ? (
              <ReconciliationScreen />
            ) : nav.area === 'payments' ? (
              <PaymentsScreen />
            ) : (
              <ComingSoon title={current.label} description={current.coming} />
            )}
          </Suspense>
        </main>
      </div>
    </div>
  );
}

/** The app shell: navigation rail, header with the health indicator, the active area, palette and help. */
export function App() {
  const [area, setArea] = useState<AreaId>('transactions');
  const [request, setRequest] = useState<AppNav['request']>(null);
  const [overlay, setOverlay] = useState<'palette' | 'help' | null>(null);
  // The palette lists what is registered at the moment it opens.
  const [paletteCommands, setPaletteCommands] = useState<Command[]>([]);
  const registry = useRef(new Map<string, readonly Command[]>());
  // The palette finds payments by what a customer says, in the active profile's cache.
  const { profile } = useActiveProfile();
  const find = usePaymentFinder(profile?.id);
  const nonce = useRef(0);

  const nav = useMemo<AppNav>(
    () => ({
      area,
      goTo: setArea,
      lookup: (query) => {
        setArea('transactions');
        setRequest({ kind: 'lookup', query, nonce: (nonce.current += 1) });
      },
      focusLookup: () => {
        setArea('transactions');
        setRequest({ kind: 'focus', nonce: (nonce.current += 1) });
      },
      request,
      register: (source, commands) => {
        registry.current.set(source, commands);
        return () => {
          if (registry.current.get(source) === commands) registry.current.delete(source);
        };
      },
      commands: () => [...registry.current.values()].flat(),
    }),
    [area, request],
  );

  const closeOverlay = useCallback(() => setOverlay(null), []);
  const openPalette = useCallback(() => {
    setPaletteCommands([...registry.current.values()].flat());
    setOverlay('palette');
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A modal (refund dialog, palette, help) owns the keyboard while it is open.
      if (document.querySelector('[aria-modal="true"]')) return;
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
      if (mod && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        openPalette();
        return;
      }
      if (mod) {
        // Ctrl/Cmd+1…6 switch areas, as in most desktop tools.
        const hit = AREAS.find((a) => a.shortcut === e.key);
        if (hit) {
          e.preventDefault();
          setArea(hit.id);
        }
        return;
      }
      if (e.altKey || isTyping(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        setOverlay('help');
      } else if (e.key === '/') {
        e.preventDefault();
        nav.focusLookup();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [nav, openPalette]);

  return (
    <AppNavContext.Provider value={nav}>
      <RefundDialogHost>
        <LiveCacheUpdates />
        <Shell nav={nav} onPalette={openPalette} onHelp={() => setOverlay('help')} />
        {overlay === 'palette' && (
          <CommandPalette
            commands={paletteCommands}
            onLookup={nav.lookup}
            onClose={closeOverlay}
            find={find}
          />
        )}
        {overlay === 'help' && <ShortcutHelp onClose={closeOverlay} />}
      </RefundDialogHost>
    </AppNavContext.Provider>
  );
}
