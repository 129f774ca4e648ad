import { describe, expect, it } from 'vitest';
import {
  approversWords,
  batchRoleFor,
  describeApprovalError,
  personWords,
  roleFor,
  todayWithoutRequest,
} from '../../../../renderer/src/features/refunds/approvals/words';
import { PLAIN_WORDS } from '../../../../renderer/src/features/refunds/format';
import type { BatchStatus } from '../../../../shared/batch/execution';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';

const req = (over: Partial<IntentView> = {}): IntentView => ({
  id: 'RD1',
  profileId: 'P-A',
  profileName: 'Shop A',
  environment: 'demo',
  baseUrl: 'http://127.0.0.1:4100',
  merchantNo: '200043',
  storeNo: '300014',
  transactionNo: '297553638300708562',
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'customer_request',
  reasonNote: '',
  operator: 'alice',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  checks: 0,
  attempts: 0,
  state: 'awaiting_approval',
  amountMinor: 1_200,
  approval: {
    reason: 'r',
    requestedBy: 'alice',
    requestedDesk: 'desk-1',
    requestedAt: '2026-11-24T10:00:00.000Z',
    expiresAt: '2026-11-25T10:00:00.000Z',
  },
  ...over,
});
const checker = (upToMinor: number, login = 'bob') => ({
  team: true as const,
  login,
  groups: ['refund_checker'],
  limits: [{ currency: 'USD', upToMinor }],
});

describe('four-eyes words and rules on screen', () => {
  it('what a person may do with a request: approve within their limit, never their own', () => {
    expect(roleFor(req(), checker(1_200))).toBe('approve');
    expect(roleFor(req(), checker(1_199))).toBe('above_limit');
    expect(roleFor(req({ currency: 'EUR' }), checker(100_000))).toBe('above_limit');
    expect(roleFor(req(), checker(100_000, 'alice'))).toBe('own');
    expect(roleFor(req(), { team: true, login: 'erin', groups: ['refund_maker'], limits: [] })).toBe('view');
    expect(roleFor(req({ state: 'approved' }), checker(100_000))).toBe('view');
  });

  it('who can approve, in a sentence; nobody yet says what to do', () => {
    expect(approversWords(['bob'], '12.00 USD')).toBe(
      'bob — the checker whose approval limit covers 12.00 USD.',
    );
    expect(approversWords(['bob', 'carol', 'dave'], '12.00 USD')).toBe(
      'bob, carol or dave — checkers whose approval limit covers 12.00 USD.',
    );
    expect(approversWords([], '12.00 USD')).toMatch(/^Nobody yet: .*covering 12\.00 USD\. .*--approve-up-to/);
  });

  it('who this desk acts as', () => {
    expect(personWords(checker(100_000), PLAIN_WORDS)).toBe('bob · checker, approves up to 1000.00 USD');
    expect(
      personWords({ team: true, login: 'alice', groups: ['refund_maker'], limits: [] }, PLAIN_WORDS),
    ).toBe('alice · maker');
    expect(
      personWords({ team: true, login: 'vic', groups: ['refund_viewer'], limits: [] }, PLAIN_WORDS),
    ).toBe('vic · viewer');
  });

  it('today’s total leaves out a request made today (it counts while it waits), never below zero', () => {
    const now = new Date(2026, 10, 24, 15, 0).getTime();
    const today = new Date(2026, 10, 24, 9, 0).toISOString();
    const yesterday = new Date(2026, 10, 23, 23, 59).toISOString();
    expect(todayWithoutRequest(5_000, { amountMinor: 1_200, createdAt: today }, now)).toBe(3_800);
    expect(todayWithoutRequest(5_000, { amountMinor: 1_200, createdAt: yesterday }, now)).toBe(5_000);
    expect(todayWithoutRequest(500, { amountMinor: 1_200, createdAt: today }, now)).toBe(0);
  });

  it('a refused approval: the database’s words as a sentence, nothing sent', () => {
    const o = describeApprovalError({
      code: 'forbidden',
      message:
        'request RD1 expired at 2026-11-25 10:00:00 UTC (server time): nothing was sent; the requester makes a new request',
      details: { moneyMoved: 'no' },
    });
    expect(o).toMatchObject({ tone: 'bad', title: 'Not approved — nothing was sent', moneyMoved: 'no' });
    expect(o.body).toBe(
      'Request RD1 expired at 2026-11-25 10:00:00 UTC (server time): nothing was sent; the requester makes a new request.',
    );
    // Main's own words already end a sentence; whether money moved is read from the details, never the text.
    expect(
      describeApprovalError({
        code: 'conflict',
        message: 'The payment changed. Nothing was sent.',
        details: { moneyMoved: 'no', remainingMinor: 0 },
      }),
    ).toMatchObject({
      body: 'The payment changed. Nothing was sent.',
      next: expect.stringMatching(/^Reject the request/),
    });
    expect(
      describeApprovalError({ code: 'timeout', message: 'No answer.', details: { moneyMoved: 'unknown' } }),
    ).toMatchObject({
      moneyMoved: 'unknown',
    });
  });
});

describe('batchRoleFor: what a person may do with a batch awaiting approval', () => {
  const batch = (over: Partial<BatchStatus> = {}): BatchStatus => ({
    batchId: 'RB1',
    profileId: 'P-A',
    profileName: 'Shop A',
    state: 'awaiting_approval',
    active: false,
    fileName: 'recall.csv',
    createdAt: '2026-11-24T10:00:00.000Z',
    operator: 'alice',
    moneyMode: 'test',
    dataRows: 3,
    toSend: 3,
    pending: 3,
    refunded: 0,
    refused: 0,
    unknown: 0,
    cancelled: 0,
    alreadyDone: 0,
    notUsable: 0,
    totals: [
      { currency: 'USD', amountMinor: 50_000, rows: 2 },
      { currency: 'EUR', amountMinor: 9_000, rows: 1 },
    ],
    approval: { startedBy: 'alice', expiresAt: '2026-11-25T10:00:00.000Z' },
    ...over,
  });
  const person = (login: string, groups: string[], limits: Array<[string, number]>) => ({
    team: true as const,
    login,
    groups,
    limits: limits.map(([currency, upToMinor]) => ({ currency, upToMinor })),
  });
  const checker = person(
    'bob',
    ['refund_checker'],
    [
      ['USD', 100_000],
      ['EUR', 10_000],
    ],
  );

  it('a checker whose limits cover the total in EVERY currency approves; one currency short is above the limit', () => {
    expect(batchRoleFor(batch(), checker)).toBe('approve');
    const noEur = person('bob', ['refund_checker'], [['USD', 100_000]]);
    expect(batchRoleFor(batch(), noEur)).toBe('above_limit');
    const lowUsd = person(
      'bob',
      ['refund_checker'],
      [
        ['USD', 49_999],
        ['EUR', 10_000],
      ],
    );
    expect(batchRoleFor(batch(), lowUsd)).toBe('above_limit');
  });

  it('its starter only cancels (even a checker); a maker or viewer only looks; a batch no longer waiting is only shown', () => {
    const aliceChecker = person(
      'alice',
      ['refund_checker', 'refund_maker'],
      [
        ['USD', 1e9],
        ['EUR', 1e9],
      ],
    );
    expect(batchRoleFor(batch(), aliceChecker)).toBe('own');
    expect(batchRoleFor(batch(), person('carol', ['refund_maker'], []))).toBe('view');
    expect(batchRoleFor(batch({ state: 'running' }), checker)).toBe('view');
    expect(batchRoleFor(batch({ state: 'expired' }), checker)).toBe('view');
  });
});
