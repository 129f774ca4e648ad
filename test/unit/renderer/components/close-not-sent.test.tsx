// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeRefundRecord } from '../../../../shared/domain/refund-record';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';
import { closeOffer } from '../../../../renderer/src/features/refunds/close-words';
import { RecordDetail } from '../../../../renderer/src/features/refunds/RecordDetail';
import { RecordTable } from '../../../../renderer/src/features/refunds/RecordTable';
import { intent } from './harness';

afterEach(cleanup);

const f = createFormatters({ ...DEFAULT_PREFS, locale: 'en-US', zone: 'utc', dateFormat: 'iso' });
const SENT = '2026-11-24T06:19:00.000Z';
const at = (hhmm: string) => Date.parse(`2026-11-24T${hhmm}:00.000Z`);

/** This desk's refund that answered 503, checked once; main says when it may be closed. */
const unknown = (over: Partial<IntentView> = {}) =>
  intent({
    id: 'RD0042',
    state: 'outcome_unknown',
    createdAt: SENT,
    lastCheck: {
      at: SENT,
      found: false,
      note: 'The service lists 0 refunds; none carries reference RD0042.',
    },
    checks: 1,
    close: { possibleAt: '2026-11-24T06:49:00.000Z', checksNeeded: 1, minChecks: 2, minMinutes: 30 },
    ...over,
  });

/** The same refund after Bo Chen closed it as not sent (the resolver's raw evidence in `detail`). */
const closed = () =>
  intent({
    id: 'RD0042',
    state: 'refused',
    createdAt: SENT,
    operator: 'Ana Lima',
    detail: `Closed as not sent by Bo Chen at 2026-11-24T07:02:11.000Z after 3 checks over 43 minute(s), the last at 2026-11-24T07:02:11.000Z: none with reference RD0042.`,
    lastCheck: {
      at: '2026-11-24T07:02:11.000Z',
      found: false,
      note: 'Asked before closing: 3 checks over 43 minute(s), the last at 2026-11-24T07:02:11.000Z',
    },
    closedNotSentAt: '2026-11-24T07:02:11.000Z',
    closedNotSent: { by: 'Bo Chen', at: '2026-11-24T07:02:11.000Z', checks: 3 },
  });

function renderTable(i: IntentView, nowMs: number) {
  const opened: string[] = [];
  render(
    <RecordTable
      rows={mergeRefundRecord([i], [], 'P-A', 'Shop A')}
      f={f}
      sort={{ by: 'at', dir: 'desc' }}
      onSort={() => {}}
      selectedKey={undefined}
      checkingId={undefined}
      nowMs={nowMs}
      onSelect={() => {}}
      onOpenPayment={() => {}}
      onCheckAgain={() => {}}
      onCloseNotSent={(key) => opened.push(key)}
    />,
  );
  return { row: screen.getByRole('row', { name: /RD0042|297553638300708562/ }), opened };
}

describe('close as not sent, before anybody types', () => {
  it('says when it becomes possible on the row, in the person’s zone, and offers no action before then', () => {
    expect(closeOffer(unknown(), at('06:30'), f)).toEqual({
      kind: 'later',
      text: 'possible after 06:49 (1 more check)',
    });
    expect(closeOffer(unknown(), at('06:50'), f)).toEqual({
      kind: 'later',
      text: 'possible after 1 more check',
    });
    const noChecksLeft = unknown({ close: { ...unknown().close!, checksNeeded: 0 } });
    expect(closeOffer(noChecksLeft, at('06:30'), f)).toEqual({
      kind: 'later',
      text: 'possible after 06:49',
    });
    expect(closeOffer(noChecksLeft, at('06:49'), f)).toEqual({ kind: 'ready' });
    // Found once at the service: never closeable this way.
    const found = unknown({ lastCheck: { at: SENT, found: true, note: 'listed' } });
    expect(closeOffer(found, at('09:00'), f)).toEqual({ kind: 'none' });

    const { row } = renderTable(unknown(), at('06:30'));
    expect(within(row).getByTestId('close-later').textContent).toBe(
      'Close as not sent: possible after 06:49 (1 more check)',
    );
    expect(within(row).queryByRole('button', { name: 'Close as not sent…' })).toBeNull();
  });

  it('offers the action once the rule allows it; it opens the panel for that row', () => {
    const ready = unknown({ close: { ...unknown().close!, checksNeeded: 0 } });
    const { row, opened } = renderTable(ready, at('07:00'));
    within(row).getByRole('button', { name: 'Close as not sent…' }).click();
    expect(opened).toEqual(['RD0042']);
    expect(within(row).queryByTestId('close-later')).toBeNull();
  });

  it('lists a closed refund as closed by that person, with times in the chosen format, never “Refused … try again”', () => {
    const { row } = renderTable(closed(), at('08:00'));
    expect(
      within(row).getByText('Closed as not sent · still watched', { selector: '.rd-badge' }),
    ).toBeTruthy();
    expect(within(row).getByTestId('closed-not-sent').textContent).toBe(
      'Closed as not sent by Bo Chen, 2026-11-24 07:02',
    );
    expect(row.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);

    const [record] = mergeRefundRecord([closed()], [], 'P-A', 'Shop A');
    render(
      <RecordDetail
        row={record!}
        f={f}
        fetchedAt={undefined}
        checking={false}
        onCheckAgain={() => {}}
        onOpenPayment={() => {}}
        onClose={() => {}}
      />,
    );
    const detail = screen.getByTestId('refund-record-detail');
    expect(within(detail).getByRole('heading').textContent).toBe('Closed as not sent · still watched');
    expect(detail.textContent).toContain('Bo Chen closed it as not sent 2026-11-24 07:02');
    expect(detail.textContent).not.toContain('Correct the problem and try again');
    expect(detail.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});
