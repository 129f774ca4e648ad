import { describe, expect, it } from 'vitest';
import { unwrapCell, writeCsv } from '../../../../shared/csv/writer';
import { AUDIT_EXPORT_COLUMNS, REFUND_RECORD_COLUMNS } from '../../../../shared/csv/exports/refunds';
import { mergeRefundRecord } from '../../../../shared/domain/refund-record';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import {
  type AuditEntry,
  currenciesOf,
  filterAudit,
  profilePart,
} from '../../../../renderer/src/features/refunds/filters';
import { describeIntent, describeSubmitError } from '../../../../renderer/src/features/refunds/outcome';
import { applyIntent, refundKeys } from '../../../../renderer/src/features/refunds/queries';
import { QueryClient } from '@tanstack/react-query';

const intent = (over: Partial<IntentView> = {}): IntentView => ({
  id: 'RD01',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  baseUrl: '',
  merchantNo: 'm',
  storeNo: 's',
  transactionNo: '297553638300708562',
  amountMinor: 1234,
  currency: 'USD',
  settleCurrency: 'USD',
  reasonCode: 'duplicate',
  reasonNote: '',
  operator: 'Ana',
  createdAt: '2024-06-01T10:00:00.000Z',
  updatedAt: '2024-06-01T10:00:00.000Z',
  state: 'accepted',
  refundTransactionNo: '300000000000000001',
  checks: 0,
  attempts: 1,
  ...over,
});
const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  at: '2024-06-01T10:00:01.000Z',
  operator: 'Ana',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  intentId: 'RD01',
  transactionNo: '297553638300708562',
  amountMinor: 1234,
  currency: 'USD',
  reasonCode: 'other',
  reasonNote: '=HYPERLINK("x")',
  outcome: 'accepted',
  refundTransactionNo: '300000000000000001',
  ...over,
});

describe('filters', () => {
  const list = [
    intent(),
    intent({
      id: 'RD02',
      state: 'outcome_unknown',
      currency: 'JPY',
      createdAt: '2024-06-02T00:00:00Z',
      transactionNo: '111',
      refundTransactionNo: undefined,
    }),
  ];
  it('lists the currencies of a list, sorted, for the currency filter', () => {
    expect(currenciesOf(list)).toEqual(['JPY', 'USD']);
  });
  it('filters the audit log', () => {
    const rows = [entry(), entry({ outcome: 'rejected', retCode: 'R0007', at: '2024-06-02T00:00:00Z' })];
    expect(filterAudit(rows, { outcome: 'rejected', currency: 'all', text: '' })).toHaveLength(1);
    expect(filterAudit(rows, { outcome: 'all', currency: 'all', text: 'r0007' })).toHaveLength(1);
  });
  it('a pushed intent is written into every loaded list it belongs to by the rule payments use: never an older version over a newer one, a new one newest first, no list created', () => {
    const client = new QueryClient();
    const mine = refundKeys.list({ profileId: 'p' });
    const all = refundKeys.list({ allProfiles: true });
    const other = refundKeys.list({ profileId: 'q' });
    client.setQueryData(mine, list);
    client.setQueryData(all, list);
    const settled = intent({ state: 'succeeded', updatedAt: '2024-06-01T10:05:00.000Z' });
    applyIntent(client, settled);
    for (const key of [mine, all])
      expect(client.getQueryData<IntentView[]>(key)?.find((i) => i.id === 'RD01')?.state).toBe('succeeded');
    // A late push of the earlier state (pushes and answers cross) does not undo it…
    applyIntent(client, intent({ state: 'accepted', updatedAt: '2024-06-01T10:01:00.000Z' }));
    expect(client.getQueryData<IntentView[]>(mine)?.find((i) => i.id === 'RD01')?.state).toBe('succeeded');
    // …the order is kept, and a new intent joins newest first.
    expect(client.getQueryData<IntentView[]>(mine)?.map((i) => i.id)).toEqual(list.map((i) => i.id));
    applyIntent(client, intent({ id: 'RD09', createdAt: '2024-06-03T00:00:00.000Z' }));
    expect(client.getQueryData<IntentView[]>(mine)?.[0]?.id).toBe('RD09');
    expect(client.getQueryData(other)).toBeUndefined();
  });
});

