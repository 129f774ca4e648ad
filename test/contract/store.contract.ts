import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IntentStore, InvariantViolation } from '../../electron/core/services/engine/port';
import { payment, record } from './records';

/**
 * How the contract suite reaches a store implementation. `fresh` makes an empty shared location (a
 * file, a database); every `open` of it is another connection, as another process or desk would have.
 * `module` default-exports this factory, so child processes can open the same location.
 */
export interface StoreFactory {
  fresh(): Promise<string>;
  open(
    location: string,
    opts?: { now?: () => number },
  ): Promise<{ store: IntentStore; close(): Promise<void> }>;
  module: string;
}

const CHILD = resolve(import.meta.dirname, 'child.ts');

function runChild(factory: StoreFactory, location: string, scenario: string, arg: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, factory.module, location, scenario, arg], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; out: string; err: string }>((r) =>
    child.on('exit', (code) => r({ code, out, err })),
  );
  const saw = (text: string) =>
    new Promise<void>((r, j) => {
      const t = setInterval(() => {
        if (out.includes(text)) {
          clearInterval(t);
          r();
        }
      }, 10);
      void exited.then(() => {
        clearInterval(t);
        if (!out.includes(text)) j(new Error(`child exited before "${text}": ${err}`));
      });
    });
  return { child, exited, saw };
}

/**
 * Every rule of the intent store port (electron/core/services/engine/port.ts). Any implementation —
 * SQLite today, PostgreSQL next — must pass it unchanged. Nothing here knows which database it is.
 */
