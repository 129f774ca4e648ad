import type { Bridge } from '../../../shared/ipc/contract';

type Source = 'window.onerror' | 'unhandledrejection' | 'error-boundary';

/** A correlation id made here, shown to the person and sent with the report, so the two meet in the log. */
export function newRendererCorrelationId(): string {
  const rand = Math.random().toString(36).slice(2, 10).toUpperCase();
  return `R-${Date.now().toString(36).toUpperCase()}-${rand}`;
}

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** Sends one exception to main's log; never throws (reporting must not cause a second failure). */
export function reportError(
  bridge: Bridge,
  source: Source,
  error: unknown,
  correlationId = newRendererCorrelationId(),
) {
  const e =
    error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'Non-error thrown');
  void bridge['app.reportError']({
    correlationId,
    source,
    message: clip(e.message || e.name, 1000),
    ...(e.stack ? { stack: clip(e.stack, 8000) } : {}),
  }).catch(() => undefined);
  return correlationId;
}

/** Installs the window-level handlers once (the renderer's entry calls this). Returns an uninstaller. */
export function installErrorReporting(
  bridge: Bridge,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onError = (event: ErrorEvent) => reportError(bridge, 'window.onerror', event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) =>
    reportError(bridge, 'unhandledrejection', event.reason);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
