import { type RefObject, useEffect, useState } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab / Shift+Tab inside a modal, closes it on Escape (when `onEscape` is given) and gives focus
 * back to whatever had it when the modal opened, so keyboard users land where they were.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape: (() => void) | undefined): void {
  // Read during the first render, before anything inside (autoFocus, a step's own focus) moves focus.
  const [previous] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      // Back where the person was; if that element is gone (the list re-rendered), leave focus alone.
      if (previous?.isConnected) previous.focus();
    },
    [previous],
  );

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        if (onEscape) onEscape();
        return;
      }
      // App-wide shortcuts (Ctrl+1…6 switch areas, Ctrl+K) must not change the screen behind a modal.
      if ((e.ctrlKey || e.metaKey) && /^(\d|k|K)$/.test(e.key)) {
        e.stopPropagation();
        e.preventDefault();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        e.preventDefault();
        return;
      }
      if (e.shiftKey && (document.activeElement === first || !root.contains(document.activeElement))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !root.contains(document.activeElement))) {
        e.preventDefault();
        first.focus();
      }
    };
    // On the document, not the dialog: focus may sit on <body> after a focused button was disabled
    // (Submit while sending), and Tab / Escape must still be caught.
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [ref, onEscape]);
}
