import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import type { PaymentIntent } from './intent';

/** What an answer about a payment says it is about; absent echoes prove nothing either way. */
export interface PaymentEchoed {
  transactionNo?: string;
  reference?: string;
  amountMinor?: number;
  currency?: Currency;
}

export interface AnswerMismatch {
  fields: string[];
  /** "amount: sent 12.34 USD, answered 999.99 USD; …" — the evidence, for the intent and its audit. */
  text: string;
}

/**
 * Which fields of an answer contradict the payment this desk sent: its amount, currency and reference,
 * the transaction number when the intent already has one (a query by that number), and a transaction
 * number this desk already recorded for another of its payments (`takenBy`, that payment's id). The
 * same check for a create's answer (recorder.ts) and for a query's (follow.ts), as refunds have it.
 */
/**
 * An answered value as evidence: printable ASCII only, short, and without a grouped 13–19 digit number
 * (a card number echoed as "4242 4242 …"; an unbroken one is left to the card call's scrubber, since
 * transaction numbers are unbroken runs of digits and are the evidence).
 */
const shown = (v: string) => {
  const plain = v
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\d(?:[ .-]*\d){12,18}/g, (run) => (/\D/.test(run) ? '[number hidden]' : run));
  return plain.length > 64 ? `${plain.slice(0, 64)}…` : plain;
};

export function paymentAnswerMismatch(
  intent: Pick<PaymentIntent, 'reference' | 'amountMinor' | 'currency' | 'transactionNo'>,
  a: PaymentEchoed,
  takenBy?: string,
): AnswerMismatch | undefined {
  const diffs: [string, string][] = [];
  const money = (minor: number, c: Currency) => `${formatMinor(minor, c)} ${c}`;
  const answeredCurrency = a.currency ?? intent.currency;
  if (a.amountMinor !== undefined && a.amountMinor !== intent.amountMinor)
    diffs.push([
      'amount',
      `sent ${money(intent.amountMinor, intent.currency)}, answered ${money(a.amountMinor, answeredCurrency)}`,
    ]);
  if (answeredCurrency !== intent.currency)
    diffs.push(['currency', `sent ${intent.currency}, answered ${answeredCurrency}`]);
  if (a.reference !== undefined && a.reference !== intent.reference)
    diffs.push(['reference', `sent ${intent.reference}, answered ${shown(a.reference)}`]);
  if (intent.transactionNo && a.transactionNo !== undefined && a.transactionNo !== intent.transactionNo)
    diffs.push(['transactionNo', `asked about ${intent.transactionNo}, answered ${shown(a.transactionNo)}`]);
  else if (takenBy && a.transactionNo)
    diffs.push([
      'transactionNo',
      `answered ${shown(a.transactionNo)}, which this desk already recorded for its payment ${takenBy}`,
    ]);
  if (diffs.length === 0) return undefined;
  return { fields: diffs.map((d) => d[0]), text: diffs.map(([f, t]) => `${f}: ${t}`).join('; ') };
}
