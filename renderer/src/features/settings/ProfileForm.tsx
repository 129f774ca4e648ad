import { type FormEvent, type InputHTMLAttributes, useId, useState } from 'react';
import {
  DEMO_MERCHANT_NUMBERS,
  ENVIRONMENT_BASE_URLS,
  ENVIRONMENT_LABELS,
  ENVIRONMENTS,
  type Environment,
  fieldErrors,
  isLoopbackUrl,
  type MoneyMode,
  type ProfileInput,
  profileInputSchema,
} from '../../../../shared/domain/profile';
import { BridgeError } from '../../lib/bridge';
import {
  draftsToGuardrails,
  type LimitDraft,
  limitsToDrafts,
  type UnknownCloseDraft,
  unknownCloseToDraft,
} from './limits';
import { LimitsEditor } from './LimitsEditor';
import { MoneyModeField } from './MoneyModeField';
import { useSaveProfile } from './mutations';
import type { ProfileView } from '../profiles/queries';

interface Draft {
  name: string;
  environment: Environment;
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
  operatorName: string;
  merGroupNo: string;
  ipnEnabled: boolean;
  limits: LimitDraft[];
  unknownClose: UnknownCloseDraft;
  /** Declared for a Custom address on this computer; undefined is live money. */
  loopbackMoneyMode: MoneyMode | undefined;
}

const blank: Draft = {
  name: '',
  environment: 'vendor-sandbox',
  baseUrl: '',
  merchantNo: '',
  storeNo: '',
  operatorName: '',
  merGroupNo: '',
  ipnEnabled: false,
  limits: [],
  unknownClose: unknownCloseToDraft(undefined),
  loopbackMoneyMode: undefined,
};

function fromProfile(p: ProfileView): Draft {
  return {
    name: p.name,
    environment: p.environment,
    baseUrl: p.baseUrl ?? '',
    merchantNo: p.merchantNo,
    storeNo: p.storeNo,
    operatorName: p.operatorName ?? '',
    merGroupNo: p.merGroupNo ?? '',
    ipnEnabled: p.ipnEnabled,
    limits: limitsToDrafts(p.guardrails),
    unknownClose: unknownCloseToDraft(p.guardrails),
    loopbackMoneyMode: p.loopbackMoneyMode,
  };
}

function toInput(d: Draft, guardrails: ProfileInput['guardrails'], id?: string): ProfileInput {
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    ...(id ? { id } : {}),
    name: d.name,
    environment: d.environment,
    merchantNo: d.merchantNo,
    storeNo: d.storeNo,
    ipnEnabled: d.ipnEnabled,
    ...(d.environment === 'custom' && opt(d.baseUrl) ? { baseUrl: opt(d.baseUrl) } : {}),
    ...(opt(d.operatorName) ? { operatorName: opt(d.operatorName) } : {}),
    ...(opt(d.merGroupNo) ? { merGroupNo: opt(d.merGroupNo) } : {}),
    ...(guardrails ? { guardrails } : {}),
    // Said explicitly for an address on this computer (live money unless declared otherwise).
    ...(d.environment === 'custom' && isLoopbackUrl(d.baseUrl.trim())
      ? { loopbackMoneyMode: d.loopbackMoneyMode ?? 'live' }
      : {}),
  };
}

/** Field messages from main's answer: the service's own (`fields`) or the contract's (`issues`). */
function serverFieldErrors(e: unknown): Record<string, string> {
  if (!(e instanceof BridgeError)) return { form: 'Could not save the profile.' };
  const { fields, issues } = e.error.details ?? {};
  if (fields) return { ...fields, form: e.error.message };
  if (issues) {
    const out: Record<string, string> = {};
    for (const i of issues) out[i.path] ??= i.message;
    return out;
  }
  return { form: e.error.message };
}

