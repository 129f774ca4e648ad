import { EXCEPTION_STATES, type ExceptionState } from '../../../../shared/recon/exceptions';
import type { ExceptionAuditEntry } from './close-store';

/** One audit entry as the close history shows it: who, when, what, and the state change and note it made. */
export interface AuditEntryView {
  at: string;
  by: string;
  action: string;
  exceptionId?: string;
  login?: string;
  desk?: string;
  from?: ExceptionState;
  to?: ExceptionState;
  note?: string;
}

const stateOf = (v: unknown): ExceptionState | undefined => {
  const s = typeof v === 'object' && v !== null ? (v as { state?: unknown }).state : undefined;
  return EXCEPTION_STATES.find((x) => x === s);
};
const notesOf = (v: unknown): unknown[] => {
  const n = typeof v === 'object' && v !== null ? (v as { notes?: unknown }).notes : undefined;
  return Array.isArray(n) ? n : [];
};

/**
 * The entry without its whole before/after records (those stay in the database): the states it moved
 * between and the note it added, read defensively — the audit is stored JSON, and a shape this build
 * does not know is shown as the bare action rather than refused.
 */
export function auditEntryView(e: ExceptionAuditEntry): AuditEntryView {
  const from = e.before !== undefined ? stateOf(e.before) : undefined;
  const to = e.action === 'sign_off' ? undefined : stateOf(e.after);
  const added = notesOf(e.after).slice(notesOf(e.before).length);
  const last = added[added.length - 1];
  const text = typeof last === 'object' && last !== null ? (last as { text?: unknown }).text : undefined;
  return {
    at: e.at,
    by: e.by,
    action: e.action,
    ...(e.exceptionId ? { exceptionId: e.exceptionId } : {}),
    ...(e.login ? { login: e.login } : {}),
    ...(e.desk ? { desk: e.desk } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(typeof text === 'string' ? { note: text } : {}),
  };
}
