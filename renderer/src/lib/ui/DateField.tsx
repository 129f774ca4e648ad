import { type InputHTMLAttributes, useId, useState } from 'react';
import { useFormat } from '../../features/preferences/use-prefs';
import { dateText } from './date-text';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  /** "YYYY-MM-DD" or '' (no day). */
  value: string;
  onChange(iso: string): void;
};

/**
 * A calendar day typed in the person's date format (date-text.ts), so it reads like every other date
 * on the screen. Unreadable text is said under the field (never kept silently): the value is then ''.
 */
export function DateField({ value, onChange, className, ...rest }: Props) {
  const f = useFormat();
  const t = dateText(f.dateFormat);
  const [text, setText] = useState(() => t.show(value));
  const [shownFor, setShownFor] = useState(value);
  const [touched, setTouched] = useState(false);
  const errorId = useId();
  // A value set from outside (a reset, a default range) replaces what is shown.
  if (value !== shownFor) {
    setShownFor(value);
    if (t.parse(text) !== value) setText(t.show(value));
  }
  const invalid = t.parse(text) === undefined;
  const describedBy = [rest['aria-describedby'], invalid && touched ? errorId : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <span className="date-field">
      <input
        {...rest}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        className={className ?? 'date-input'}
        placeholder={t.placeholder}
        value={text}
        aria-invalid={invalid && touched ? true : undefined}
        aria-describedby={describedBy || undefined}
        onBlur={() => setTouched(true)}
        onChange={(e) => {
          setText(e.target.value);
          const iso = t.parse(e.target.value);
          const next = iso ?? '';
          setShownFor(next);
          onChange(next);
        }}
      />
      {invalid && touched && (
        <span id={errorId} className="date-error" role="alert">
          Type the day as {t.placeholder}
        </span>
      )}
    </span>
  );
}
