import { Component, type ContextType, type ErrorInfo, type ReactNode } from 'react';
import { BridgeContext } from '../lib/bridge';
import { newRendererCorrelationId, reportError } from '../lib/report-error';

interface State {
  error: Error | null;
  /** Quoted to support; the same id is in main's log line for this crash. */
  correlationId?: string;
}

/** Exceptions are bugs: show a crash panel instead of a blank window, with a way back. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  static override contextType = BridgeContext;
  declare context: ContextType<typeof BridgeContext>;
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error, correlationId: newRendererCorrelationId() };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('renderer crash', error.message, info.componentStack);
    if (this.context) reportError(this.context, 'error-boundary', error, this.state.correlationId);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="fatal" role="alert">
        <h1>Something went wrong on this screen</h1>
        <p>No refund was sent because of this error. Your cached data and refund journal are safe.</p>
        <pre>{this.state.error.message}</pre>
        {this.state.correlationId && (
          <p className="small">
            Reference for support: <code data-testid="crash-reference">{this.state.correlationId}</code> (also
            in Refund Desk’s log).
          </p>
        )}
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
