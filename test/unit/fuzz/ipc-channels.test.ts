import { mkdtempSync } from 'node:fs';
import { LIST_CHANNELS } from '../../fakes/scope';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from '../../../shared/domain/errors';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../shared/ipc/channels';
import { contract } from '../../../shared/ipc/contract';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { refundablePayment } from '../../integration/gateway/helpers';
import { createFakeLogger } from '../../fakes/logger';
import { createTally, FUZZ_SEED, fuzzRuns, reportFigures } from './figures';
import { HIDING_CHARACTERS, hostileValue, mutate, VALID_SAMPLES } from './hostile';

/**
 * Every IPC channel fed random and hostile payloads (seeded, bounded), through the same dispatcher the
 * Electron app and the browser host call after their sender checks. Each answer must be the envelope
 * with a code from the closed list — never `internal` (an exception), never a crash — and the state
 * people rely on (refund intents, audit log, profiles and settings notices, reconciliation jobs), read
 * through the public IPC reads, must not change. The core has real data first: a Demo profile with a
 * settled refund, a second profile with a token, a finished reconciliation job.
 */
const PER_CHANNEL = fuzzRuns(100);
/** Valid input to these creates records by design (a profile, an audited attempt, a job): fed only invalid. */
const CREATES_WHEN_VALID = new Set<InvokeChannel>([
  'profiles.save',
  'refunds.submit',
  'reconciliation.create',
  'reconciliation.recheck',
  'customers.register',
  'payments.createCheckout',
  'payments.captureCard',
  'payments.chargeMethod',
  // Settings → Team database: saving and setting the password change settings by design; a valid test
  // connects to the address it names (the team tests do that against a real server).
  'team.save',
  'team.setPassword',
  'team.testConnection',
]);

const envelopeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }).strict(),
  z
    .object({
      ok: z.literal(false),
      error: z
        .object({
          code: z.enum(ERROR_CODES),
          message: z.string().min(1).max(4_000),
          retryable: z.boolean(),
          correlationId: z.string().min(1),
          details: z.unknown().optional(),
        })
        .strict(),
    })
    .strict(),
]);

let core: AppCore;
const tally = createTally();
const skippedValid: Record<string, number> = {};

async function read(channel: InvokeChannel): Promise<unknown> {
  // Lists are read across every profile: nothing of any profile may change.
  const r = await core.dispatch(channel, LIST_CHANNELS.has(channel) ? { allProfiles: true } : undefined);
  if (!r.ok) throw new Error(`${channel} failed: ${r.error.message}`);
  return r.value;
}
/** What must never change: read only through the public IPC reads (the storage is an implementation detail). */
async function snapshot() {
  return JSON.stringify({
    refunds: await read('refunds.list'),
    audit: await read('audit.list'),
    profiles: await read('profiles.list'),
    recon: await read('reconciliation.list'),
    payments: await read('payments.list'),
    customers: await read('customers.list'),
    paymentAudit: await read('payments.audit'),
    team: await read('team.settings'),
  });
}

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-fuzz-ipc-'));
  core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createFakeLogger(),
    demo: { transactions: 200, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 2_000, retry: { retries: 0 } },
  });
  const payment = refundablePayment(core.demoSandbox()!);
  const profileId = core.profiles.profiles.active()!.id;
  const submitted = await core.dispatch('refunds.submit', {
    profileId,
    transactionNo: payment.transactionNo,
    amountMinor: 100,
    currency: payment.currency,
    reasonCode: 'customer_request',
    reasonNote: 'fuzz baseline',
    confirmation: {},
  });
  expect(submitted.ok).toBe(true);
  const other = await core.dispatch('profiles.save', {
    name: 'Second store',
    merchantNo: '200101',
    storeNo: '300101',
    environment: 'custom',
    baseUrl: 'https://mapi.example.test',
  });
  if (!other.ok) throw new Error(other.error.message);
  await core.dispatch('profiles.setToken', {
    id: (other.value as { id: string }).id,
    token: 'tok-second-0001',
  });
  const created = await core.dispatch('reconciliation.create', {
    ...(VALID_SAMPLES['reconciliation.create'] as object),
    profileId,
    label: 'baseline.csv',
    file: { ...(VALID_SAMPLES['reconciliation.create'] as { file: object }).file, dataRows: 2 },
  });
  if (!created.ok) throw new Error(created.error.message);
  const runId = (created.value as { runId: string }).runId;
  await core.dispatch('reconciliation.addInput', {
    profileId,
    runId,
    rows: [
      { line: 2, transactionNo: payment.transactionNo, amountMinor: 100, currency: 'USD', status: 'paid' },
    ],
    unusable: [{ line: 3, reason: 'has no currency' }],
  });
  const job = await core.dispatch('reconciliation.start', { profileId, runId });
  expect(job.ok).toBe(true);
  // Let background work settle so nothing but the fuzz could change the state.
  await vi.waitFor(
    async () => {
      const refunds = (await read('refunds.list')) as { state: string }[];
      const runs = (await read('reconciliation.list')) as { runs: { progress: { state: string } }[] };
      expect(refunds.map((r) => r.state)).toEqual(['succeeded']);
      expect(runs.runs.map((j) => j.progress.state)).toEqual(['completed']);
    },
    { timeout: 15_000, interval: 50 },
  );
  await core.demoSandbox()!.ipnIdle();
  await core.profiles.ipnIdle();
}, 30_000);

