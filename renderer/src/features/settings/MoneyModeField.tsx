import { useId } from 'react';
import {
  ENVIRONMENT_BASE_URLS,
  type Environment,
  isLoopbackUrl,
  LOOPBACK_MONEY_LABELS,
  MONEY_MODES,
  type MoneyMode,
  moneyModeOf,
} from '../../../../shared/domain/profile';
import { MONEY_BADGE } from '../profiles/money-mode';
import { MoneyModeBadge } from '../profiles/MoneyModeBadge';

/** Where a draft's calls would go: the fixed host, or the Custom address as typed so far. */
function addressOf(environment: Environment, baseUrl: string): string | undefined {
  if (environment === 'custom') return baseUrl.trim() || undefined;
  return environment === 'demo' ? undefined : ENVIRONMENT_BASE_URLS[environment];
}

/**
 * The money mode a profile will get, shown as its address is typed; for a Custom address on this
 * computer (a simulator, or a tunnel or proxy to a real gateway: the app cannot tell) the person
 * declares it, and until they say otherwise it is live money.
 */
export function MoneyModeField(props: {
  environment: Environment;
  baseUrl: string;
  declared: MoneyMode | undefined;
  onDeclare: (mode: MoneyMode) => void;
}) {
  const id = useId();
  const address = addressOf(props.environment, props.baseUrl);
  const loopback = props.environment === 'custom' && address !== undefined && isLoopbackUrl(address);
  const mode = moneyModeOf(props.environment, address, loopback ? props.declared : undefined);
  return (
    <div className="st-field" data-testid="money-mode-field" data-money-mode={mode}>
      {loopback ? (
        <>
          <label htmlFor={id}>What is behind this address on this computer?</label>
          <select
            id={id}
            value={props.declared ?? 'live'}
            onChange={(e) => props.onDeclare(e.target.value as MoneyMode)}
            aria-describedby={`${id}-mode`}
          >
            {MONEY_MODES.map((m) => (
              <option key={m} value={m}>
                {LOOPBACK_MONEY_LABELS[m]}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <p className="st-hint" id={`${id}-mode`} aria-live="polite">
        Money mode: <MoneyModeBadge mode={mode} testId="form-money-mode" /> {MONEY_BADGE[mode].title}
        {loopback
          ? ' Refund Desk cannot tell what a local address leads to: a tunnel or proxy to a production gateway is local too, so it is live money unless you say otherwise.'
          : props.environment === 'custom'
            ? address
              ? ' An address that is not on this computer may be a production gateway: always live money.'
              : ' Type the address: any address not on this computer is live money.'
            : ''}
      </p>
    </div>
  );
}
