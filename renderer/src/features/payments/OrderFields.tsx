import type { Ref } from 'react';
import { newPaymentReference } from '../../../../shared/domain/checkout';
import type { CustomerView } from '../../../../shared/ipc/contract/payments';
import { useFormat } from '../preferences/use-prefs';
import { Field } from './Field';
import { described } from './field-props';

/** The merchant reference with a New button (a fresh generated one); the service refuses reuse. */
export function ReferenceField(props: {
  id: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Field
      id={props.id}
      label="Reference"
      error={props.error}
      hint="Unique: the service refuses a reference used before."
    >
      <div className="pm-inline">
        <input
          {...described(props.id, props.error)}
          className="mono"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <button type="button" onClick={() => props.onChange(newPaymentReference())}>
          New
        </button>
      </div>
    </Field>
  );
}

/** The optional customer a payment is for, from this profile's registered customers. */
export function CustomerSelect(props: {
  id: string;
  label: string;
  customers: readonly CustomerView[];
  value: string;
  error?: string | undefined;
  onChange: (customerId: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <select
        {...described(props.id, props.error)}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">No customer</option>
        {props.customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.firstName} {c.lastName} · {c.email}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** An amount typed in the person's number format, in the currency's units (checked strictly before sending). */
export function AmountField({
  ref,
  ...props
}: {
  id: string;
  currency: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
  className?: string;
}) {
  const f = useFormat();
  return (
    <Field id={props.id} label={`Amount (${props.currency})`} error={props.error}>
      <input
        ref={ref}
        {...described(props.id, props.error)}
        className={props.className ?? 'num pm-amount'}
        inputMode="decimal"
        autoComplete="off"
        placeholder={`e.g. ${f.amount(2500, props.currency)}`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  );
}

/** A list filter: "All …" or one of the given values. */
export function OptionFilter<V extends string>(props: {
  label: string;
  value: V | 'all';
  all: string;
  options: ReadonlyArray<readonly [V, string]>;
  onChange: (value: V | 'all') => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as V | 'all')}>
        <option value="all">{props.all}</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
