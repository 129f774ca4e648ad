import { type ReactNode, useRef } from 'react';
import { useFocusTrap } from './use-focus-trap';

/**
 * A modal frame: role="dialog", aria-modal, labelled by its title, focus trapped inside. `onClose`
 * undefined means the dialog cannot be dismissed right now (a refund is being sent).
 */
export function DialogFrame(props: {
  titleId: string;
  title: string;
  onClose: (() => void) | undefined;
  tone?: 'production';
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, props.onClose);
  return (
    <div className="rd-backdrop">
      <div
        ref={ref}
        className={props.tone === 'production' ? 'rd-dialog rd-dialog-production' : 'rd-dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={props.titleId}
        data-testid="refund-dialog"
      >
        <header className="rd-dialog-head">
          <h2 id={props.titleId}>{props.title}</h2>
          <button
            type="button"
            className="rd-icon-button"
            aria-label="Close"
            onClick={props.onClose}
            disabled={!props.onClose}
          >
            ×
          </button>
        </header>
        {props.children}
      </div>
    </div>
  );
}
