import { type FormEvent, useEffect, useState } from 'react';
import {
  checkoutProblem,
  newPaymentReference,
  REFERENCE_MESSAGE,
  REFERENCE_PATTERN,
  settleCurrenciesFor,
  TIMEOUT_MIN,
  VENDOR_RULES,
  vendorRule,
} from '../../../../shared/domain/checkout';
import { isKnownCurrency } from '../../../../shared/domain/currencies';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { parseAmountField } from './amount';
import { Field } from './Field';
import { described } from './field-props';
import { type GoodsDraft, parseGoods } from './goods';
import { GoodsEditor } from './GoodsEditor';
import { useCreateCheckout } from './mutations';
import { errorOf } from '../../lib/bridge';
import { AmountField, CustomerSelect, ReferenceField } from './OrderFields';
import { fieldErrorsOf } from './server-errors';
import { useCache } from '../../db/owner';

const EXPIRY_CHOICES = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: TIMEOUT_MIN.default, label: '2 hours (default)' },
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 3 * 24 * 60, label: '3 days' },
  { minutes: 7 * 24 * 60, label: '7 days' },
  { minutes: TIMEOUT_MIN.max, label: '30 days (the longest)' },
];

interface Draft {
  vendor: string;
  currency: string;
  settleCurrency: string;
  amount: string;
  reference: string;
  customerId: string;
  description: string;
  note: string;
  goods: GoodsDraft[];
  timeoutMin: number;
  callbackUrl: string;
  ipnUrl: string;
}

const fresh = (whitelabel: boolean, urls?: { callbackUrl?: string; ipnUrl?: string }): Draft => ({
  vendor: whitelabel ? 'paypal' : 'alipay',
  currency: 'USD',
  settleCurrency: 'USD',
  amount: '',
  reference: newPaymentReference(),
  customerId: '',
  description: '',
  note: '',
  goods: [],
  timeoutMin: TIMEOUT_MIN.default,
  callbackUrl: urls?.callbackUrl ?? '',
  ipnUrl: urls?.ipnUrl ?? '',
});

