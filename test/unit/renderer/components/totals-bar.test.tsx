// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PrefsProvider } from '../../../../renderer/src/features/preferences/PrefsProvider';
import { TotalsBar } from '../../../../renderer/src/features/transactions/TotalsBar';
import { totalsByCurrency } from '../../../../renderer/src/features/transactions/totals';
import { toListRow } from '../../../../renderer/src/db/list-row';
import { makeTx } from '../db/helpers';

afterEach(cleanup);

const rows = [makeTx({ amountMinor: 1_000 }), makeTx({ amountMinor: 2_500 })].map((t) =>
  toListRow({ ...t, profileId: 'p', fetchedAt: '2026-11-24T10:00:00.000Z' }),
);

function bar(complete: boolean) {
  return render(
    <PrefsProvider>
      <TotalsBar
        shown={rows.length}
        cached={rows.length}
        complete={complete}
        totals={totalsByCurrency(rows, 'net')}
        basis="net"
        onBasis={() => {}}
      />
    </PrefsProvider>,
  );
}

describe('the totals strip', () => {
  it('while only the first screen is read, says it is counting and shows no sum as final', () => {
    bar(false);
    expect(screen.getByTestId('tx-totals').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('tx-counting').textContent).toBe('counting…');
    expect(screen.getByTestId('tx-totals').textContent).not.toContain('of 2 cached');
    expect(screen.queryByTestId('tx-counted')).toBeNull();
    expect(document.querySelectorAll('.tx-total')).toHaveLength(0);
  });

  it('once every row is read, shows the count of the cache and the sums', () => {
    bar(true);
    expect(screen.getByTestId('tx-totals').getAttribute('aria-busy')).toBe('false');
    expect(screen.queryByTestId('tx-counting')).toBeNull();
    expect(screen.getByTestId('tx-totals').textContent).toContain('of 2 cached');
    expect(document.querySelector('.tx-total[data-currency="USD"]')?.textContent).toContain('35.00');
  });
});
