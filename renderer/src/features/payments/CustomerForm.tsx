import { type FormEvent, useState } from 'react';
import { customerInputSchema, type CustomerInput, US_STATES } from '../../../../shared/domain/customer';
import type { CustomerView } from '../../../../shared/ipc/contract/payments';
import { Field } from './Field';
import { described } from './field-props';
import { useRegisterCustomer } from './mutations';
import { errorOf } from '../../lib/bridge';
import { fieldErrorsOf } from './server-errors';

const BLANK: Required<{ [K in keyof CustomerInput]: string }> = {
  firstName: '',
  lastName: '',
  email: '',
  countryCode: '',
  state: '',
  city: '',
  street: '',
  street2: '',
  zip: '',
  phone: '',
  dateOfBirth: '',
  customerCode: '',
};
type Key = keyof typeof BLANK;

/** Registers a customer at the service, with the service's rules checked beside each field first. */
export function CustomerForm(props: { profileId: string; onDone: (c?: CustomerView) => void }) {
  const [d, setD] = useState(BLANK);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const register = useRegisterCustomer();
  const us = d.countryCode.trim().toUpperCase() === 'US';

  const set = (k: Key, v: string) => {
    setD((cur) => ({ ...cur, [k]: v }));
    setErrors(({ [k]: _gone, ...rest }) => rest);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const parsed = customerInputSchema.safeParse(d);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const i of parsed.error.issues) found[String(i.path[0])] ??= i.message;
      setErrors(found);
      document.getElementById(`pm-cu-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    register.mutate(
      { profileId: props.profileId, customer: d },
      {
        onSuccess: (c) => props.onDone(c),
        onError: (err) => {
          const shape = errorOf(err);
          setErrors(fieldErrorsOf(shape, 'customer.'));
          setFormError(shape.message);
        },
      },
    );
  };
  const text = (
    k: Key,
    label: string,
    extra: { hint?: string; placeholder?: string; inputMode?: 'email' | 'tel' | 'numeric' } = {},
  ) => (
    <Field id={`pm-cu-${k}`} label={label} error={errors[k]} hint={extra.hint}>
      <input
        {...described(`pm-cu-${k}`, errors[k])}
        value={d[k]}
        autoComplete="off"
        placeholder={extra.placeholder}
        inputMode={extra.inputMode}
        onChange={(e) => set(k, e.target.value)}
      />
    </Field>
  );

  return (
    <form className="pm-form pm-panel" onSubmit={submit} noValidate aria-label="Register a customer">
      <h2>Register a customer</h2>
      <div className="pm-grid">
        {text('firstName', 'First name')}
        {text('lastName', 'Last name')}
        {text('email', 'Email', { inputMode: 'email', placeholder: 'name@example.com' })}
        {text('countryCode', 'Country code', { hint: 'Two letters, e.g. US, GB, CN.' })}
        {us ? (
          <Field id="pm-cu-state" label="State" error={errors['state']}>
            <select
              {...described('pm-cu-state', errors['state'])}
              value={d.state.toUpperCase()}
              onChange={(e) => set('state', e.target.value)}
            >
              <option value="">Choose…</option>
              {US_STATES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Field>
        ) : (
          text('state', 'State or region (optional)')
        )}
        {text('customerCode', 'Your customer code (optional)', { hint: 'Your own id for this customer.' })}
        {text('phone', 'Phone (optional)', { inputMode: 'tel' })}
        {text('dateOfBirth', 'Date of birth (optional)', { placeholder: 'yyyy-MM-dd' })}
        {text('street', 'Street (optional)')}
        {text('street2', 'Address line 2 (optional)')}
        {text('city', 'City (optional)')}
        {text('zip', 'Postal code (optional)')}
      </div>
      <p className="muted small">
        Refund Desk keeps the name, email, country, customer number and your code to find the customer again;
        the address, phone and date of birth go only to the payment service.
      </p>
      {formError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          {formError}
        </p>
      )}
      <footer className="rd-actions pm-actions">
        <button type="button" onClick={() => props.onDone()}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={register.isPending}
          aria-busy={register.isPending}
        >
          {register.isPending ? 'Registering…' : 'Register customer'}
        </button>
      </footer>
    </form>
  );
}
