// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ApproveDialog } from '../../../../renderer/src/features/refunds/approvals/ApproveDialog';
import { RefundDialog } from '../../../../renderer/src/features/refunds/RefundDialog';
import type { TeamPerson } from '../../../../renderer/src/features/refunds/approvals/queries';
import { useRefundEvents } from '../../../../renderer/src/features/refunds/queries';
import { RefundsView } from '../../../../renderer/src/features/refunds/RefundsView';
import { moneyModeOf } from '../../../../shared/domain/profile';
import type { Output } from '../../../../shared/ipc/contract';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { deferred, harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

const TX = '297553638300708562';
const BOB: TeamPerson = {
  team: true,
  login: 'bob',
  groups: ['refund_checker'],
  limits: [{ currency: 'USD', upToMinor: 100_000 }],
};
const ALICE: TeamPerson = { team: true, login: 'alice', groups: ['refund_maker'], limits: [] };

/** A request for approval as main lists it (awaiting, made by `by` at desk-1). */
const request = (over: Partial<IntentView> = {}, by = 'alice'): IntentView =>
  intent({
    id: 'RD-REQ1',
    state: 'awaiting_approval',
    amountMinor: 1_200,
    reasonCode: 'product_issue',
    reasonNote: 'arrived broken',
    attempts: 0,
    approval: {
      reason: 'product_issue: arrived broken',
      requestedBy: by,
      requestedDesk: 'desk-1',
      requestedAt: '2026-11-24T10:00:00.000Z',
      expiresAt: '2026-11-25T10:00:00.000Z',
    },
    ...over,
  });

const refused = (code: 'forbidden' | 'conflict', message: string) =>
  ({
    ok: false,
    error: { code, message, retryable: false, correlationId: 't', details: { moneyMoved: 'no' } },
  }) as const;

/** The Refunds area as the app mounts it: kept live by refunds.updated pushes. */
function Screen() {
  useRefundEvents();
  return <RefundsView />;
}

describe('Refunds → Approvals (component, typed fake bridge)', () => {
  it('a single desk shows no Approvals at all: the refund record alone, as before', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok({ team: false }),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    await screen.findByTestId('refunds-table');
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'approvals.whoAmI')).toBe(true));
    expect(screen.queryByRole('tab', { name: /Approvals/ })).toBeNull();
    expect(fake.calls.some((c) => c.channel === 'approvals.list')).toBe(false);
  });

  it('what a person typed in the record survives “who am I” answering late (the tabs appear around it)', async () => {
    const whoAmI = deferred<ReturnType<typeof ok<TeamPerson>>>();
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => whoAmI.promise,
      'approvals.list': () => ok([]),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    const box = await screen.findByLabelText('Refund a payment by transaction number');
    await userEvent.setup().type(box, TX);
    whoAmI.resolve(ok(BOB));
    await screen.findByRole('tab', { name: /Approvals/ });
    expect((screen.getByLabelText('Refund a payment by transaction number') as HTMLInputElement).value).toBe(
      TX,
    );
    expect(screen.getByRole('button', { name: 'Refund…' })).toHaveProperty('disabled', false);
  });

  it('a checker sees another person’s request with Approve and send and Reject; the tab counts it; the list follows pushes', async () => {
    let open: IntentView[] = [];
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok(BOB),
      'approvals.list': () => ok(open),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Approvals/ }));
    const view = await screen.findByTestId('approvals-view');
    await waitFor(() => expect(view.textContent).toContain('No refund is waiting for approval'));
    expect(within(view).getByTestId('approvals-me').textContent).toBe(
      'You are bob · checker, approves up to 1,000.00 USD',
    );

    // Another desk's request arrives by the team database's change feed: the list re-reads by itself.
    open = [request()];
    fake.emit('refunds.updated', request());
    const row = await within(view).findByRole('row', { name: /RD-REQ1|12\.00 USD/ });
    expect(row.textContent).toContain('12.00 USD');
    expect(row.textContent).toContain('Product or service issue');
    expect(row.textContent).toContain('alice at desk-1');
    expect(within(row).getByRole('button', { name: 'Approve and send…' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Reject…' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Cancel request/ })).toBeNull();
    expect((await screen.findByTestId('approvals-count')).textContent).toBe('1 waiting');
  });

  it('the requester sees their own request with Cancel only — no way to approve it', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      // dave is a checker AND a maker: the screen still offers no approval of his own request.
      'approvals.whoAmI': () => ok({ ...BOB, login: 'dave', groups: ['refund_checker', 'refund_maker'] }),
      'approvals.list': () => ok([request({}, 'dave')]),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    await userEvent.setup().click(await screen.findByRole('tab', { name: /Approvals/ }));
    const row = await screen.findByRole('row', { name: /12\.00 USD/ });
    expect(within(row).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(row).queryByRole('button', { name: /Reject/ })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Cancel request…' })).toBeTruthy();
    expect(row.textContent).toContain('Your request: another person approves it.');
  });

  it('the requester cancels their own request with a comment (approvals.cancel)', async () => {
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok(ALICE),
      'approvals.list': () => ok([request()]),
      'approvals.cancel': () => ok(request({ state: 'cancelled', updatedAt: '2026-11-24T10:05:00.000Z' })),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Approvals/ }));
    const row = await screen.findByRole('row', { name: /12\.00 USD/ });
    await user.click(within(row).getByRole('button', { name: 'Cancel request…' }));
    const panel = await screen.findByTestId('cancel-request');
    await user.type(within(panel).getByLabelText(/Why is it cancelled/), 'asked twice');
    await user.click(within(panel).getByRole('button', { name: 'Cancel request' }));
    await waitFor(() => expect(screen.queryByTestId('cancel-request')).toBeNull());
    expect(fake.calls.find((c) => c.channel === 'approvals.cancel')!.input).toEqual({
      profileId: 'P-A',
      id: 'RD-REQ1',
      comment: 'asked twice',
    });
    expect(fake.calls.some((c) => c.channel === 'approvals.reject')).toBe(false);
  });

  it('above the checker’s limit: no Approve, the reason in words, Reject still offered; a maker only waits', async () => {
    const big = request({ id: 'RD-BIG', amountMinor: 250_000 });
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok(BOB),
      'approvals.list': () => ok([big]),
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    await userEvent.setup().click(await screen.findByRole('tab', { name: /Approvals/ }));
    const row = await screen.findByRole('row', { name: /2,500\.00 USD/ });
    expect(within(row).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(row.textContent).toContain('Above your approval limit (1,000.00 USD)');
    expect(within(row).getByRole('button', { name: 'Reject…' })).toBeTruthy();
    cleanup();

    const asMaker = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok({ ...ALICE, login: 'erin' }),
      'approvals.list': () => ok([request()]),
    });
    render(<Screen />, { wrapper: harness(asMaker.bridge).wrapper });
    await userEvent.setup().click(await screen.findByRole('tab', { name: /Approvals/ }));
    const other = await screen.findByRole('row', { name: /12\.00 USD/ });
    expect(within(other).queryAllByRole('button')).toEqual([]);
    expect(other.textContent).toContain('Waiting for a checker.');
  });

  it('Reject needs a comment: none sent without one; with one, the request is rejected; the database’s refusal in its words', async () => {
    let answer: ReturnType<typeof refused> | ReturnType<typeof ok<IntentView>> = refused(
      'conflict',
      'request RD-REQ1 is approved, not awaiting approval (by carol)',
    );
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'refunds.list': () => ok([]),
      'approvals.whoAmI': () => ok(BOB),
      'approvals.list': () => ok([request()]),
      'approvals.reject': () => answer,
    });
    render(<Screen />, { wrapper: harness(fake.bridge).wrapper });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Approvals/ }));
    const row = await screen.findByRole('row', { name: /12\.00 USD/ });
    await user.click(within(row).getByRole('button', { name: 'Reject…' }));
    const panel = await screen.findByTestId('reject-request');
    const comment = within(panel).getByLabelText(/Why is it rejected/);
    expect(document.activeElement).toBe(comment);
    await user.click(within(panel).getByRole('button', { name: 'Reject request' }));
    expect(panel.textContent).toContain('Say why (a comment is required).');
    expect(comment.getAttribute('aria-invalid')).toBe('true');
    expect(fake.calls.some((c) => c.channel === 'approvals.reject')).toBe(false);

    await user.type(comment, '  wrong payment  ');
    await user.click(within(panel).getByRole('button', { name: 'Reject request' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'Not rejected: request RD-REQ1 is approved, not awaiting approval (by carol)',
    );
    expect(fake.calls.find((c) => c.channel === 'approvals.reject')!.input).toEqual({
      profileId: 'P-A',
      id: 'RD-REQ1',
      comment: 'wrong payment',
    });

    answer = ok(request({ state: 'declined', updatedAt: '2026-11-24T10:05:00.000Z' }));
    await user.click(within(panel).getByRole('button', { name: 'Reject request' }));
    await waitFor(() => expect(screen.queryByTestId('reject-request')).toBeNull());
  });
});

