import { describe, expect, it } from 'vitest';
import { PAYMENT_AUDIT_COLUMNS, PAYMENT_COLUMNS } from '../../../../shared/csv/exports/payments';
import { AUDIT_EXPORT_COLUMNS } from '../../../../shared/csv/exports/refunds';
import { writeCsv } from '../../../../shared/csv/writer';
import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import { createFormatters } from '../../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS } from '../../../../renderer/src/features/preferences/prefs';

const payment: PaymentView = {
  id: 'PY1',
  kind: 'link',
  state: 'succeeded',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  operator: 'Ana',
  reference: 'PAY1',
  amountMinor: 2500,
  currency: 'USD',
  settleCurrency: 'USD',
  vendor: 'alipay',
  goods: [],
  saveCard: false,
  methodSaved: false,
  retCode: '000100',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
};

describe('the payments exports read like every other export', () => {
  it('headers are words with codes beside labels, times in the person’s zone named in the header', () => {
    const f = createFormatters({ ...DEFAULT_PREFS, zone: 'service' });
    const csv = writeCsv(PAYMENT_COLUMNS, [payment], { zone: f.zone });
    const [header = '', row = ''] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toMatch(/^"?Created \(UTC\+8\)"?,"?Updated \(UTC\+8\)"?,"?Payment"?,"?Kind"?,/);
    for (const machine of ['createdAt', 'ret_code', 'ret_msg', 'timezone', 'paymentId'])
      expect(header).not.toContain(machine);
    expect(header).toContain('Service code');
    expect(row).toContain('2026-11-22T18:00:00+08:00');
    expect(row).toContain('Payment link');
    expect(row).toContain('Paid');
    expect(row).toContain('Demo (built-in sandbox)');
    // The audit export's header words are the refunds audit's words.
    const words = new Set(AUDIT_EXPORT_COLUMNS.map((c) => c.header));
    for (const h of ['Time', 'Operator', 'Profile', 'Environment', 'Service code', 'Service message'])
      expect(words.has(h) && PAYMENT_AUDIT_COLUMNS.some((c) => c.header === h)).toBe(true);
  });
});
