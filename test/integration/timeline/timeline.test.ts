import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { Output } from '../../../shared/ipc/contract';
import type { PaymentAuditEntry } from '../../../shared/ipc/contract/payments';
import { createFakeLogger } from '../../fakes/logger';
import { refundablePayment } from '../gateway/helpers';

/**
 * A payment's timeline through the whole app core (IPC dispatch → timeline service → the SQLite file)
 * against the embedded sandbox over real HTTP: a refund, the service's notification of it (IPN, sent by
 * the sandbox to this desk's listener), a look-up, a check of a refund whose outcome is unknown, and a note — each
 * with person and time, newest first; a note with a hiding character is refused; a note is in the audit.
 */
let core: AppCore;
let demoId: string;

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}
const timeline = (transactionNo: string) =>
  call<Output<'payments.timeline'>>('payments.timeline', { profileId: demoId, transactionNo });

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-timeline-')),
    log: createFakeLogger(),
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
  demoId = core.profiles.profiles.active()!.id;
  const p = core.profiles.profiles.get(demoId);
  const saved = await core.dispatch('profiles.save', {
    id: p.id,
    name: p.name,
    environment: p.environment,
    merchantNo: p.merchantNo,
    storeNo: p.storeNo,
    ipnEnabled: true,
    operatorName: 'Ana Clerk',
  });
  if (!saved.ok) throw new Error(saved.error.message);
});
afterAll(() => core.close());

describe('a payment’s timeline', () => {
  it('lists the refund, the service’s notification, a look-up and a note, with person and time, newest first', async () => {
    const sandbox = core.demoSandbox()!;
    const p = refundablePayment(sandbox, 0);
    const refund = await call<{ id: string; state: string }>('refunds.submit', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      reasonCode: 'customer_request',
      reasonNote: 'timeline test',
      confirmation: {},
    });
    expect(refund.state).toBe('accepted');
    // The sandbox notifies this desk's IPN listener; the notification is recorded when it arrives.
    let entries: Output<'payments.timeline'>['entries'] = [];
    for (let i = 0; i < 100 && !entries.some((e) => e.source === 'ipn'); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      entries = (await timeline(p.transactionNo)).entries;
    }
    expect(entries.find((e) => e.source === 'ipn')).toMatchObject({
      person: 'The payment service',
      automatic: true,
      what: expect.stringMatching(/^Notification: refund/),
    });
    await call('transactions.lookup', { profileId: demoId, query: p.transactionNo });
    const note = await call<Output<'payments.addNote'>>('payments.addNote', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      text: '  Customer called; told them 1.00 is on its way.  ',
    });
    expect(note.operator).toBe('Ana Clerk');

    const after = (await timeline(p.transactionNo)).entries;
    // The note is above what came before it (a refund's own later outcome may be above it).
    const noteAt = after.findIndex((e) => e.source === 'note');
    expect(noteAt).toBeLessThan(after.findIndex((e) => e.what === 'Refund accepted'));
    expect(after[noteAt]).toMatchObject({
      source: 'note',
      person: 'Ana Clerk',
      at: note.at,
      detail: 'Customer called; told them 1.00 is on its way.',
    });
    expect(after).toContainEqual(
      expect.objectContaining({
        source: 'refund',
        what: 'Refund accepted',
        person: 'Ana Clerk',
        amountMinor: 100,
        currency: p.currency,
      }),
    );
    expect(after).toContainEqual(
      expect.objectContaining({
        source: 'lookup',
        what: 'Looked up by transaction number',
        person: 'Ana Clerk',
      }),
    );
    // Newest first, every entry a time and a person.
    const times = after.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const e of after) {
      expect(Number.isNaN(Date.parse(e.at))).toBe(false);
      expect(e.person.length).toBeGreaterThan(0);
    }
    // Another payment's timeline has none of it.
    const other = refundablePayment(sandbox, 1);
    expect((await timeline(other.transactionNo)).entries).toEqual([]);
  });

  it('a refund whose outcome is unknown shows each check of it, by this desk', async () => {
    const sandbox = core.demoSandbox()!;
    const p = refundablePayment(sandbox, 2);
    sandbox.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    try {
      const intent = await call<{ state: string }>('refunds.submit', {
        profileId: demoId,
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
        reasonCode: 'customer_request',
        reasonNote: 'timeline test',
        confirmation: {},
      });
      expect(intent.state).toBe('outcome_unknown');
    } finally {
      sandbox.resetFaults();
    }
    const entries = (await timeline(p.transactionNo)).entries;
    expect(entries).toContainEqual(
      expect.objectContaining({ source: 'refund', what: 'Refund outcome unknown', person: 'Ana Clerk' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        source: 'refund',
        what: expect.stringMatching(/^Refund checked at the service/),
        person: 'Refund Desk (automatic check)',
      }),
    );
  });

  it('refuses a note with a hiding character, keeps nothing, and records each note in the audit', async () => {
    const p = refundablePayment(core.demoSandbox()!, 3);
    const bad = await core.dispatch('payments.addNote', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      text: 'Refund \u202E00.01 approved',
    });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/note/) },
    });
    const empty = await core.dispatch('payments.addNote', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      text: '   ',
    });
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/Type the note\./) },
    });
    const long = await core.dispatch('payments.addNote', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      text: 'x'.repeat(1001),
    });
    expect(long).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((await timeline(p.transactionNo)).entries).toEqual([]);

    const note = await call<Output<'payments.addNote'>>('payments.addNote', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      text: 'Chargeback letter received — Zürich branch',
    });
    const audit = await call<PaymentAuditEntry[]>('payments.audit', { profileId: demoId });
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: 'payment.note',
        outcome: 'noted',
        operator: 'Ana Clerk',
        at: note.at,
        subjectId: note.id,
        transactionNo: p.transactionNo,
        detail: 'Chargeback letter received — Zürich branch',
      }),
    );
  });
});