afterAll(async () => {
  await core.close();
  reportFigures('ipc-channels', tally.rows(), { validInputsSkipped: skippedValid });
});

describe('every IPC channel under random and hostile payloads', () => {
  for (const channel of INVOKE_CHANNELS) {
    it(`${channel}: a typed envelope every time, no exception, no state change`, async () => {
      const schema = contract[channel].input;
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { arbitrary: mutate(VALID_SAMPLES[channel]), weight: 3 },
            { arbitrary: hostileValue, weight: 1 },
          ),
          async (payload) => {
            const valid = schema.safeParse(payload).success;
            if (valid && CREATES_WHEN_VALID.has(channel)) {
              skippedValid[channel] = (skippedValid[channel] ?? 0) + 1;
              return; // a well-formed create is not an attack; counted, not sent
            }
            const answer = await core.dispatch(channel, payload);
            const outcome = answer.ok ? 'ok' : answer.error.code;
            tally.add(channel, valid ? `${outcome} (schema-valid)` : outcome);
            expect(envelopeSchema.safeParse(answer).success, JSON.stringify(answer).slice(0, 300)).toBe(true);
            expect(outcome).not.toBe('internal');
            if (!valid) expect(outcome).toBe('invalid_input');
            // invalid_input echoes no values: its message and issue paths are capped.
            if (!answer.ok) expect(JSON.stringify(answer.error).length).toBeLessThan(6_000);
          },
        ),
        { seed: FUZZ_SEED + INVOKE_CHANNELS.indexOf(channel), numRuns: PER_CHANNEL },
      );
      expect(await snapshot()).toBe(before);
    });
  }

  it('text that hides (controls, bidi overrides) in any stored field is refused and creates nothing', async () => {
    const hiding = fc
      .record({
        before: fc.string({ maxLength: 10 }),
        char: fc.constantFrom(...HIDING_CHARACTERS),
        after: fc.string({ minLength: 1, maxLength: 10 }),
      })
      .map(({ before, char, after }) => `x${before}${char}${after}x`);
    const targets: [InvokeChannel, string][] = [
      ['profiles.save', 'name'],
      ['profiles.save', 'operatorName'],
      ['refunds.submit', 'reasonNote'],
      ['reconciliation.create', 'label'],
      ['payments.createCheckout', 'description'],
      ['payments.createCheckout', 'note'],
      ['payments.chargeMethod', 'note'],
    ];
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hiding, async ([channel, field], text) => {
        const payload = { ...(VALID_SAMPLES[channel] as object), [field]: text.slice(0, 40) };
        const answer = await core.dispatch(channel, payload);
        tally.add(`hidden text: ${channel}.${field}`, answer.ok ? 'ok' : answer.error.code);
        expect(answer).toMatchObject({
          ok: false,
          error: { code: 'invalid_input', message: expect.stringContaining('U+') },
        });
      }),
      { seed: FUZZ_SEED + 101, numRuns: fuzzRuns(120) },
    );
    expect(await snapshot()).toBe(before);
  });

  it('an unknown channel name is invalid_input, whatever it looks like', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constantFrom(
            '__proto__',
            'constructor',
            'toString',
            'app.info ',
            'APP.INFO',
            'refunds.submit\u0000',
          ),
        ),
        hostileValue,
        async (name, payload) => {
          fc.pre(!(INVOKE_CHANNELS as readonly string[]).includes(name));
          const answer = await core.dispatch(name, payload);
          tally.add('(unknown channel)', answer.ok ? 'ok' : answer.error.code);
          expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
        },
      ),
      { seed: FUZZ_SEED + 100, numRuns: fuzzRuns(100) },
    );
  });

  it('nothing reached Object.prototype and the core still works', async () => {
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await core.dispatch('app.health', undefined)).toMatchObject({ ok: true });
    const total = tally.total();
    expect(total).toBeGreaterThanOrEqual(INVOKE_CHANNELS.length * PER_CHANNEL * 0.8);
  });
});
