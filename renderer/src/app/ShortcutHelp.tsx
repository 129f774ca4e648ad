import { useId } from 'react';
import { Dialog } from '../lib/ui/Dialog';
import { modKey } from './nav';

const SECTIONS: ReadonlyArray<{ title: string; keys: ReadonlyArray<[string, string]> }> = [
  {
    title: 'Everywhere',
    keys: [
      [modKey('K'), 'Command palette: go to a payment by any id, jump to an area, run an action'],
      ['?', 'This help'],
      ['/', 'Look up a payment (Transactions’ search box)'],
      [`${modKey('1')} … ${modKey('6')}`, 'Switch area'],
      ['Esc', 'Close the open pop-over, panel or dialog; focus returns where it was'],
    ],
  },
  {
    title: 'Transactions list',
    keys: [
      ['↑ ↓ PageUp PageDown Home End', 'Move through the rows'],
      ['Enter', 'Open the payment’s details'],
      ['Space', 'Tick the row (for Refresh selected)'],
      ['← → on a column edge', 'Make the column narrower or wider'],
    ],
  },
  {
    title: 'Dialogs',
    keys: [
      ['Tab / Shift+Tab', 'Move between fields (stays inside the dialog)'],
      ['Enter', 'Continue to the next step'],
      [
        'Tab, then Enter',
        'Send, on a step that moves money (a refund, a charge): Enter alone does nothing there, so a stray key never sends — Tab to the send button first',
      ],
    ],
  },
];

/** "?": every shortcut in one place. */
export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const uid = useId();
  return (
    <Dialog titleId={`${uid}-t`} title="Keyboard shortcuts" onClose={onClose} testId="shortcut-help">
      <div className="dlg-body help">
        {SECTIONS.map((s) => (
          <section key={s.title} aria-labelledby={`${uid}-${s.title}`}>
            <h3 id={`${uid}-${s.title}`}>{s.title}</h3>
            <dl>
              {s.keys.map(([k, what]) => (
                <div key={k}>
                  <dt>
                    <kbd>{k}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <div className="dlg-actions">
          <button type="button" className="primary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
