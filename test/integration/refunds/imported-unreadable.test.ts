import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, reason } from './harness';
import { acceptedRefund, legacyDraft, sentUnanswered, writeJournal } from './legacy-journal';

/**
 * Refunds of versions before the database, imported from their journal, that today's closed types do
 * not fully admit (older versions kept any string as a currency). They are refunds all the same: one
 * that may have moved money or is still unresolved must keep blocking its payment and count its
 * amount — or refunds of that payment are refused with the reason. Never left out of the decision.
 */
let sb: RunningSandbox;
const sandboxLog: string[] = [];
const used = new Set<string>();
beforeAll(async () => {
  sb = await startSandbox({
    seed: 11,
    transactions: 200,
    refundSettleMs: 30,
    ipnSchedule: [10],
    log: (l) => void sandboxLog.push(l),
  });
});
afterAll(() => sb.close());

/** Refund requests the sandbox has received so far: what was sent, counted where it arrives. */
const refundRequests = () => sandboxLog.filter((l) => / \/app-data-search\/v\d+\/refund /.test(l)).length;
const dataDir = () => mkdtempSync(join(tmpdir(), 'rd-imported-'));

describe('an imported refund that cannot be fully read', () => {
  it.each(['CNH', 'usd', ''])(
    'unresolved 10.00 USD with settle currency "%s": still listed and blocking, so a second refund of its payment is refused and nothing is sent',
    async (settleCurrency) => {
      const p = freshPayment(sb, used);
      const dir = dataDir();
      writeJournal(dir, sentUnanswered(legacyDraft('RD0UNRESOLVED1', p.transactionNo, { settleCurrency })));
      const desk = buildRefunds(sb, dir);
      try {
        const sent = refundRequests();
        await expect(
          desk.service.submit({
            transactionNo: p.transactionNo,
            amountMinor: 400,
            currency: 'USD',
            ...reason,
          }),
        ).rejects.toMatchObject({
          code: 'conflict',
          message: expect.stringMatching(/Refund RD0UNRESOLVED1 .*still unresolved.*Nothing was sent\.$/),
        });
        expect(refundRequests()).toBe(sent);
        expect(sb.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo)).toEqual([]);
        // Listed as what it is, so the person sees why and can check it again.
        expect(desk.service.list()).toEqual([
          expect.objectContaining({ id: 'RD0UNRESOLVED1', state: 'outcome_unknown', amountMinor: 1000 }),
        ]);
      } finally {
        desk.close();
      }
    },
  );

  it('accepted 10.00 USD with settle currency "CNH" counts against what remains', async () => {
    const p = freshPayment(sb, used);
    const dir = dataDir();
    writeJournal(
      dir,
      acceptedRefund(
        legacyDraft('RD0ACCEPTEDCNH', p.transactionNo, { settleCurrency: 'CNH' }),
        '900000000000000077',
      ),
    );
    const desk = buildRefunds(sb, dir);
    try {
      // Not at the service (it is this desk's record only), so it counts on top of the service's refunds.
      const preview = await desk.service.preview(reason.profileId, p.transactionNo);
      expect(preview.remainingMinor).toBe(p.amountMinor - 1000);
      const sent = refundRequests();
      await expect(
        desk.service.submit({
          transactionNo: p.transactionNo,
          amountMinor: p.amountMinor - 1000 + 1,
          currency: 'USD',
          ...reason,
        }),
      ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/remains refundable/) });
      expect(refundRequests()).toBe(sent);
    } finally {
      desk.close();
    }
  });

  it('unresolved, in a currency this app does not handle: refunds of its payment are refused with the reason, nothing is sent', async () => {
    const p = freshPayment(sb, used);
    const dir = dataDir();
    writeJournal(
      dir,
      sentUnanswered(legacyDraft('RD0FOREIGN1', p.transactionNo, { currency: 'ZAR', settleCurrency: 'ZAR' })),
    );
    const desk = buildRefunds(sb, dir);
    try {
      const why =
        /Refund RD0FOREIGN1 of this payment .*cannot be read \(currency "ZAR" is not a currency this app handles\)/;
      const preview = await desk.service.preview(reason.profileId, p.transactionNo);
      expect(preview).toMatchObject({ remainingMinor: 0, blockedReason: expect.stringMatching(why) });
      const sent = refundRequests();
      await expect(
        desk.service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: 'USD', ...reason }),
      ).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(new RegExp(`${why.source}.*Nothing was sent\\.$`)),
      });
      expect(refundRequests()).toBe(sent);
      // Refused is audited like every refusal; health still names the row.
      expect(desk.service.audit()[0]).toMatchObject({ outcome: 'refused', transactionNo: p.transactionNo });
      expect(desk.storage.problems().map((x) => x.name)).toContain('journal-currency');
    } finally {
      desk.close();
    }
  });
});
