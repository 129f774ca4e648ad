import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readProfiles } from '../../../electron/hosts/cli/core';

it('the CLI reads a profile whose refund limit is in a currency this version does not handle, as the app does: the limit is left out, the profile kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-cli-profiles-'));
  const at = '2026-11-01T00:00:00.000Z';
  const profile = (name: string, currency: string) => ({
    id: `P-${name}`,
    name,
    merchantNo: '200043',
    storeNo: '300014',
    environment: 'custom',
    baseUrl: 'https://pay.partner.example.com',
    ipnEnabled: false,
    guardrails: { limits: [{ currency, maxSingleMinor: 10_000 }] },
    createdAt: at,
    updatedAt: at,
  });
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({
      version: 1,
      activeProfileId: null,
      profiles: [profile('Old', 'ZAR'), profile('New', 'USD')],
    }),
  );
  const read = readProfiles(dir);
  expect(read.map((p) => p.name)).toEqual(['Old', 'New']);
  expect(read[0]?.guardrails?.limits).toEqual([]);
  expect(read[1]?.guardrails?.limits).toEqual([{ currency: 'USD', maxSingleMinor: 10_000 }]);
});
