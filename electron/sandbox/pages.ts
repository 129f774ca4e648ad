/**
 * Pages the sandbox serves to the payer: the hosted checkout (Pay / Fail / Cancel) and the 3-D Secure
 * challenge (Approve / Deny). Plain HTML forms, no script; every interpolated value is escaped.
 * After a choice the payer is sent (303) to the payment's callbackUrl with {status}, {amount},
 * {reference} and {transactionNo} substituted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toWireAmount } from '../../shared/domain/money';
import type { SandboxContext } from './context';
import { readBody, redirect, sendHtml } from './http-util';
import { closeExpired, completePayment, isOpen } from './payments';
import type { PaymentRecord } from './types';

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Fills the callbackUrl placeholders (raw or percent-encoded braces), URL-encoding each value. */
export function substituteCallback(
  url: string,
  values: Record<'status' | 'amount' | 'reference' | 'transactionNo', string>,
): string {
  let out = url;
  for (const [key, value] of Object.entries(values)) {
    const enc = encodeURIComponent(value);
    out = out.replaceAll(`{${key}}`, enc).replaceAll(`%7B${key}%7D`, enc).replaceAll(`%7b${key}%7d`, enc);
  }
  return out;
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
.card{border:1px solid #ccd;border-radius:8px;padding:1.25rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}
dt{color:#556}button{font:inherit;padding:.55rem 1.1rem;margin:.5rem .5rem 0 0;border-radius:6px;border:1px solid #99a;cursor:pointer}
.primary{background:#1f5fd6;color:#fff;border-color:#1f5fd6}form{display:inline}.note{color:#556;font-size:.85rem}</style>
</head><body><main class="card">${body}</main><p class="note">Refund Desk payment sandbox — no real money moves.</p></body></html>`;
}

function details(p: PaymentRecord): string {
  const rows: [string, string][] = [
    ['Amount', `${toWireAmount(p.amountMinor, p.currency)} ${p.currency}`],
    ['Merchant', p.merchantNo],
    ['Reference', p.reference],
    ['Transaction', p.transactionNo],
    ['Method', p.cardLast4 ? `${p.vendor} •••• ${p.cardLast4}` : p.vendor],
  ];
  if (p.description) rows.push(['Description', p.description]);
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function buttons(action: string, choices: [string, string, boolean][]): string {
  return choices
    .map(
      ([verb, label, primary]) =>
        `<form method="post" action="${escapeHtml(`${action}/${verb}`)}"><button type="submit"${primary ? ' class="primary"' : ''}>${escapeHtml(label)}</button></form>`,
    )
    .join('');
}

function statusPage(res: ServerResponse, httpStatus: number, p: PaymentRecord): void {
  sendHtml(res, httpStatus, layout('Payment', `<h1>Payment ${escapeHtml(p.status)}</h1>${details(p)}`));
}

/** Sends the payer back to the merchant, or shows the result when there is no callbackUrl. */
function finish(res: ServerResponse, p: PaymentRecord, status: string): void {
  if (!p.callbackUrl) {
    statusPage(res, 200, p);
    return;
  }
  redirect(
    res,
    substituteCallback(p.callbackUrl, {
      status,
      amount: toWireAmount(p.amountMinor, p.currency),
      reference: p.reference,
      transactionNo: p.transactionNo,
    }),
  );
}

/** The merchant's return page the Demo profile names (`/returned?status=…`): a page, not the API's JSON. */
export const RETURN_PATH = '/returned';

const RETURN_WORDS: Record<string, string> = {
  success: 'Thank you — the payment went through.',
  failed: 'The payment did not go through. No money moved.',
  cancelled: 'You left the checkout without paying.',
};

/** Answers the return page; false when the path is not it. */
function handleReturn(res: ServerResponse, path: string, query: URLSearchParams): boolean {
  if (path !== RETURN_PATH) return false;
  const status = query.get('status') ?? '';
  const words = RETURN_WORDS[status] ?? 'The payment’s outcome is not known yet.';
  const reference = query.get('reference');
  sendHtml(
    res,
    200,
    layout(
      'Back at the shop',
      `<h1>${escapeHtml(words)}</h1>${reference ? `<p>Reference ${escapeHtml(reference)}.</p>` : ''}<p>You can close this window.</p>`,
    ),
  );
  return true;
}

const PAGE = /^\/(checkout|3ds)\/([0-9a-f]{32})(?:\/(pay|fail|cancel|approve|deny))?$/;

/** Handles /checkout/…, /3ds/… and the return page; returns false when the path is not a page. */
export async function handlePage(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams = new URLSearchParams(),
): Promise<boolean> {
  if (handleReturn(res, path, query)) return true;
  const m = PAGE.exec(path);
  if (!m) return false;
  const [, kind, token = '', verb] = m;
  await readBody(req, 10_000).catch(() => '');
  closeExpired(ctx);
  const p = ctx.store.paymentByPageToken(token);
  const is3ds = kind === '3ds';
  // A token only opens the page it was issued for: checkout tokens are not 3-D Secure challenges.
  if (!p || is3ds !== (p.channel === 'capture')) {
    sendHtml(
      res,
      404,
      layout('Not found', '<h1>Payment not found</h1><p>This link is unknown or has expired.</p>'),
    );
    return true;
  }
  const validVerb =
    verb === undefined ||
    (is3ds ? verb === 'approve' || verb === 'deny' : verb === 'pay' || verb === 'fail' || verb === 'cancel');
  if (!validVerb || (verb === undefined) !== (req.method === 'GET')) {
    sendHtml(res, 405, layout('Not allowed', '<h1>Not allowed</h1>'));
    return true;
  }
  if (!isOpen(p)) {
    statusPage(res, verb ? 409 : 200, p);
    return true;
  }
  const action = `/${kind}/${token}`;
  if (verb === undefined) {
    const body = is3ds
      ? `<h1>3-D Secure check</h1><p>Your bank asks you to confirm this card payment.</p>${details(p)}${buttons(
          action,
          [
            ['approve', 'Approve', true],
            ['deny', 'Deny', false],
          ],
        )}`
      : `<h1>Checkout</h1>${details(p)}${buttons(action, [
          ['pay', 'Pay', true],
          ['fail', 'Fail', false],
          ['cancel', 'Cancel', false],
        ])}`;
    sendHtml(res, 200, layout(is3ds ? '3-D Secure' : 'Checkout', body));
    return true;
  }
  if (verb === 'cancel') {
    // The payer walked away: the payment stays open (payable) until its timeout closes it.
    finish(res, p, 'cancelled');
    return true;
  }
  completePayment(ctx, p, verb === 'pay' || verb === 'approve' ? 'success' : 'failed');
  finish(res, p, p.status);
  return true;
}