describe('exports (shared writer)', () => {
  const utc8 = { iana: 'Etc/GMT-8', label: 'UTC+8' };
  it('writes the audit with words for headers, codes beside labels, zoned times and plain-digit ids', () => {
    const csv = writeCsv(AUDIT_EXPORT_COLUMNS, [entry()], { zone: utc8 });
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, row] = csv.slice(1).split('\r\n');
    expect(header).toBe(
      'Time (UTC+8),Operator,Profile,Environment,Transaction no.,Amount,Currency,Reason,Reason code,Note,Outcome,Outcome code,Service code,Service message,Refund no.,Refund Desk reference',
    );
    expect(row).toContain(
      '2024-06-01T18:00:01+08:00,Ana,Demo,Demo (built-in sandbox),297553638300708562,12.34,USD,Other,other,',
    );
    // The formula-injection guard neutralised the note.
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });
  it('writes JPY amounts without decimals and the refunds with their state in words and code', () => {
    const unknown = intent({ currency: 'JPY', amountMinor: 1200, state: 'outcome_unknown' });
    const csv = writeCsv(REFUND_RECORD_COLUMNS, mergeRefundRecord([unknown], [], unknown.profileId));
    expect(csv).toContain(',yes,');
    expect(csv).toContain(',1200,JPY,Outcome unknown,,outcome_unknown,');
    expect(profilePart([intent(), intent({ profileName: 'Main' })])).toBe('all-profiles');
    expect(profilePart([intent()])).toBe('Demo');
  });
  it('keeps the 18-digit transaction number exact', () => {
    expect(unwrapCell('="297553638300708562"')).toBe('297553638300708562');
    expect(writeCsv(AUDIT_EXPORT_COLUMNS, [entry()])).not.toMatch(/2\.97\d*E\+17/i);
  });
});

describe('outcome words', () => {
  it('says whether money moved for every state', () => {
    // Accepted can still fail at the service: pending, never "yes" until it reports success.
    expect(describeIntent(intent()).moneyMoved).toBe('pending');
    expect(describeIntent(intent()).title).toBe('Accepted — not final yet');
    expect(describeIntent(intent()).body).toContain('300000000000000001');
    expect(describeIntent(intent()).body).toContain('can still fail');
    expect(describeIntent(intent({ state: 'succeeded' })).moneyMoved).toBe('yes');
    expect(describeIntent(intent({ state: 'failed' })).moneyMoved).toBe('no');
    const rejected = describeIntent(
      intent({ state: 'rejected', retCode: 'R0042', retMsg: 'refund window closed' }),
    );
    expect(rejected).toMatchObject({ moneyMoved: 'no', tone: 'bad' });
    expect(rejected.body).toContain('refund window closed (code R0042)');
    expect(rejected.body).toContain('No money moved');
    const unknown = describeIntent(intent({ state: 'outcome_unknown', detail: 'The connection dropped.' }));
    expect(unknown.moneyMoved).toBe('unknown');
    expect(unknown.body).toContain("We don't know yet whether money moved");
    expect(unknown.next).toContain('Check again');
  });
  it('describes a refusal from main as nothing sent', () => {
    const o = describeSubmitError({
      code: 'conflict',
      message: 'Only 5.00 USD remains refundable on this payment. Nothing was sent.',
      details: { moneyMoved: 'no', remainingMinor: 500 },
    });
    expect(o.moneyMoved).toBe('no');
    expect(o.body.match(/Nothing was sent/g)).toHaveLength(1);
    expect(o.next).toContain('within what remains');
    // Whether money moved comes from the details (or the code), never from the wording of the message.
    const internal = describeSubmitError({ code: 'internal', message: 'Boom.' });
    expect(internal.moneyMoved).toBe('no');
    expect(
      describeSubmitError({
        code: 'conflict',
        message: 'Nothing was sent.',
        details: { moneyMoved: 'unknown' },
      }).moneyMoved,
    ).toBe('unknown');
  });
});