/** Add or edit one merchant profile, with messages a person understands, shown beside each field. */
export function ProfileForm({
  profile,
  demoAvailable,
  onDone,
}: {
  profile?: ProfileView;
  demoAvailable: boolean;
  onDone: (saved?: ProfileView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(profile ? fromProfile(profile) : blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveProfile();
  const uid = useId();
  const isDemo = draft.environment === 'demo';
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => {
      const { [key]: _gone, ...rest } = e;
      // Errors of grouped fields are keyed <group>.<part> (limits.<row>, unknownClose.minChecks):
      // editing the group clears them, and saving validates again.
      return key === 'limits' || key === 'unknownClose'
        ? (Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith(`${key}.`))) as Record<
            string,
            string
          >)
        : rest;
    });
  };

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    // Limits and the close-as-not-sent policy are saved together, so saving one never drops the other.
    const guardrails = draftsToGuardrails(draft.limits, draft.unknownClose);
    const input = toInput(draft, 'guardrails' in guardrails ? guardrails.guardrails : undefined, profile?.id);
    const parsed = profileInputSchema.safeParse(input);
    if (!parsed.success || 'errors' in guardrails) {
      const found = {
        ...(parsed.success ? {} : fieldErrors(parsed.error)),
        ...('errors' in guardrails ? guardrails.errors : {}),
      };
      setErrors(found);
      document.getElementById(`${uid}-${Object.keys(found)[0] ?? 'name'}`)?.focus();
      return;
    }
    try {
      const saved = await save.mutateAsync(input);
      onDone(saved);
    } catch (e) {
      setErrors(serverFieldErrors(e));
    }
  };

  const field = (
    key: keyof Draft,
    label: string,
    hint?: string,
    extra: InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <div className="st-field">
      <label htmlFor={`${uid}-${key}`}>{label}</label>
      <input
        id={`${uid}-${key}`}
        value={String(draft[key])}
        onChange={(e) => set(key, e.target.value as never)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${uid}-${key}-err` : hint ? `${uid}-${key}-hint` : undefined}
        autoComplete="off"
        spellCheck={false}
        {...extra}
      />
      {errors[key] ? (
        <p className="st-error" id={`${uid}-${key}-err`} data-testid={`error-${key}`}>
          {errors[key]}
        </p>
      ) : hint ? (
        <p className="st-hint" id={`${uid}-${key}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );

  return (
    <form
      className="st-card st-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={profile ? `Edit ${profile.name}` : 'New profile'}
    >
      <h2>{profile ? `Edit “${profile.name}”` : 'New merchant profile'}</h2>
      {field(
        'name',
        'Profile name',
        'How this desk shows the account, e.g. “Main store” or a partner’s sub-merchant.',
      )}
      <div className="st-field">
        <label htmlFor={`${uid}-environment`}>Connects to</label>
        <select
          id={`${uid}-environment`}
          value={draft.environment}
          onChange={(e) => {
            const env = e.target.value as Environment;
            set('environment', env);
            // Demo always talks as the sandbox's demo merchant; fill it in rather than ask.
            if (env === 'demo') setDraft((d) => ({ ...d, ...DEMO_MERCHANT_NUMBERS }));
          }}
          disabled={profile?.environment === 'demo'}
        >
          {ENVIRONMENTS.filter(
            (env) => env !== 'demo' || profile?.environment === 'demo' || (!profile && demoAvailable),
          ).map((env) => (
            <option key={env} value={env}>
              {ENVIRONMENT_LABELS[env]}
            </option>
          ))}
        </select>
        <p className="st-hint">
          {draft.environment === 'custom'
            ? 'Your own address for the service (for example a partner gateway).'
            : draft.environment === 'demo'
              ? 'The sandbox built into Refund Desk, with made-up data. Nothing real happens.'
              : `Calls go to ${ENVIRONMENT_BASE_URLS[draft.environment]}.`}
          {draft.environment === 'production' && (
            <strong className="st-prod"> Real money moves with this profile.</strong>
          )}
          {profile &&
            profile.environment !== 'demo' &&
            ' Changing where this profile connects removes its saved API token; enter it again afterwards.'}
        </p>
      </div>
      {draft.environment === 'custom' &&
        field(
          'baseUrl',
          'Service address',
          'Starts with https:// — plain http:// is allowed only for 127.0.0.1 or localhost.',
          { placeholder: 'https://', inputMode: 'url' },
        )}
      <MoneyModeField
        environment={draft.environment}
        baseUrl={draft.baseUrl}
        declared={draft.loopbackMoneyMode}
        onDeclare={(m) => set('loopbackMoneyMode', m)}
      />
      <div className="st-row">
        {field(
          'merchantNo',
          'Merchant number',
          isDemo ? 'Fixed for the demo sandbox.' : 'Digits, from your provider’s onboarding e-mail.',
          { inputMode: 'numeric', readOnly: isDemo },
        )}
        {field(
          'storeNo',
          'Store number',
          isDemo ? 'Fixed for the demo sandbox.' : 'Digits; a merchant may have several stores.',
          { inputMode: 'numeric', readOnly: isDemo },
        )}
      </div>
      <div className="st-row">
        {field('operatorName', 'Operator name (optional)', 'Recorded in the audit log with each refund.')}
        {field(
          'merGroupNo',
          'Partner group number (optional)',
          'Only for partners acting for a sub-merchant.',
          { inputMode: 'numeric' },
        )}
      </div>
      <LimitsEditor rows={draft.limits} errors={errors} onChange={(rows) => set('limits', rows)} />
      <UnknownCloseFields
        value={draft.unknownClose}
        errors={errors}
        idPrefix={uid}
        onChange={(v) => set('unknownClose', v)}
      />
      <div className="st-field st-check">
        <input
          id={`${uid}-ipn`}
          type="checkbox"
          checked={draft.ipnEnabled}
          onChange={(e) => set('ipnEnabled', e.target.checked)}
        />
        <label htmlFor={`${uid}-ipn`}>Listen for payment notifications (IPN) on this computer</label>
        <p className="st-hint">
          Only reachable from this machine, so it is used only with the Demo sandbox or a service address on
          this machine (127.0.0.1 or localhost). Statuses are always confirmed with a fresh query.
        </p>
      </div>
      {errors['form'] && (
        <p className="st-alert st-alert-bad" role="alert">
          {errors['form']}
        </p>
      )}
      {Object.keys(errors).length > 0 && !errors['form'] && (
        <p className="st-alert st-alert-bad" role="alert">
          Please correct the highlighted fields.
        </p>
      )}
      <div className="st-actions">
        <button type="submit" className="st-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : profile ? 'Save changes' : 'Add profile'}
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * How much checking a refund whose outcome is unknown needs before the operator may close it as not
 * sent: at least this many checks that do not find it, over at least this long (main enforces both).
 */
function UnknownCloseFields({
  value,
  errors,
  idPrefix,
  onChange,
}: {
  value: UnknownCloseDraft;
  errors: Record<string, string>;
  idPrefix: string;
  onChange: (v: UnknownCloseDraft) => void;
}) {
  const input = (key: keyof UnknownCloseDraft, label: string) => {
    const id = `${idPrefix}-unknownClose.${key}`;
    const error = errors[`unknownClose.${key}`];
    return (
      <div className="st-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={value[key]}
          inputMode="numeric"
          autoComplete="off"
          onChange={(e) => onChange({ ...value, [key]: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
        />
        {error && (
          <p className="st-error" id={`${id}-err`} data-testid={`error-unknownClose-${key}`}>
            {error}
          </p>
        )}
      </div>
    );
  };
  return (
    <fieldset className="st-field" data-testid="unknown-close-editor">
      <legend>Closing an unknown refund as “not sent”</legend>
      <p className="st-hint">
        A refund whose outcome is unknown, and that the service still does not list, may be closed as not sent
        only after this many checks over at least this long — never fewer than 3 checks over 2 hours (the
        payment service may still apply a request that long after it was sent). A closed refund is still
        watched for a week: if the service lists it after all, Refunds says so at once.
      </p>
      <div className="st-row">
        {input('minChecks', 'Checks, at least')}
        {input('minMinutes', 'Over at least (minutes)')}
      </div>
    </fieldset>
  );
}
