// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

// A team desk's list: its own refund, and one bob made through the CLI (operator name "cli").
const INTENTS = [
  intent({
    id: 'RD-MINE',
    transactionNo: '297553638300700011',
    operator: 'Alice A.',
    author: { person: 'alice', desk: 'front-desk-1' },
    madeHere: true,
  }),
  intent({
    id: 'RD-THEIRS',
    transactionNo: '297553638300700012',
    operator: 'cli',
    author: { person: 'bob', desk: 'cli@back-office' },
    madeHere: false,
  }),
  // One desk's own journal: main says nothing about desks, every intent is this desk's.
  intent({ id: 'RD-SOLO', transactionNo: '297553638300700013', operator: 'ana' }),
];

describe('the Refunds list on a team desk (component, typed fake bridge)', () => {
  it('names the login and desk that made another desk’s refund, and says "Made here" only for this desk’s', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok(INTENTS),
    });
    const { wrapper } = harness(fake.bridge);
    render(<RefundsView />, { wrapper });
    const table = await screen.findByTestId('refunds-table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const row = (key: string) => table.querySelector<HTMLElement>(`tr[data-refund-key="${key}"]`)!;

    const theirs = row('RD-THEIRS');
    expect(theirs.dataset['madeHere']).toBe('no');
    expect(within(theirs).queryByText('Made here')).toBeNull();
    expect(theirs.textContent).toContain('Desk cli@back-office');
    expect(theirs.textContent).toContain('bob');
    expect(theirs.textContent).toContain('recorded as cli');

    const mine = row('RD-MINE');
    expect(mine.dataset['madeHere']).toBe('yes');
    expect(within(mine).getByText('Made here')).toBeTruthy();
    expect(mine.textContent).toContain('alice');
    expect(mine.textContent).toContain('recorded as Alice A.');

    const solo = row('RD-SOLO');
    expect(within(solo).getByText('Made here')).toBeTruthy();
    expect(solo.textContent).toContain('ana');
    expect(solo.textContent).not.toContain('recorded as');
  });
});
