import { useFormat } from '../preferences/use-prefs';
import { QRCodeSVG } from 'qrcode.react';
import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import { cardLabel } from '../../../../shared/domain/card';
import { useRefundDialog } from '../refunds/dialog-context';
import { environmentLabel } from '../refunds/format';
import { CopyField } from './Field';
import { describePayment, KIND_LABELS, vendorLabel } from './format';
import { useCheckPayment, useOpenPage } from './mutations';
import { errorOf } from '../../lib/bridge';
import { PaymentBadge } from './PaymentBadge';

const MOVED: Record<ReturnType<typeof describePayment>['moneyMoved'], string> = {
  yes: 'Money moved: yes',
  no: 'Money moved: no',
  unknown: 'Money moved: unknown',
  'not yet': 'Money moved: not yet',
};

/** One payment: its state in words, what to hand the customer (link + QR, SDK data, 3-D Secure page), actions. */
export function PaymentDetail({
  payment: p,
  onClose,
  actions = true,
}: {
  payment: PaymentRow;
  onClose?: () => void;
  /** false inside another dialog: no Refund… (one modal at a time). */
  actions?: boolean;
}) {
  // Times in the person's chosen zone and format, like every other screen.
  const f = useFormat();
  const localTime = f.dateTimeSeconds;
  const outcome = describePayment(p, localTime, f.amountCode);
  const amountText = f.amountCode;
  const check = useCheckPayment();
  const open = useOpenPage();
  const refund = useRefundDialog();
  const isOpen = p.state === 'open';
  // As Transactions decides it: a payment refunded in full, no longer successful, or with refunds in
  // another currency is not offered for another refund (the dialog would refuse it anyway).
  const refunds = p.refundSummary;
  const refundBlock =
    refund.blocked ??
    refunds?.notRefundable ??
    (refunds?.remainingMinor !== undefined && refunds.remainingMinor <= 0
      ? 'Nothing is left to refund.'
      : undefined);
  const fact = (label: string, value: string | undefined, mono = false) =>
    value ? (
      <div>
        <dt>{label}</dt>
        <dd className={mono ? 'mono' : undefined}>{value}</dd>
      </div>
    ) : null;

  return (
    <section className="pm-detail" aria-label={`Payment ${p.reference}`} data-testid="payment-detail">
      <header className="pm-detail-head">
        <div>
          <div className="muted small">{KIND_LABELS[p.kind]}</div>
          <h2 className="num">{f.amountCode(p.amountMinor, p.currency)}</h2>
        </div>
        <PaymentBadge state={p.state} refunded={p.refundSummary?.refunded} />
        {onClose && (
          <button type="button" className="rd-icon-button" aria-label="Close payment" onClick={onClose}>
            ×
          </button>
        )}
      </header>

      <div
        className={`rd-outcome rd-outcome-${outcome.tone}`}
        data-testid="payment-outcome"
        aria-live="polite"
      >
        <h3>{outcome.title}</h3>
        <p className="rd-moved">{MOVED[outcome.moneyMoved]}</p>
        <p>{outcome.body}</p>
        {p.lastCheck && (p.state === 'outcome_unknown' || p.state === 'not_created') && (
          <p className="small muted" data-testid="payment-evidence">
            Checked {localTime(p.lastCheck.at)}: {p.lastCheck.note}
          </p>
        )}
      </div>

      {isOpen && p.kind === 'link' && p.cashierUrl && (
        <div className="pm-handover">
          <CopyField id={`pm-link-${p.id}`} label="Payment link (cashierUrl)" value={p.cashierUrl} />
          <figure className="pm-qr" data-testid="payment-qr">
            <QRCodeSVG value={p.cashierUrl} size={152} marginSize={2} title="QR code of the payment link" />
            <figcaption className="muted small">The customer scans this to open the link.</figcaption>
          </figure>
          <button
            type="button"
            onClick={() => open.mutate({ profileId: p.profileId, id: p.id, page: 'checkout' })}
          >
            Open in browser
          </button>
        </div>
      )}
      {p.kind === 'whitelabel' && p.sdkAuthorization && (
        <CopyField
          id={`pm-sdk-${p.id}`}
          label={`SDK initialization data for ${vendorLabel(p.vendor)} (authorization)`}
          value={p.sdkAuthorization}
          multiline
        />
      )}
      {p.kind === 'whitelabel' && p.sdkAuthorization && isOpen && p.environment === 'demo' && (
        <div className="pm-handover">
          <p className="muted small">
            In Demo the sandbox stands in for your page with the SDK: open its payer page to pay or fail this
            payment as the customer would.
          </p>
          <button
            type="button"
            onClick={() => open.mutate({ profileId: p.profileId, id: p.id, page: 'checkout' })}
          >
            Open the Demo payer page
          </button>
          {open.isSuccess && open.variables.id === p.id && (
            <CopyField id={`pm-demo-payer-${p.id}`} label="Demo payer page" value={open.data.url} />
          )}
        </div>
      )}
      {p.kind === 'whitelabel' && !p.sdkAuthorization && isOpen && (
        <p className="muted small">
          The SDK data was shown in the session that created this payment. Refund Desk does not store it (it
          holds the vendor’s client token): create a new whitelabel payment if it is needed again.
        </p>
      )}
      {isOpen && p.kind === 'card' && p.authUrl && (
        <div className="pm-handover">
          <p className="rd-alert rd-alert-warn" role="status">
            The bank asks for a 3-D Secure check. Open the page, let the cardholder confirm, and this screen
            updates by itself.
          </p>
          <button
            type="button"
            className="primary"
            onClick={() => open.mutate({ profileId: p.profileId, id: p.id, page: '3ds' })}
          >
            Open the 3-D Secure page
          </button>
          <CopyField id={`pm-3ds-${p.id}`} label="3-D Secure page" value={p.authUrl} />
        </div>
      )}
      {/* Only beside the link it speaks of: this payment's, while it still waits for the check. */}
      {open.isSuccess && open.variables.id === p.id && isOpen && p.kind === 'card' && p.authUrl && (
        <p className="muted small" role="status" data-testid="open-page-note">
          Asked your browser to open the page. If nothing opened, copy the link above.
        </p>
      )}
      {open.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          {errorOf(open.error).message}
        </p>
      )}

      <dl className="rd-facts rd-facts-confirm">
        {fact('Reference', p.reference, true)}
        {fact('Transaction', p.transactionNo, true)}
        {fact('Service status', p.paymentStatus)}
        {fact(
          'Method',
          p.kind === 'card' || p.kind === 'charge'
            ? (p.methodLabel ?? cardLabel(p.cardLast4))
            : vendorLabel(p.vendor),
        )}
        {fact('Customer', p.customerName)}
        {fact('Customer no.', p.customerNo, true)}
        {fact(
          'Stored card',
          p.saveCard ? (p.methodSaved ? (p.methodLabel ?? 'saved') : 'requested; not stored yet') : undefined,
        )}
        {fact('Description', p.description)}
        {fact('Note', p.note)}
        {fact(
          'Items',
          p.goods.length ? p.goods.map((g) => `${g.quantity} × ${g.name}`).join(', ') : undefined,
        )}
        {fact('Created', localTime(p.createdAt))}
        {fact('Closes unpaid at', isOpen ? p.expiresAt && localTime(p.expiresAt) : undefined)}
        {fact('Paid at', p.paidAt && localTime(p.paidAt))}
        {refunds && (
          <>
            {fact('Refunded', amountText(refunds.refundedMinor, p.currency))}
            {fact(
              'Refundable',
              refunds.remainingMinor !== undefined ? amountText(refunds.remainingMinor, p.currency) : 'none',
            )}
            {fact('Refunds as of', `${localTime(refunds.asOf)} (from Transactions)`)}
          </>
        )}
        {fact('Operator', p.operator)}
        {fact('Profile', `${p.profileName} · ${environmentLabel(p.environment)}`)}
      </dl>

      <footer className="rd-actions">
        {(p.state === 'open' || p.state === 'outcome_unknown' || p.state === 'sending') && (
          <button
            type="button"
            onClick={() => check.mutate({ profileId: p.profileId, id: p.id })}
            disabled={check.isPending}
          >
            {check.isPending ? 'Checking…' : 'Check again'}
          </button>
        )}
        {actions && p.state === 'succeeded' && p.transactionNo && (
          <button
            type="button"
            className="primary"
            onClick={() => refund.open(p.transactionNo!)}
            disabled={refundBlock !== undefined}
            aria-describedby={refundBlock ? `pm-refund-block-${p.id}` : undefined}
          >
            Refund…
          </button>
        )}
      </footer>
      {actions && refundBlock && (
        <p id={`pm-refund-block-${p.id}`} className="small muted">
          {refundBlock}
        </p>
      )}
      {check.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Check again failed: {errorOf(check.error).message}
        </p>
      )}
      {(p.kind === 'link' || p.kind === 'whitelabel') && isOpen && (
        <p className="muted small">
          The service has no call to cancel {p.kind === 'link' ? 'a payment link' : 'a whitelabel payment'}:
          an unpaid one closes by itself at its expiry.
        </p>
      )}
    </section>
  );
}
