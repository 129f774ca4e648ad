import { ENVIRONMENT_LABELS, type Environment } from '../../../../shared/domain/profile';
import { REFUND_REASONS } from '../../../../shared/ipc/contract/refunds';
import { formatMinor } from '../../../../shared/domain/money';

/**
 * "1,234.50 USD"-free on purpose: the dialog shows the exact plain decimal that will be sent and the
 * currency code beside it, so what a person reads is what they would type ("1234.50 USD").
 */
export function amountText(amountMinor: number, currency: string): string {
  try {
    return `${formatMinor(amountMinor, currency)} ${currency}`;
  } catch {
    return `${amountMinor} (minor units) ${currency}`;
  }
}

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** A stored UTC instant in the person's local time. */
export function localTime(iso: string | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : dateTime.format(ms);
}

/** Environment names as people say them. */
export function environmentLabel(env: string): string {
  return ENVIRONMENT_LABELS[env as Environment] ?? env;
}

/** A reason code as the dialog offered it ("Duplicate payment"); unknown codes are shown as stored. */
export function reasonLabel(code: string): string {
  return REFUND_REASONS.find((r) => r.code === code)?.label.replace(/ \(explain in the note\)$/, '') ?? code;
}
