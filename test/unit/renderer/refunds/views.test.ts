import { describe, expect, it } from 'vitest';
import { unwrapCell } from '../../../../shared/csv/writer';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { auditCsv, exportFileName, refundsCsv } from '../../../../renderer/src/features/refunds/exports';
import {
  type AuditEntry,
  currenciesOf,
  filterAudit,
  filterIntents,
  upsertIntent,
} from '../../../../renderer/src/features/refunds/filters';
import { describeIntent, describeSubmitError } from '../../../../renderer/src/features/refunds/outcome';

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
  it('filters intents by state, currency and id text, newest first', () => {
    expect(filterIntents(list, { state: 'all', currency: 'all', text: '' }).map((i) => i.id)).toEqual([
      'RD02',
      'RD01',
    ]);
    expect(
      filterIntents(list, { state: 'outcome_unknown', currency: 'all', text: '' }).map((i) => i.id),
    ).toEqual(['RD02']);
    expect(filterIntents(list, { state: 'all', currency: 'USD', text: '' }).map((i) => i.id)).toEqual([
      'RD01',
    ]);
    expect(
      filterIntents(list, { state: 'all', currency: 'all', text: '30000000000000' }).map((i) => i.id),
    ).toEqual(['RD01']);
    expect(currenciesOf(list)).toEqual(['JPY', 'USD']);
  });
  it('filters the audit log', () => {
    const rows = [entry(), entry({ outcome: 'rejected', retCode: 'R0007', at: '2024-06-02T00:00:00Z' })];
    expect(filterAudit(rows, { outcome: 'rejected', currency: 'all', text: '' })).toHaveLength(1);
    expect(filterAudit(rows, { outcome: 'all', currency: 'all', text: 'r0007' })).toHaveLength(1);
  });
  it('upserts a pushed intent by id', () => {
    const next = upsertIntent(list, intent({ state: 'succeeded', updatedAt: '2024-06-01T10:05:00Z' }));
    expect(next).toHaveLength(2);
    expect(next.find((i) => i.id === 'RD01')?.state).toBe('succeeded');
  });
});

describe('CSV exports (shared writer)', () => {
  it('writes the audit columns with a timezone column, plain decimal amounts and ids kept as text', () => {
    const csv = auditCsv([entry()]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, row] = csv.slice(1).split('\r\n');
    expect(header).toBe(
      'at,timezone,operator,profile,environment,transactionNo,amount,currency,reason,note,outcome,ret_code,ret_msg,refundTransactionNo,intentId',
    );
    expect(row).toContain(
      '2024-06-01T10:00:01.000Z,UTC,Ana,Demo,demo,"=""297553638300708562""",12.34,USD,other,',
    );
    // The formula-injection guard neutralised the note.
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });
  it('writes JPY amounts without decimals and the refunds list with its states', () => {
    const csv = refundsCsv([intent({ currency: 'JPY', amountMinor: 1200, state: 'outcome_unknown' })]);
    expect(csv).toContain(',1200,JPY,');
    expect(csv).toContain('outcome_unknown');
    expect(exportFileName('audit', new Date('2024-06-01T10:20:30.456Z'))).toBe(
      'audit-2024-06-01T10-20-30Z.csv',
    );
  });
  it('keeps the 18-digit transaction number exact for our own readers', () => {
    expect(unwrapCell('="297553638300708562"')).toBe('297553638300708562');
    expect(auditCsv([entry()])).not.toMatch(/2\.97\d*E\+17/i);
  });
});

describe('outcome words', () => {
  it('says whether money moved for every state', () => {
    expect(describeIntent(intent()).moneyMoved).toBe('yes');
    expect(describeIntent(intent()).body).toContain('300000000000000001');
    expect(describeIntent(intent()).body).toContain('settling');
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
    expect(describeSubmitError({ code: 'internal', message: 'Boom.' }).body).toContain('Nothing was sent.');
  });
});
