import { type ReactNode, useRef } from 'react';
import { useFocusTrap } from './use-focus-trap';

/**
 * A modal frame: role="dialog", aria-modal, labelled by its title, focus trapped inside and given back
 * where it came from on close; Esc closes. `onClose` undefined means it cannot be dismissed right now
 * (a refund is being sent). The title row is a plain <div>, not a <header>: a header outside sectioning
 * content would be a second banner landmark.
 */
export function Dialog(props: {
  titleId: string;
  title: string;
  onClose: (() => void) | undefined;
  tone?: 'production' | undefined;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, props.onClose);
  return (
    <div className="dlg-backdrop">
      <div
        ref={ref}
        className={['dlg', props.tone === 'production' ? 'dlg-production' : '', props.className ?? '']
          .filter(Boolean)
          .join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={props.titleId}
        data-testid={props.testId}
      >
        <div className="dlg-head">
          <h2 id={props.titleId}>{props.title}</h2>
          <button
            type="button"
            className="dlg-close"
            aria-label="Close"
            title="Close (Esc)"
            onClick={props.onClose}
            disabled={!props.onClose}
          >
            ×
          </button>
        </div>
        {props.children}
      </div>
    </div>
  );
}
