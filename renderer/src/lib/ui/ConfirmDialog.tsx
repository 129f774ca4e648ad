import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Dialog } from './Dialog';

/** Asks before doing something large: what will happen, a Cancel (focused first) and the action. */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}) {
  const uid = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <Dialog titleId={`${uid}-t`} title={props.title} onClose={props.onCancel} testId={props.testId}>
      <div className="dlg-body">
        {props.children}
        <div className="dlg-actions">
          <button type="button" ref={cancel} onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" className="primary" onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
