// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PREFS_KEY } from '../../../../renderer/src/features/preferences/prefs';
import { dateText } from '../../../../renderer/src/lib/ui/date-text';
import { DateField } from '../../../../renderer/src/lib/ui/DateField';
import { createFakeBridge } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function Field({ seen }: { seen: string[] }) {
  const [v, setV] = useState('2026-03-01');
  return (
    <DateField
      aria-label="From"
      value={v}
      onChange={(x) => {
        seen.push(x);
        setV(x);
      }}
    />
  );
}

describe('date fields in the person’s date format, never the browser’s mm/dd/yyyy', () => {
  it('reads and writes each format, and refuses days that do not exist', () => {
    expect(dateText('iso').parse('2026-03-01')).toBe('2026-03-01');
    expect(dateText('iso').parse('2026-02-30')).toBeUndefined();
    expect(dateText('dmy').parse('01/03/2026')).toBe('2026-03-01');
    expect(dateText('mdy').parse('03/01/2026')).toBe('2026-03-01');
    expect(dateText('dmy').show('2026-03-01')).toBe('01/03/2026');
    expect(dateText('locale').placeholder).toBe('yyyy-mm-dd');
    expect(dateText('iso').parse('')).toBe('');
  });

  it('is a text field in year-month-day by default, not a native picker', async () => {
    const seen: string[] = [];
    const { wrapper: Wrapper } = harness(createFakeBridge({}).bridge, 'date-iso');
    render(
      <Wrapper>
        <Field seen={seen} />
      </Wrapper>,
    );
    const input = screen.getByLabelText('From') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.value).toBe('2026-03-01');
    expect(input.placeholder).toBe('yyyy-mm-dd');
  });

  it('with day/month/year chosen, shows and takes that order; unreadable text is said, not kept', async () => {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ dateFormat: 'dmy' }));
    const seen: string[] = [];
    const { wrapper: Wrapper } = harness(createFakeBridge({}).bridge, 'date-dmy');
    render(
      <Wrapper>
        <Field seen={seen} />
      </Wrapper>,
    );
    const input = screen.getByLabelText('From') as HTMLInputElement;
    expect(input.value).toBe('01/03/2026');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '15/04/2026');
    expect(seen.at(-1)).toBe('2026-04-15');
    await user.clear(input);
    await user.type(input, '31/02/2026');
    await user.tab();
    expect(seen.at(-1)).toBe('');
    expect(screen.getByRole('alert').textContent).toBe('Type the day as dd/mm/yyyy');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});
