import { isKnownCurrency } from '../../../../shared/domain/currencies';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { dayStartInZone } from '../../../../shared/domain/zones';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { Formatters } from '../preferences/format';
import { amountIn, type CustomerWords, fold } from './customer-words';

/** One payment that matches what the customer said, and every reason it matched, in words. */
export interface CustomerMatch {
  transactionNo: string;
  /** The cached payment, when it is in this computer's cache (else only this desk's own payment knows it). */
  tx?: Transaction;
  why: string[];
}

/** What the search looks through: the profile's cache, and this desk's own payments and customers. */
export interface SearchData {
  transactions: readonly Transaction[];
  payments?: readonly PaymentView[];
  customers?: readonly CustomerView[];
}

type Words = Pick<Formatters, 'amountCode' | 'dateTime' | 'locale' | 'zone'>;

/** The customers the words name (e-mail and name words), with the words for why. */
function customersNamed(w: CustomerWords, customers: readonly CustomerView[]) {
  if (!w.email && w.name.length === 0) return undefined;
  const out = new Map<string, string>();
  for (const c of customers) {
    const full = fold(`${c.firstName} ${c.lastName}`);
    const emailOk = !w.email || c.email.toLowerCase().includes(w.email);
    const nameOk = w.name.every((n) => full.includes(n));
    if (emailOk && nameOk) out.set(c.customerNo, `Customer ${c.firstName} ${c.lastName} (${c.email})`);
  }
  return out;
}

/**
 * Every payment the words match, newest first, each with why. All parts of the words must match; an
 * amount is read in each payment's own currency in the person's number format (an ambiguous one matches
 * nothing), a payment's refunds count as its amounts too, and a day is the person's calendar day.
 * E-mail and name come from this desk's customers and the payments made for them.
 */
export function findByCustomerWords(w: CustomerWords, data: SearchData, f: Words): CustomerMatch[] {
  const named = customersNamed(w, data.customers ?? []);
  // Payments made here, by the transaction they became: their customer, for e-mail and name words.
  const madeHere = new Map<string, PaymentView>();
  for (const p of data.payments ?? []) if (p.transactionNo) madeHere.set(p.transactionNo, p);
  const dayFrom = w.day ? dayStartInZone(w.day, f.zone.iana) : undefined;
  const dayTo = w.day ? dayStartInZone(w.day, f.zone.iana, 1) : undefined;
  const inDay = (iso: string | undefined) => {
    const ms = iso ? Date.parse(iso) : NaN;
    return dayFrom !== undefined && dayTo !== undefined && ms >= dayFrom && ms < dayTo;
  };

  const matches: CustomerMatch[] = [];
  const seen = new Set<string>();
  const consider = (transactionNo: string, tx: Transaction | undefined, p: PaymentView | undefined) => {
    if (seen.has(transactionNo)) return;
    const currency = tx?.currency ?? p?.currency;
    const amountMinor = tx?.amountMinor ?? p?.amountMinor;
    if (!currency || amountMinor === undefined || !isKnownCurrency(currency)) return;
    const why: string[] = [];
    if (w.currencies.length > 0) {
      if (!w.currencies.includes(currency)) return;
      if (w.amounts.length === 0) why.push(`In ${currency}`);
    }
    for (const text of w.amounts) {
      const wanted = amountIn(text, currency, f.locale);
      if (wanted === undefined) return;
      const refund = tx?.refunds.find((r) => r.currency === currency && r.refundAmountMinor === wanted);
      if (amountMinor === wanted) why.push(`Amount ${f.amountCode(wanted, currency)}`);
      else if (refund)
        why.push(`Refund of ${f.amountCode(wanted, currency)} (refund no. ${refund.refundTransactionNo})`);
      else return;
    }
    if (w.lastFour) {
      const card = tx?.cardLast4 ?? p?.cardLast4;
      const asAmount = amountIn(w.lastFour, currency, f.locale);
      if (card === w.lastFour) why.push(`Card ending ${w.lastFour}`);
      else if (asAmount === amountMinor) why.push(`Amount ${f.amountCode(amountMinor, currency)}`);
      else return;
    }
    if (named) {
      const who = p?.customerNo ? named.get(p.customerNo) : undefined;
      if (!who) return;
      why.push(`${who}, payment ${p?.reference ?? ''} made here`.replace(/ ,/, ','));
    }
    if (w.day) {
      const created = tx?.createdAt ?? p?.createdAt;
      const paid = tx?.paidAt ?? p?.paidAt;
      if (inDay(created)) why.push(`Created ${f.dateTime(created)}`);
      else if (inDay(paid)) why.push(`Paid ${f.dateTime(paid)}`);
      else return;
    }
    if (why.length === 0) return;
    seen.add(transactionNo);
    matches.push({ transactionNo, ...(tx ? { tx } : {}), why });
  };

  for (const tx of data.transactions) consider(tx.transactionNo, tx, madeHere.get(tx.transactionNo));
  // Payments made here that are not in the cache yet (opening one looks it up at the service).
  for (const [no, p] of madeHere) consider(no, undefined, p);
  const when = (m: CustomerMatch) => m.tx?.createdAt ?? madeHere.get(m.transactionNo)?.createdAt ?? '';
  return matches.sort((a, b) => when(b).localeCompare(when(a)));
}
