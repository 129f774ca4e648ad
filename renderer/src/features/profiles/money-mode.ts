import { type MoneyMode, moneyModeOf } from '../../../../shared/domain/profile';

/** The words of each money mode: the header's badge, every profile card and the profile form say the same. */
export const MONEY_BADGE: Readonly<Record<MoneyMode, { text: string; title: string }>> = {
  live: { text: 'LIVE MONEY', title: 'Refunds and payments here move real money.' },
  test: { text: 'Test system', title: 'A test system: no real money moves.' },
  local: {
    text: 'No real money',
    title: 'The built-in Demo sandbox, or a simulator on this computer as declared: no real money moves.',
  },
};

/** A profile's money mode, from where its calls go (and, for a Custom address on this computer, what was declared). */
export function profileMoneyMode(p: {
  environment: Parameters<typeof moneyModeOf>[0];
  baseUrl?: string | undefined;
  effectiveBaseUrl?: string | undefined;
  loopbackMoneyMode?: MoneyMode | undefined;
}): MoneyMode {
  return moneyModeOf(p.environment, p.effectiveBaseUrl ?? p.baseUrl, p.loopbackMoneyMode);
}