const preview = (over: Partial<Output<'refunds.preview'>> = {}): Output<'refunds.preview'> => ({
  transaction: {
    transactionNo: TX,
    reference: 'INV-7',
    amountMinor: 5000,
    currency: 'USD',
    status: 'success',
    transactionType: 'payment',
    refunds: [],
  },
  // The request already counts: 50.00 − 12.00.
  remainingMinor: 3800,
  pendingIntents: [],
  todayTotalMinor: 1_200,
  guardrails: { limits: [] },
  environment: 'demo',
  moneyMode: 'local',
  baseUrl: 'http://127.0.0.1:4100',
  merchantNo: '200043',
  profileId: 'P-A',
  profileName: 'Shop A',
  operator: 'bob',
  fetchedAt: '2026-11-24T10:01:00.000Z',
  ...over,
});

describe('approving: the refund’s confirm step (component, typed fake bridge)', () => {
  function renderApprove(fake: ReturnType<typeof createFakeBridge>) {
    render(<ApproveDialog profileId="P-A" request={request()} onClose={() => {}} />, {
      wrapper: harness(fake.bridge).wrapper,
    });
  }

  it('shows exactly the request (no amount to change), who asked and until when; approves it and follows the refund live', async () => {
    const fake = createFakeBridge({
      'refunds.preview': () => ok(preview()),
      'approvals.approveAndSend': () =>
        ok(
          request({
            state: 'accepted',
            refundTransactionNo: '300000000000000001',
            updatedAt: '2026-11-24T10:02:00.000Z',
          }),
        ),
    });
    renderApprove(fake);
    const summary = await screen.findByTestId('confirm-summary');
    expect(screen.getByTestId('confirm-amount').textContent).toBe('12.00 USD');
    expect(screen.queryByLabelText(/Refund amount/)).toBeNull();
    expect(summary.textContent).toContain('RD-REQ1');
    expect(summary.textContent).toContain('alice at desk-1');
    expect(summary.textContent).toContain('Remaining after38.00 USD');
    expect(screen.getByText(/approve alice’s request and send this refund/)).toBeTruthy();
    const send = screen.getByRole('button', { name: /^Approve and send 12\.00 USD · merchant 200043$/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    await userEvent.setup().click(send);
    const result = await screen.findByTestId('refund-result');
    expect(result.getAttribute('data-state')).toBe('accepted');
    expect(fake.calls.find((c) => c.channel === 'approvals.approveAndSend')!.input).toEqual({
      profileId: 'P-A',
      id: 'RD-REQ1',
      confirmation: {},
      account: { baseUrl: 'http://127.0.0.1:4100', merchantNo: '200043' },
    });
    // The approver's desk follows it to the end, pushed by main.
    fake.emit(
      'refunds.updated',
      request({
        state: 'succeeded',
        refundTransactionNo: '300000000000000001',
        updatedAt: '2026-11-24T10:03:00.000Z',
      }),
    );
    await waitFor(() => expect(result.getAttribute('data-state')).toBe('succeeded'));
    expect(result.textContent).toContain('Refund completed');
  });

  it('live money: the approver types the amount again, as for any refund', async () => {
    const PARTNER = 'https://pay.partner.example.com';
    const fake = createFakeBridge({
      'refunds.preview': () =>
        ok(preview({ environment: 'custom', baseUrl: PARTNER, moneyMode: moneyModeOf('custom', PARTNER) })),
      'approvals.approveAndSend': () =>
        ok(request({ state: 'accepted', updatedAt: '2026-11-24T10:02:00.000Z' })),
    });
    renderApprove(fake);
    await screen.findByTestId('confirm-summary');
    expect(screen.getByTestId('production-banner').textContent).toMatch(/LIVE MONEY/);
    const typed = screen.getByLabelText(/Type the amount again to confirm \(USD\)/);
    const send = screen.getByRole('button', { name: /^Approve and send 12\.00 USD/ });
    await new Promise((r) => setTimeout(r, 700));
    expect(send).toHaveProperty('disabled', true);
    const user = userEvent.setup();
    await user.type(typed, '12.00');
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true));
    await user.click(send);
    await screen.findByTestId('refund-result');
    expect(fake.calls.find((c) => c.channel === 'approvals.approveAndSend')!.input).toMatchObject({
      confirmation: { typedAmount: '12.00' },
    });
  });

  it('an outcome that became unknown offers Check again, for the approver’s profile (never a resend)', async () => {
    const fake = createFakeBridge({
      'refunds.preview': () => ok(preview()),
      'approvals.approveAndSend': () =>
        ok(
          request({
            state: 'outcome_unknown',
            detail: 'No answer in time.',
            updatedAt: '2026-11-24T10:02:00.000Z',
          }),
        ),
      'refunds.checkAgain': () =>
        ok(
          request({
            state: 'succeeded',
            refundTransactionNo: '300000000000000003',
            updatedAt: '2026-11-24T10:04:00.000Z',
          }),
        ),
    });
    renderApprove(fake);
    const send = await screen.findByRole('button', { name: /^Approve and send 12\.00 USD/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    const user = userEvent.setup();
    await user.click(send);
    const result = await screen.findByTestId('refund-result');
    expect(result.getAttribute('data-state')).toBe('outcome_unknown');
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(result.getAttribute('data-state')).toBe('succeeded'));
    expect(fake.calls.filter((c) => c.channel === 'approvals.approveAndSend')).toHaveLength(1);
    expect(fake.calls.find((c) => c.channel === 'refunds.checkAgain')!.input).toEqual({
      profileId: 'P-A',
      id: 'RD-REQ1',
    });
  });

  it('the database’s refusal (own request, above the limit, expired) in its words: not approved, nothing sent', async () => {
    const fake = createFakeBridge({
      'refunds.preview': () => ok(preview()),
      'approvals.approveAndSend': () =>
        refused('forbidden', 'request RD-REQ1 is your own: another person with the checker role approves it'),
    });
    renderApprove(fake);
    const send = await screen.findByRole('button', { name: /^Approve and send 12\.00 USD/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    await userEvent.setup().click(send);
    const result = await screen.findByTestId('refund-result');
    expect(within(result).getByRole('heading').textContent).toBe('Not approved — nothing was sent');
    expect(result.textContent).toContain('Money moved: no');
    expect(result.textContent).toContain(
      'Request RD-REQ1 is your own: another person with the checker role approves it.',
    );
  });
});

describe('the refund dialog when the refund needs approval (component, typed fake bridge)', () => {
  it('says plainly that it waits and nothing was sent — request id, who can approve, until when — then settles by itself', async () => {
    const waiting = request({ createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z' });
    const fake = createFakeBridge({
      'refunds.preview': () => ok(preview({ remainingMinor: 5000, todayTotalMinor: 0, operator: 'alice' })),
      'refunds.submit': () => ok(waiting),
      'approvals.approvers': () => ok({ logins: ['bob', 'carol'] }),
    });
    render(<RefundDialog profileId="P-A" transactionNo={TX} onClose={() => {}} />, {
      wrapper: harness(fake.bridge).wrapper,
    });
    const user = userEvent.setup();
    const amount = await screen.findByLabelText('Refund amount (USD)');
    await user.clear(amount);
    await user.type(amount, '12.00');
    await user.selectOptions(screen.getByLabelText('Reason', { exact: true }), 'product_issue');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const send = await screen.findByRole('button', { name: /Refund 12\.00 USD/ });
    await waitFor(() => expect(send).not.toHaveProperty('disabled', true), { timeout: 3000 });
    await user.click(send);

    const result = await screen.findByTestId('refund-result');
    expect(result.getAttribute('data-state')).toBe('awaiting_approval');
    expect(within(result).getByRole('heading').textContent).toBe('Awaiting approval — nothing was sent');
    expect(result.textContent).toContain('Money moved: no');
    expect(result.textContent).toMatch(/recorded as request RD-REQ1, which expires .*\. Nothing was sent\./);
    expect(within(result).getByTestId('result-reference').textContent).toBe('RD-REQ1');
    expect(within(result).getByTestId('requested-by').textContent).toMatch(/^alice at desk-1, /);
    expect(within(result).getByTestId('request-expires').textContent).toMatch(/2026/);
    await waitFor(() =>
      expect(within(result).getByTestId('request-approvers').textContent).toBe(
        'bob or carol — checkers whose approval limit covers 12.00 USD.',
      ),
    );
    expect(fake.calls.find((c) => c.channel === 'approvals.approvers')!.input).toEqual({
      profileId: 'P-A',
      id: 'RD-REQ1',
    });
    expect(screen.getByRole('dialog', { name: 'Refund request' })).toBeTruthy();

    // bob approves on his desk: the pushes alone turn this dialog into the refund's outcome.
    fake.emit('refunds.updated', request({ state: 'approved', updatedAt: '2026-11-24T10:05:00.000Z' }));
    await waitFor(() => expect(result.getAttribute('data-state')).toBe('approved'));
    fake.emit(
      'refunds.updated',
      request({
        state: 'succeeded',
        refundTransactionNo: '300000000000000002',
        updatedAt: '2026-11-24T10:06:00.000Z',
      }),
    );
    await waitFor(() => expect(result.getAttribute('data-state')).toBe('succeeded'));
    expect(result.textContent).toContain('Refund completed');
    expect(result.textContent).toContain('Money moved: yes');
    expect(within(result).queryByTestId('request-approvers')).toBeNull();
  });
});