/** Payment link (hosted checkout) or whitelabel (terminal=YIP) for the active profile. */
export function CheckoutForm(props: {
  kind: 'link' | 'whitelabel';
  profile: { id: string; environment: string };
  customers: readonly CustomerView[];
  onCreated: (p: PaymentView) => void;
}) {
  const whitelabel = props.kind === 'whitelabel';
  const [d, setD] = useState<Draft>(() => fresh(whitelabel));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const create = useCreateCheckout();
  const cache = useCache();
  const urlsKey = 'payments.addresses';
  const isDemo = props.profile.environment === 'demo';

  // The return page and notification address are remembered per profile (they rarely change).
  useEffect(() => {
    let live = true;
    void cache.setting(props.profile.id, urlsKey).then((v) => {
      const saved = (v ?? {}) as { callbackUrl?: unknown; ipnUrl?: unknown };
      if (!live) return;
      setD((cur) => ({
        ...cur,
        callbackUrl: cur.callbackUrl || (typeof saved.callbackUrl === 'string' ? saved.callbackUrl : ''),
        ipnUrl: cur.ipnUrl || (typeof saved.ipnUrl === 'string' ? saved.ipnUrl : ''),
      }));
    });
    return () => {
      live = false;
    };
  }, [cache, props.profile.id]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setD((cur) => {
      const next = { ...cur, [key]: value };
      // Keep currency and settlement valid for the chosen method.
      const rule = vendorRule(next.vendor);
      if (rule && !rule.currencies.includes(next.currency)) next.currency = rule.currencies[0]!;
      const settle = settleCurrenciesFor(next.vendor, next.currency);
      if (!settle.includes(next.settleCurrency)) next.settleCurrency = settle[0]!;
      return next;
    });
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const vendors = VENDOR_RULES.filter((v) => !whitelabel || v.whitelabel);
  const rule = vendorRule(d.vendor);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const found: Record<string, string> = {};
    const amount = parseAmountField(d.amount, d.currency);
    if (!amount.ok) found['amount'] = amount.message;
    if (!REFERENCE_PATTERN.test(d.reference.trim())) found['reference'] = REFERENCE_MESSAGE;
    const problem = checkoutProblem({ ...d, whitelabel });
    if (problem) found[problem.field] = problem.message;
    const goods = parseGoods(d.goods);
    if ('error' in goods) found['goods'] = goods.error;
    // The draft holds what the selects show; only a currency this app handles is sent.
    if (!isKnownCurrency(d.currency)) found['currency'] = 'Choose a currency.';
    if (!isKnownCurrency(d.settleCurrency)) found['settleCurrency'] = 'Choose a settlement currency.';
    if (
      Object.keys(found).length > 0 ||
      !amount.ok ||
      'error' in goods ||
      !isKnownCurrency(d.currency) ||
      !isKnownCurrency(d.settleCurrency)
    ) {
      setErrors(found);
      document.getElementById(`pm-co-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    create.mutate(
      {
        profileId: props.profile.id,
        kind: props.kind,
        amountMinor: amount.amountMinor,
        currency: d.currency,
        settleCurrency: d.settleCurrency,
        vendor: d.vendor,
        reference: d.reference.trim(),
        timeoutMin: d.timeoutMin,
        goods: goods.lines,
        ...(d.customerId ? { customerId: d.customerId } : {}),
        ...(d.description.trim() ? { description: d.description.trim() } : {}),
        ...(d.note.trim() ? { note: d.note.trim() } : {}),
        ...(!whitelabel && d.callbackUrl.trim() ? { callbackUrl: d.callbackUrl.trim() } : {}),
        ...(d.ipnUrl.trim() ? { ipnUrl: d.ipnUrl.trim() } : {}),
      },
      {
        onSuccess: (p) => {
          props.onCreated(p);
          if (p.state === 'rejected') {
            // Nothing was created: keep what was typed so it can be corrected and sent again.
            if (p.retCode === '000022')
              setErrors({ reference: 'The service says this reference was used before: press New.' });
            return;
          }
          if (d.callbackUrl.trim() || d.ipnUrl.trim())
            void cache.saveSetting(props.profile.id, urlsKey, {
              callbackUrl: d.callbackUrl.trim(),
              ipnUrl: d.ipnUrl.trim(),
            });
          setD(fresh(whitelabel, { callbackUrl: d.callbackUrl, ipnUrl: d.ipnUrl }));
        },
        onError: (err) => {
          const shape = errorOf(err);
          setErrors(fieldErrorsOf(shape));
          setFormError(shape.message);
        },
      },
    );
  };

  const id = (k: string) => `pm-co-${k}`;
  return (
    <form
      className="pm-form"
      onSubmit={submit}
      noValidate
      aria-label={whitelabel ? 'New whitelabel payment' : 'New payment link'}
    >
      <div className="pm-grid">
        <Field
          id={id('vendor')}
          label="Payment method"
          error={errors['vendor']}
          hint={
            rule?.assumed
              ? 'Currency for this method assumed (not in the service’s documents); the service’s answer decides.'
              : undefined
          }
        >
          <select
            {...described(id('vendor'), errors['vendor'])}
            value={d.vendor}
            onChange={(e) => set('vendor', e.target.value)}
          >
            {vendors.map((v) => (
              <option key={v.code} value={v.code}>
                {v.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id('currency')} label="Currency" error={errors['currency']}>
          <select
            {...described(id('currency'), errors['currency'])}
            value={d.currency}
            onChange={(e) => set('currency', e.target.value)}
          >
            {(rule?.currencies ?? ['USD']).map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field id={id('settleCurrency')} label="Settles in" error={errors['settleCurrency']}>
          <select
            {...described(id('settleCurrency'), errors['settleCurrency'])}
            value={d.settleCurrency}
            onChange={(e) => set('settleCurrency', e.target.value)}
          >
            {settleCurrenciesFor(d.vendor, d.currency).map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <AmountField
          id={id('amount')}
          currency={d.currency}
          value={d.amount}
          error={errors['amount']}
          onChange={(v) => set('amount', v)}
        />
        <ReferenceField
          id={id('reference')}
          value={d.reference}
          error={errors['reference']}
          onChange={(v) => set('reference', v)}
        />
        <CustomerSelect
          id={id('customerId')}
          label="Customer (optional)"
          customers={props.customers}
          value={d.customerId}
          onChange={(v) => set('customerId', v)}
        />
        <Field
          id={id('description')}
          label="Description (optional)"
          error={errors['description']}
          hint="Shown to the payer; up to 100 characters."
        >
          <input
            {...described(id('description'), errors['description'])}
            maxLength={100}
            value={d.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        <Field
          id={id('note')}
          label="Note (optional)"
          error={errors['note']}
          hint="For your records; up to 100 characters."
        >
          <input
            {...described(id('note'), errors['note'])}
            maxLength={100}
            value={d.note}
            onChange={(e) => set('note', e.target.value)}
          />
        </Field>
        <Field id={id('timeoutMin')} label="Unpaid, it closes after" error={errors['timeoutMin']}>
          <select
            id={id('timeoutMin')}
            value={d.timeoutMin}
            onChange={(e) => set('timeoutMin', Number(e.target.value))}
          >
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.minutes} value={c.minutes}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <GoodsEditor rows={d.goods} error={errors['goods']} onChange={(rows) => set('goods', rows)} />
      <details className="pm-advanced" open={Boolean(errors['callbackUrl'] || errors['ipnUrl']) || undefined}>
        <summary>Addresses{isDemo ? ' (not needed in Demo)' : ''}</summary>
        {!whitelabel && (
          <Field
            id={id('callbackUrl')}
            label="Page the customer returns to after paying"
            error={errors['callbackUrl']}
            hint={
              isDemo
                ? 'Demo: the sandbox’s address when left empty.'
                : 'Your site’s https:// page; {status}, {reference}, {transactionNo} and {amount} are filled in.'
            }
            wide
          >
            <input
              {...described(id('callbackUrl'), errors['callbackUrl'])}
              inputMode="url"
              placeholder="https://"
              value={d.callbackUrl}
              onChange={(e) => set('callbackUrl', e.target.value)}
            />
          </Field>
        )}
        <Field
          id={id('ipnUrl')}
          label="Your notification address (ipnUrl)"
          error={errors['ipnUrl']}
          hint="Needed only when this computer cannot receive the service’s notifications (any profile but Demo or a service on this machine). Refund Desk follows the payment by polling either way."
          wide
        >
          <input
            {...described(id('ipnUrl'), errors['ipnUrl'])}
            inputMode="url"
            placeholder="https://"
            value={d.ipnUrl}
            onChange={(e) => set('ipnUrl', e.target.value)}
          />
        </Field>
      </details>
      {formError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          {formError}
        </p>
      )}
      <footer className="rd-actions pm-actions">
        <button type="submit" className="primary" disabled={create.isPending} aria-busy={create.isPending}>
          {create.isPending ? 'Creating…' : whitelabel ? 'Create whitelabel payment' : 'Create payment link'}
        </button>
      </footer>
    </form>
  );
}
