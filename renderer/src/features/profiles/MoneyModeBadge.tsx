import type { MoneyMode } from '../../../../shared/domain/profile';
import { MONEY_BADGE } from './money-mode';

/** The money mode as a badge (words, never colour alone). */
export function MoneyModeBadge({ mode, testId = 'env-badge' }: { mode: MoneyMode; testId?: string }) {
  return (
    <span className={`env-badge env-${mode}`} title={MONEY_BADGE[mode].title} data-testid={testId}>
      {MONEY_BADGE[mode].text}
    </span>
  );
}
