import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { Dialog } from '../lib/ui/Dialog';
import { classifyId } from '../../../shared/domain/id-kind';
import { type Command, matchCommands } from './nav';

/**
 * The command palette (Ctrl/Cmd+K): go to a payment by any id, jump to any area, run any action the
 * current screen offers. A combobox over a listbox: arrows move, Enter runs, Esc closes and focus goes
 * back where it was.
 */
export function CommandPalette({
  commands,
  onLookup,
  onClose,
}: {
  commands: readonly Command[];
  onLookup(query: string): void;
  onClose(): void;
}) {
  const uid = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const shape = classifyId(query);
  const items = useMemo(() => {
    const matched = matchCommands(commands, query);
    if (shape.shape === 'empty' || shape.shape === 'invalid') return matched;
    const go: Command = {
      id: 'lookup',
      title: `Go to payment “${shape.text}”`,
      group: 'Look up',
      keywords: 'find payment id',
      run: () => onLookup(shape.text),
    };
    // A number is surely an id; a word may be a command, so the look-up comes after matching commands.
    return shape.shape === 'service-number' || matched.length === 0 ? [go, ...matched] : [...matched, go];
  }, [commands, query, shape, onLookup]);
  const current = Math.min(active, Math.max(0, items.length - 1));
  const run = (c: Command | undefined) => {
    if (!c || c.disabledReason) return;
    onClose();
    // After the palette is gone and focus is back, so the command's own focus moves win.
    setTimeout(() => c.run(), 0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 5, PageUp: -5 };
    if (e.key in moves) {
      e.preventDefault();
      setActive(Math.min(items.length - 1, Math.max(0, current + (moves[e.key] ?? 0))));
    } else if (e.key === 'Home' && e.ctrlKey) setActive(0);
    else if (e.key === 'Enter') {
      e.preventDefault();
      run(items[current]);
    }
  };
  const optionId = (i: number) => `${uid}-opt-${i}`;
  return (
    <Dialog
      titleId={`${uid}-t`}
      title="Commands"
      onClose={onClose}
      testId="command-palette"
      className="palette"
    >
      <div className="dlg-body">
        <input
          className="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${uid}-list`}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(current) : undefined}
          aria-label="Type a command, an area, or a payment’s id or reference"
          placeholder="Type a command, an area, or a transaction no., reference or refund no."
          value={query}
          autoFocus
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={`${uid}-list`} role="listbox" aria-label="Commands" className="palette-list">
          {items.map((c, i) => {
            const heading = i === 0 || items[i - 1]?.group !== c.group ? c.group : undefined;
            return (
              <li
                key={c.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                aria-disabled={c.disabledReason ? true : undefined}
                className={`palette-item${i === current ? ' active' : ''}`}
                onMouseMove={() => setActive(i)}
                onClick={() => run(c)}
                data-command={c.id}
              >
                {heading && <span className="palette-group">{heading}</span>}
                <span className="palette-title">{c.title}</span>
                {c.disabledReason ? (
                  <span className="palette-note">{c.disabledReason}</span>
                ) : (
                  c.shortcut && <kbd>{c.shortcut}</kbd>
                )}
              </li>
            );
          })}
          {items.length === 0 && (
            <li role="option" aria-selected="false" aria-disabled="true" className="palette-item">
              <span className="palette-title">Nothing matches. Try fewer words.</span>
            </li>
          )}
        </ul>
      </div>
    </Dialog>
  );
}
