import { describe, expect, it } from 'vitest';
import { RECENT_REFUND_MS, recentRefunds } from '../../../electron/core/services/refunds/service';
import type { Intent } from '../../../shared/domain/refund-intent';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const intent = (over: Partial<Intent>): Intent => ({
  id: 'RD-x',
  profileId: 'P',
  profileName: 'Shop',
  environment: 'demo',
  baseUrl: 'http://127.0.0.1:1',
  merchantNo: '200043',
  storeNo: '300014',
  transactionNo: '297553638300708562',
  amountMinor: 100,
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'customer_request',
  reasonNote: '',
  operator: 'ana',
  createdAt: ago(60_000),
  updatedAt: ago(60_000),
  state: 'succeeded',
  checks: 0,
  attempts: 1,
  ...over,
});

describe('the refund dialog’s recent refunds of a payment (the journal, last 24 hours)', () => {
  it('lists, newest first, the refunds that moved or may move money, with the person and desk where known', () => {
    const list = recentRefunds(
      [
        intent({ id: 'old', createdAt: ago(RECENT_REFUND_MS + 1) }),
        intent({ id: 'edge', createdAt: ago(RECENT_REFUND_MS), amountMinor: 5 }),
        intent({ id: 'team', createdAt: ago(120_000), author: { person: 'alice', desk: 'desk-2' } }),
        intent({ id: 'asked', state: 'awaiting_approval', createdAt: ago(30_000), amountMinor: 900 }),
        intent({ id: 'no-1', state: 'rejected' }),
        intent({ id: 'no-2', state: 'refused' }),
        intent({ id: 'no-3', state: 'declined' }),
        intent({ id: 'no-4', state: 'cancelled' }),
        intent({ id: 'no-5', state: 'expired' }),
        intent({ id: 'no-6', state: 'failed' }),
      ],
      NOW,
    );
    expect(list).toEqual([
      {
        id: 'asked',
        state: 'awaiting_approval',
        amountMinor: 900,
        currency: 'USD',
        at: ago(30_000),
        by: 'ana',
      },
      {
        id: 'team',
        state: 'succeeded',
        amountMinor: 100,
        currency: 'USD',
        at: ago(120_000),
        by: 'alice',
        desk: 'desk-2',
      },
      {
        id: 'edge',
        state: 'succeeded',
        amountMinor: 5,
        currency: 'USD',
        at: ago(RECENT_REFUND_MS),
        by: 'ana',
      },
    ]);
  });
});
