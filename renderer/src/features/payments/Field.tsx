import { type ReactNode, useState } from 'react';

/** A labelled form field with its hint or error underneath (ids tie them together for screen readers). */
export function Field(props: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={props.wide ? 'pm-field pm-field-wide' : 'pm-field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error ? (
        <p className="rd-error small" id={`${props.id}-msg`} data-testid={`error-${props.id}`}>
          {props.error}
        </p>
      ) : props.hint ? (
        <p className="muted small" id={`${props.id}-msg`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Copies text to the clipboard. The async Clipboard API needs a permission the desktop app never grants,
 * so the selection-based copy (allowed on a click) is the fallback; if both fail the text stays
 * selectable in its box.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    // A permission prompt nobody can answer would leave the button silent for ever: give it a second.
    await Promise.race([
      navigator.clipboard.writeText(text),
      new Promise((_, reject) => setTimeout(() => reject(new Error('clipboard timed out')), 1_000)),
    ]);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'pm-offscreen';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** A read-only value with a Copy button that says whether it worked. */
export function CopyField(props: { id: string; label: string; value: string; multiline?: boolean }) {
  const [said, setSaid] = useState<string>();
  const copy = async () =>
    setSaid((await copyText(props.value)) ? 'Copied.' : 'Select the text and copy it.');
  return (
    <div className="pm-field pm-copy">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="pm-copy-row">
        {props.multiline ? (
          <textarea
            id={props.id}
            readOnly
            value={props.value}
            rows={4}
            className="mono"
            onFocus={(e) => e.currentTarget.select()}
          />
        ) : (
          <input
            id={props.id}
            readOnly
            value={props.value}
            className="mono"
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
        <button type="button" onClick={() => void copy()} aria-describedby={`${props.id}-copied`}>
          Copy
        </button>
      </div>
      <p className="muted small" id={`${props.id}-copied`} role="status">
        {said ?? ''}
      </p>
    </div>
  );
}