export function storeContract(name: string, factory: StoreFactory): void {
  describe(`intent store contract: ${name}`, () => {
    const open: Array<{ close(): Promise<void> }> = [];
    const opened = async (location: string, opts?: { now?: () => number }) => {
      const o = await factory.open(location, opts);
      open.push(o);
      return o.store;
    };
    afterEach(async () => {
      for (const o of open.splice(0)) await o.close();
    });
    const at = () => new Date().toISOString();

    it('decide is exclusive per payment across several processes: never two open refunds of one payment', async () => {
      const location = await factory.fresh();
      const children = Array.from({ length: 4 }, () => runChild(factory, location, 'race', '25'));
      const results = await Promise.all(children.map((c) => c.exited));
      for (const r of results) expect(r.code, r.err).toBe(0);
      const inserted = results.reduce((n, r) => n + Number(r.out.trim()), 0);
      const store = await opened(location);
      const all = (await store.list({ kind: 'refund' })).items;
      // Each payment got exactly one intent, whichever process won it; the others saw it and stopped.
      expect(all).toHaveLength(25);
      expect(inserted).toBe(25);
      expect(new Set(all.map((r) => r.transactionNo)).size).toBe(25);
    }, 120_000);

    it('the database itself refuses a second open refund of a payment, and a reused payment reference', async () => {
      const store = await opened(await factory.fresh());
      const key = payment('100000000000000001');
      await store.decide([{ payment: key }], (tx) =>
        tx.insert(record('RA', key.transactionNo), undefined, { at: at(), type: 'decided' }),
      );
      await expect(
        store.decide([{ payment: key }], (tx) =>
          tx.insert(record('RB', key.transactionNo), undefined, { at: at(), type: 'decided' }),
        ),
      ).rejects.toBeInstanceOf(InvariantViolation);
      // Once the first is final, another refund of the payment may be decided.
      await store.transition({
        id: 'RA',
        from: ['sending'],
        to: 'rejected',
        patch: {},
        event: { at: at(), type: 'rejected' },
      });
      await store.decide([{ payment: key }], (tx) =>
        tx.insert(record('RB', key.transactionNo), undefined, { at: at(), type: 'decided' }),
      );
      const pay = (id: string, state = 'sending') =>
        record(id, '', {
          kind: 'payment',
          state,
          reference: 'ORDER-1',
          transactionNo: undefined,
          data: { paymentKind: 'link' },
        });
      const ref = { reference: { merchantNo: '200043', reference: 'ORDER-1' } };
      await store.decide([ref], (tx) => tx.insert(pay('PA'), undefined, { at: at(), type: 'decided' }));
      await expect(
        store.decide([ref], (tx) => tx.insert(pay('PB'), undefined, { at: at(), type: 'decided' })),
      ).rejects.toMatchObject({
        which: 'reference',
      });
      // A create the service rejected frees its reference.
      await store.transition({
        id: 'PA',
        from: ['sending'],
        to: 'rejected',
        patch: {},
        event: { at: at(), type: 'rejected' },
      });
      await store.decide([ref], (tx) => tx.insert(pay('PB'), undefined, { at: at(), type: 'decided' }));
    });

    it('a decision that throws leaves nothing behind', async () => {
      const store = await opened(await factory.fresh());
      const key = payment('100000000000000002');
      await expect(
        store.decide([{ payment: key }], async (tx) => {
          await tx.insert(record('RX', key.transactionNo), undefined, { at: at(), type: 'decided' });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store.get('RX')).toBeUndefined();
    });

    it('transitions are guarded: only from the named states, once, with their event', async () => {
      const store = await opened(await factory.fresh());
      const key = payment('100000000000000003');
      await store.decide([{ payment: key }], (tx) =>
        tx.insert(record('RG', key.transactionNo), undefined, { at: at(), type: 'decided' }),
      );
      const t = {
        id: 'RG',
        from: ['sending'],
        to: 'accepted',
        patch: { data: { refundTransactionNo: '77' } },
        event: { at: at(), type: 'accepted' },
      };
      const [a, b] = await Promise.all([store.transition(t), store.transition({ ...t, to: 'rejected' })]);
      expect([a?.state, b?.state].filter(Boolean)).toHaveLength(1);
      const now = (await store.get('RG'))!;
      expect(['accepted', 'rejected']).toContain(now.state);
      if (now.state === 'accepted') expect(now.data['refundTransactionNo']).toBe('77');
      expect(await store.transition({ ...t, from: ['sending'] })).toBeUndefined();
      // null clears a kind field.
      if (now.state === 'accepted') {
        const cleared = await store.transition({
          id: 'RG',
          from: ['accepted'],
          to: 'accepted',
          patch: { data: { refundTransactionNo: null } },
          event: { at: at(), type: 'x' },
        });
        expect(cleared!.data['refundTransactionNo']).toBeUndefined();
      }
    });

    it('a transition and its audit entry are one unit of work: both after commit, neither after kill -9 in between', async () => {
      const location = await factory.fresh();
      const store = await opened(location);
      const key = payment('100000000000000004');
      for (const id of ['RK1', 'RK2'])
        await store.decide([{ payment: { ...key, transactionNo: `${key.transactionNo}${id}` } }], (tx) =>
          tx.insert(record(id, `${key.transactionNo}${id}`), undefined, { at: at(), type: 'decided' }),
        );
      const audit = (subjectId: string) => ({
        kind: 'refund' as const,
        at: at(),
        outcome: 'outcome_unknown',
        operator: 'o',
        profileId: 'p',
        profileName: 'P',
        environment: 'demo' as const,
        subjectId,
        data: {},
      });
      const done = await store.transition({
        id: 'RK1',
        from: ['sending'],
        to: 'outcome_unknown',
        patch: {},
        event: { at: at(), type: 'x' },
        audit: (n) => audit(n.id),
      });
      expect(done?.state).toBe('outcome_unknown');
      expect((await store.audit.list({ kind: 'refund' })).items.map((e) => e.subjectId)).toEqual(['RK1']);

      const c = runChild(factory, location, 'hang-before-audit', 'RK2');
      await c.saw('transitioned');
      c.child.kill('SIGKILL');
      await c.exited;
      const after = await opened(location);
      expect((await after.get('RK2'))!.state).toBe('sending');
      expect((await after.audit.list({ kind: 'refund' })).items.map((e) => e.subjectId)).toEqual(['RK1']);
      // The store is usable afterwards (no lock left behind by the dead process).
      expect(
        await after.transition({
          id: 'RK2',
          from: ['sending'],
          to: 'outcome_unknown',
          patch: {},
          event: { at: at(), type: 'x' },
          audit: (n) => audit(n.id),
        }),
      ).toBeDefined();
    }, 60_000);

    it('leases: held while renewed, expired ones listed for resolving by query, renewing only by the holder', async () => {
      let now = 1_000_000;
      const location = await factory.fresh();
      const store = await opened(location, { now: () => now });
      const key = payment('100000000000000005');
      await store.decide([{ payment: key }], (tx) =>
        tx.insert(
          record('RL', key.transactionNo),
          { holder: 'desk-a:1', ms: 5_000 },
          { at: at(), type: 'decided' },
        ),
      );
      expect((await store.get('RL'))!.sender).toBe('desk-a:1');
      expect(await store.expiredLeases('refund')).toHaveLength(0);
      now += 4_000;
      expect(await store.renewLease('RL', 'desk-a:1', 5_000)).toBe(true);
      expect(await store.renewLease('RL', 'desk-b:2', 5_000)).toBe(false);
      now += 4_000;
      expect(await store.expiredLeases('refund')).toHaveLength(0);
      now += 2_000;
      expect((await store.expiredLeases('refund')).map((r) => r.id)).toEqual(['RL']);
      // Leaving `sending` ends the lease: it cannot be renewed, and is no longer listed.
      await store.transition({
        id: 'RL',
        from: ['sending'],
        to: 'outcome_unknown',
        patch: {},
        event: { at: at(), type: 'x' },
      });
      expect(await store.renewLease('RL', 'desk-a:1', 5_000)).toBe(false);
      expect(await store.expiredLeases('refund')).toHaveLength(0);
    });

    it('watch reports what another connection committed', async () => {
      const location = await factory.fresh();
      const a = await opened(location);
      const b = await opened(location);
      const seen: string[] = [];
      const stop = a.watch((changed) => seen.push(...changed.map((r) => `${r.id}:${r.state}`)));
      const key = payment('100000000000000006');
      await b.decide([{ payment: key }], (tx) =>
        tx.insert(record('RW', key.transactionNo), undefined, { at: at(), type: 'decided' }),
      );
      await b.transition({
        id: 'RW',
        from: ['sending'],
        to: 'accepted',
        patch: {},
        event: { at: at(), type: 'x' },
      });
      const until = Date.now() + 5_000;
      while (!seen.includes('RW:accepted') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      stop();
      expect(seen).toContain('RW:accepted');
    });

    it('lists are scoped and paged: newest first, by owner, every row once', async () => {
      const store = await opened(await factory.fresh());
      for (let i = 0; i < 7; i += 1) {
        const tx = `20000000000000000${i}`;
        await store.decide([{ payment: payment(tx) }], (t) =>
          t.insert(
            record(`RP${i}`, tx, {
              state: 'accepted',
              profileId: i % 2 ? 'other' : 'p',
              createdAt: `2026-01-0${i + 1}T00:00:00.000Z`,
              ...(i === 5 ? { environment: 'production', baseUrl: 'https://x.example' } : {}),
            }),
            undefined,
            { at: at(), type: 'decided' },
          ),
        );
        await store.audit.record({
          kind: 'refund',
          at: at(),
          outcome: 'accepted',
          operator: 'o',
          profileId: i % 2 ? 'other' : 'p',
          profileName: 'P',
          environment: 'demo',
          subjectId: `RP${i}`,
          data: {},
        });
      }
      const pages: string[][] = [];
      let after: string | undefined;
      do {
        const page = await store.list({ kind: 'refund', limit: 3, ...(after ? { after } : {}) });
        pages.push(page.items.map((r) => r.id));
        after = page.next;
      } while (after);
      expect(pages).toEqual([['RP6', 'RP5', 'RP4'], ['RP3', 'RP2', 'RP1'], ['RP0']]);
      expect(
        (await store.list({ kind: 'refund', owner: { profileId: 'p' } })).items.map((r) => r.id),
      ).toEqual(['RP6', 'RP4', 'RP2', 'RP0']);
      // A Demo account is any Demo sandbox for the merchant and store: the other profile's Demo refunds count.
      const demo = {
        environment: 'demo' as const,
        baseUrl: 'http://127.0.0.1:1',
        merchantNo: '200043',
        storeNo: '300014',
      };
      expect(
        (await store.list({ kind: 'refund', owner: { profileId: 'p', account: demo } })).items.map(
          (r) => r.id,
        ),
      ).toEqual(['RP6', 'RP4', 'RP3', 'RP2', 'RP1', 'RP0']);
      const a1 = await store.audit.list({ kind: 'refund', profileId: 'other', limit: 2 });
      expect(a1.items.map((e) => e.subjectId)).toEqual(['RP5', 'RP3']);
      const a2 = await store.audit.list({ kind: 'refund', profileId: 'other', limit: 2, after: a1.next! });
      expect(a2.items.map((e) => e.subjectId)).toEqual(['RP1']);
      expect(a2.next).toBeUndefined();
    });
  });
}
