import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { CacheGuard } from './app/CacheGuard';
import { ErrorBoundary } from './app/ErrorBoundary';
import { BridgeContext, readGlobalBridge } from './lib/bridge';
import { installErrorReporting } from './lib/report-error';
import { warmStart } from './app/warm-start';
import { DbContext } from './db/context';
import { createCacheOwner } from './db/owner';
import { openDb } from './db/schema';
import { PrefsProvider } from './features/preferences/PrefsProvider';
import { loadPrefs, resolveTheme } from './features/preferences/prefs';
import { applyTheme, systemPrefersDark } from './features/preferences/theme';
import './styles/app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // Main already retries reads where that is safe; the renderer never retries on its own.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

const root = document.getElementById('root');
const bridge = readGlobalBridge();
const db = openDb();
// The landing list's reads start first, while the preferences are read (a fresh profile's first
// localStorage read can block for tens of milliseconds) and React renders the shell (app/warm-start.ts).
if (root && bridge) void warmStart(bridge, queryClient, createCacheOwner(db, queryClient));

// Before the first paint, so a dark-theme user never sees a white flash.
const prefs = loadPrefs();
applyTheme(resolveTheme(prefs.theme, systemPrefersDark()));

if (root) {
  // Exceptions anywhere in the renderer reach main's log with a correlation id.
  if (bridge) installErrorReporting(bridge);
  createRoot(root).render(
    <StrictMode>
      {bridge ? (
        <BridgeContext.Provider value={bridge}>
          <ErrorBoundary>
            <DbContext.Provider value={db}>
              <QueryClientProvider client={queryClient}>
                <PrefsProvider initial={prefs}>
                  <CacheGuard>
                    <App />
                  </CacheGuard>
                </PrefsProvider>
              </QueryClientProvider>
            </DbContext.Provider>
          </ErrorBoundary>
        </BridgeContext.Provider>
      ) : (
        <div className="fatal" role="alert">
          <h1>Refund Desk cannot start</h1>
          <p>The connection to the app’s main process is missing. Start Refund Desk with npm start.</p>
        </div>
      )}
    </StrictMode>,
  );
}
