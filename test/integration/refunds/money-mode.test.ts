import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAccount, openCliCore } from '../../../electron/hosts/cli/core';
import { environmentOf } from '../../../electron/hosts/cli/connection';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { environmentOfUrl, moneyModeOf } from '../../../shared/domain/profile';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

/**
 * A Custom profile at a partner's https address is live money, whatever its label: the refund service
 * asks for the amount typed again, and the CLI classifies the same address the same way. The calls
 * themselves go to the sandbox (a partner's host cannot be reached from a test); what is checked is how
 * the address is classified, and that the service enforces it before anything is sent.
 */
const PARTNER = 'https://pay.partner.example.com';

let sandbox: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sandbox = await startRefundSandbox();
});
afterAll(() => sandbox.close());

const atService = (txNo: string) => sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === txNo);
const io: CliIo = { out() {}, err() {}, env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token } };

describe('a Custom profile at a non-loopback https address', () => {
  it('previews as live money, and a submit without the typed amount is refused before anything is sent', async () => {
    const { service, close } = buildRefunds(sandbox, undefined, { environment: 'custom', baseUrl: PARTNER });
    try {
      const p = freshPayment(sandbox, used);
      const preview = await service.preview('demo', p.transactionNo);
      expect(preview).toMatchObject({ environment: 'custom', moneyMode: 'live', baseUrl: PARTNER });
      const amount = { transactionNo: p.transactionNo, amountMinor: 100, currency: p.currency, ...reason };
      await expect(service.submit(amount)).rejects.toMatchObject({
        code: 'invalid_input',
        details: { requires: ['typed_amount'], moneyMoved: 'no' },
      });
      // A typed amount that is not the amount is no confirmation either.
      await expect(
        service.submit({ ...amount, confirmation: { typedAmount: '1.01' } }),
      ).rejects.toMatchObject({ code: 'invalid_input', details: { requires: ['typed_amount'] } });
      expect(atService(p.transactionNo)).toHaveLength(0);
      const sent = await service.submit({ ...amount, confirmation: { typedAmount: '1.00' } });
      expect(sent.state).toBe('accepted');
      expect(atService(p.transactionNo)).toHaveLength(1);
    } finally {
      close();
    }
  });

  it('a loopback custom address is live money until the person declares otherwise: the typed amount is asked for', async () => {
    // A tunnel or proxy to a production gateway is loopback too: the address alone cannot say.
    const { service, close } = buildRefunds(sandbox, undefined, {
      environment: 'custom',
      baseUrl: sandbox.baseUrl,
    });
    try {
      const p = freshPayment(sandbox, used);
      expect((await service.preview('demo', p.transactionNo)).moneyMode).toBe('live');
      const amount = { transactionNo: p.transactionNo, amountMinor: 100, currency: p.currency, ...reason };
      await expect(service.submit(amount)).rejects.toMatchObject({
        code: 'invalid_input',
        details: { requires: ['typed_amount'], moneyMoved: 'no' },
      });
      expect(atService(p.transactionNo)).toHaveLength(0);
    } finally {
      close();
    }
  });

  it('the same address declared a simulator on this computer needs no typed amount; a declaration never lowers a remote address', async () => {
    const { service, close } = buildRefunds(sandbox, undefined, {
      environment: 'custom',
      baseUrl: sandbox.baseUrl,
      loopbackMoneyMode: 'local',
    });
    try {
      const p = freshPayment(sandbox, used);
      expect((await service.preview('demo', p.transactionNo)).moneyMode).toBe('local');
      const sent = await service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
        ...reason,
      });
      expect(sent.state).toBe('accepted');
    } finally {
      close();
    }
    const remote = buildRefunds(sandbox, undefined, {
      environment: 'custom',
      baseUrl: PARTNER,
      loopbackMoneyMode: 'local',
    });
    try {
      const p = freshPayment(sandbox, used);
      expect((await remote.service.preview('demo', p.transactionNo)).moneyMode).toBe('live');
    } finally {
      remote.close();
    }
  });
});

describe('the CLI classifies that address as the app does', () => {
  it('--base-url at a partner address: a custom account whose refunds are live money', () => {
    const { profile } = cliAccount(
      { 'base-url': PARTNER, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
      io,
      mkdtempSync(join(tmpdir(), 'rd-cli-mode-')),
    );
    expect(profile).toMatchObject({ environment: 'custom', baseUrl: PARTNER });
    expect(moneyModeOf(profile.environment, profile.baseUrl)).toBe('live');
    // One rule, not two copies: the CLI's label is the app's function.
    expect(environmentOf).toBe(environmentOfUrl);
    expect(environmentOf('https://mapi.yuansfer.com')).toBe('production');
    expect(environmentOf('https://mapi.yuansferdev.com')).toBe('vendor-sandbox');
  });

  it('--profile naming a Custom profile at a partner address: the CLI’s app core sends its calls there, which is live money', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-cli-mode-'));
    const now = new Date().toISOString();
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({
        version: 1,
        activeProfileId: 'P-partner',
        profiles: [
          {
            id: 'P-partner',
            name: 'Partner gateway',
            merchantNo: DEMO_MERCHANT.merchantNo,
            storeNo: DEMO_MERCHANT.storeNo,
            environment: 'custom',
            baseUrl: PARTNER,
            ipnEnabled: false,
            createdAt: now,
            updatedAt: now,
          },
        ],
      }),
    );
    const account = cliAccount({ profile: 'Partner gateway' }, io, dataDir);
    expect(account.profile).toMatchObject({ id: 'P-partner', environment: 'custom', baseUrl: PARTNER });
    const core = await openCliCore({ dataDir, io, account });
    try {
      // The address the core's calls go to is the one the app's rule classifies (the refund command
      // reports exactly this money mode).
      const base = core.profiles.profiles.effectiveBaseUrl('P-partner');
      expect(base).toBe(PARTNER);
      expect(moneyModeOf(account.profile.environment, base)).toBe('live');
    } finally {
      await core.close();
    }
  });
});
