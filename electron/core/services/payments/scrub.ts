import {
  cardScrub,
  type KnownIds,
  scrubCardText,
  unsafeLinkNotice,
} from '../../../../shared/domain/card-scrub';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { PaymentIntent, PaymentPatch } from './intent';

/**
 * Belt and braces for the payment store: every text column passes the card scrubber (the rules that
 * need no card: Luhn runs, labelled numbers, codes and dates, card fields in links) on its way into the
 * database, and again on its way out — so a row written by an older version, which kept what the
 * service echoed, reaches no screen, event or export with a card number in it. The payments recorder
 * has already scrubbed with the request's own card; this catches what any other writer forgets.
 */

const ids = (r: {
  transactionNo?: string | null | undefined;
  reference?: string | undefined;
  customerNo?: string | undefined;
  merchantNo?: string | undefined;
  storeNo?: string | undefined;
}): KnownIds => [r.transactionNo, r.reference, r.customerNo, r.merchantNo, r.storeNo];

/** A transition's patch, scrubbed; a page link that carried card data is dropped, and said so. */
export function scrubPatch(patch: PaymentPatch, row: Partial<PaymentIntent>): PaymentPatch {
  const known = ids({ ...row, ...(patch.transactionNo ? { transactionNo: patch.transactionNo } : {}) });
  const out: PaymentPatch = { ...patch };
  for (const key of ['retCode', 'retMsg', 'detail'] as const)
    if (typeof out[key] === 'string') out[key] = cardScrub.text(out[key], known);
  for (const [key, page] of [
    ['authUrl', '3ds'],
    ['cashierUrl', 'checkout'],
  ] as const) {
    const url = out[key];
    if (typeof url !== 'string' || cardScrub.url(url, known) !== undefined) continue;
    out[key] = null;
    out.detail ??= unsafeLinkNotice(page);
  }
  return out;
}

/** One text about an intent (a check's note). */
export const scrubNote = (note: string, row: Partial<PaymentIntent>): string =>
  cardScrub.text(note, ids(row));

/** A new intent's texts (its description and note were typed, but a card number typed there stays out too). */
export function scrubDraft<T extends Partial<PaymentIntent>>(draft: T): T {
  const known = ids(draft);
  return {
    ...draft,
    ...(draft.description ? { description: cardScrub.text(draft.description, known) } : {}),
    ...(draft.note ? { note: cardScrub.text(draft.note, known) } : {}),
  };
}

/** An intent as read: texts scrubbed, a page link that carries card data not handed out. */
export function scrubIntent(i: PaymentIntent): PaymentIntent {
  const known = ids(i);
  const out: PaymentIntent = { ...scrubDraft(i) };
  for (const key of ['retCode', 'retMsg', 'detail'] as const)
    if (out[key] !== undefined) out[key] = scrubCardText(out[key], known);
  if (out.lastCheck) out.lastCheck = { ...out.lastCheck, note: cardScrub.text(out.lastCheck.note, known) };
  for (const [key, page] of [
    ['authUrl', '3ds'],
    ['cashierUrl', 'checkout'],
  ] as const) {
    const url = out[key];
    if (url === undefined || cardScrub.url(url, known) !== undefined) continue;
    delete out[key];
    out.detail ??= unsafeLinkNotice(page);
  }
  return out;
}

/** An audit entry's texts, scrubbed (on write and on read). */
export function scrubAudit(e: PaymentAuditEntry): PaymentAuditEntry {
  const known = ids(e);
  return {
    ...e,
    ...(e.retCode !== undefined ? { retCode: cardScrub.text(e.retCode, known) } : {}),
    ...(e.retMsg !== undefined ? { retMsg: cardScrub.text(e.retMsg, known) } : {}),
    ...(e.detail !== undefined ? { detail: cardScrub.text(e.detail, known) } : {}),
  };
}
