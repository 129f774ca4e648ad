import { mkdtempSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import type { PaymentDraft } from '../../../electron/core/services/payments/intent';
import { createFakeLogger } from '../../fakes/logger';
import { scanForCard } from '../../integration/payments/card-scan';
import { unsafeLinkNotice } from '../../../shared/domain/card-scrub';

const open = (dir: string) =>
  openAppStorage({ dataDir: dir, now: Date.now, log: createFakeLogger() }).payments;
const draft = (over: Partial<PaymentDraft> = {}): PaymentDraft => ({
  id: 'PY1',
  kind: 'card',
  profileId: 'p',
  profileName: 'Demo',
  environment: 'demo',
  baseUrl: 'http://127.0.0.1:1',
  merchantNo: '200043',
  storeNo: '300014',
  operator: 'Ana',
  reference: 'R1',
  amountMinor: 500,
  currency: 'USD',
  settleCurrency: 'USD',
  vendor: 'creditcard',
  terminal: 'ONLINE',
  goods: [{ name: 'Mug', quantity: 2 }],
  saveCard: true,
  cardLast4: '3220',
  createdAt: '2026-11-22T10:00:00.000Z',
  ...over,
});

describe('payments in the app database', () => {
  it('a reference is taken across processes, except by creates the service rejected', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-paystore-'));
    const a = open(dir);
    const b = open(dir);
    expect(a.insertSending(draft(), 'h:1', 't').ok).toBe(true);
    const again = b.insertSending(draft({ id: 'PY2' }), 'h:2', 't');
    expect(again).toMatchObject({ ok: false, reason: 'reference_in_use', existing: { id: 'PY1' } });
    expect(
      a.transition('PY1', ['sending'], 'rejected', { retCode: '000023' }, { at: 't2', type: 'rejected' }),
    ).toMatchObject({
      state: 'rejected',
      retCode: '000023',
    });
    expect(b.insertSending(draft({ id: 'PY2' }), 'h:2', 't').ok).toBe(true);
    // The same reference at another merchant is another reference.
    expect(b.insertSending(draft({ id: 'PY3', merchantNo: '200101' }), 'h:2', 't').ok).toBe(true);
  });

  it('a transaction number is kept by one intent of a merchant only, whichever process records it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-paystore-'));
    const a = open(dir);
    const b = open(dir);
    a.insertSending(draft(), 'h:1', 't');
    b.insertSending(draft({ id: 'PY2', reference: 'R2' }), 'h:2', 't');
    b.insertSending(draft({ id: 'PY3', reference: 'R3', merchantNo: '200101' }), 'h:2', 't');
    const created = (s: typeof a, id: string) =>
      s.transition(
        id,
        ['sending'],
        'succeeded',
        { transactionNo: '300000000000000007' },
        { at: 't1', type: 'created' },
      );
    expect(created(a, 'PY1')).toMatchObject({ state: 'succeeded', transactionNo: '300000000000000007' });
    // The same number answered for another payment is refused in the write lock, and nothing changes.
    expect(() => created(b, 'PY2')).toThrow(
      expect.objectContaining({ code: 'conflict', details: { transactionNoTakenBy: 'PY1' } }),
    );
    expect(b.get('PY2')).toMatchObject({ state: 'sending' });
    expect(b.get('PY2')?.transactionNo).toBeUndefined();
    // Another merchant's numbers are its own; the intent that holds the number may be moved on.
    expect(created(b, 'PY3')).toMatchObject({ state: 'succeeded' });
    expect(
      a.transition(
        'PY1',
        ['succeeded'],
        'succeeded',
        { transactionNo: '300000000000000007' },
        { at: 't2', type: 'x' },
      ),
    ).toMatchObject({ state: 'succeeded' });
  });

  it('transitions are guarded; the intent reads back whole; a card is only ever its last four', () => {
    const s = open(mkdtempSync(join(tmpdir(), 'rd-paystore-')));
    s.insertSending(draft(), 'h:1', 't');
    expect(s.transition('PY1', ['open'], 'succeeded', {}, { at: 't', type: 'x' })).toBeUndefined();
    const open1 = s.transition(
      'PY1',
      ['sending'],
      'open',
      { transactionNo: '300000000000000001', paymentStatus: 'pending' },
      { at: 't1', type: 'created' },
    );
    expect(open1).toMatchObject({
      state: 'open',
      goods: [{ name: 'Mug', quantity: 2 }],
      saveCard: true,
      cardLast4: '3220',
    });
    expect(s.byTransaction('200043', '300000000000000001')?.id).toBe('PY1');
    expect(s.unfinished().map((i) => i.id)).toEqual(['PY1']);
    expect(s.noteCheck('PY1', { at: 't2', found: true, note: 'n' })).toMatchObject({
      checks: 1,
      lastCheck: { note: 'n' },
    });
    expect(() =>
      s.insertSending(draft({ id: 'PY9', reference: 'R9', cardLast4: '4242424242424242' }), 'h', 't'),
    ).toThrow();
  });

  it('a stored method is kept once per customer and linked to the payment that created it', () => {
    const s = open(mkdtempSync(join(tmpdir(), 'rd-paystore-')));
    s.customers.insert({
      id: 'CU1',
      profileId: 'p',
      environment: 'demo',
      baseUrl: '',
      merchantNo: '200043',
      storeNo: '300014',
      customerNo: '1234567890123456789012',
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'a@b.co',
      countryCode: 'US',
      state: 'CA',
      operator: 'Ana',
      createdAt: 't',
    });
    s.insertSending(draft({ customerId: 'CU1', customerNo: '1234567890123456789012' }), 'h', 't');
    const method = {
      id: 'PM1',
      customerId: 'CU1',
      vendor: 'creditcard',
      vaultId: 'pp_abc',
      cardLast4: '3220',
      paymentId: 'PY1',
      createdAt: 't',
    };
    expect(s.saveMethod('PY1', method, 't').id).toBe('PM1');
    expect(s.saveMethod('PY1', { ...method, id: 'PM2' }, 't').id).toBe('PM1');
    expect(s.methods.forCustomer('CU1')).toHaveLength(1);
    expect(s.get('PY1')?.savedMethodId).toBe('PM1');
    expect(s.customers.list('p').map((c) => c.customerNo)).toEqual(['1234567890123456789012']);
  });

  it('belt and braces: card data any writer hands the store is masked on its way to disk, and on its way out of an older row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-paystore-'));
    const s = open(dir);
    const pan = '4000 0566 5566 5556';
    expect(s.insertSending(draft({ note: `typed ${pan}` }), 'h', 't').ok).toBe(true);
    const moved = s.transition(
      'PY1',
      ['sending'],
      'open',
      {
        transactionNo: '300000000000000001',
        paymentStatus: 'pending',
        retMsg: `card ${pan} cvv 987`,
        authUrl: 'https://acs.example/acs?pan=4000056655665556&cvv=987',
      },
      { at: 't1', type: 'created' },
    );
    expect(moved).toMatchObject({ note: 'typed •••• 5556', retMsg: 'card •••• 5556 cvv •••' });
    expect(moved?.authUrl).toBeUndefined();
    expect(moved?.detail).toBe(unsafeLinkNotice('3ds'));
    expect(s.noteCheck('PY1', { at: 't2', found: false, note: `lookup ${pan}` })?.lastCheck?.note).toBe(
      'lookup •••• 5556',
    );
    s.audit.record({
      at: 't3',
      operator: 'Ana',
      profileId: 'p',
      profileName: 'Demo',
      environment: 'demo',
      action: 'payment.card',
      outcome: 'rejected',
      subjectId: 'PY1',
      retMsg: `echo ${pan}`,
      detail: 'exp 12/2031 cvc 987',
    });
    expect(s.audit.list()[0]).toMatchObject({ retMsg: 'echo •••• 5556', detail: 'exp ••/•• cvc •••' });
    expect(scanForCard({ dir, numbers: ['4000056655665556'], cvv: '987' })).toEqual([]);

    // A row an older version wrote with what the service echoed: masked wherever it is read.
    const raw = new DatabaseSync(join(dir, 'refund-desk.db'));
    raw
      .prepare('UPDATE payment_intents SET ret_msg = ?, auth_url = ?, detail = NULL WHERE id = ?')
      .run(`old ${pan}`, 'https://acs.example/acs?cardNumber=4000056655665556', 'PY1');
    raw.close();
    expect(s.get('PY1')).toMatchObject({ retMsg: 'old •••• 5556', detail: unsafeLinkNotice('3ds') });
    expect(s.get('PY1')?.authUrl).toBeUndefined();
  });
});
