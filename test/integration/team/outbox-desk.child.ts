/**
 * A desk in its own process, for test/integration/team/outbox.test.ts: the CLI's app core on the team
 * database (REFUND_DESK_DATABASE_URL) and the data folder OUTBOX_DATA_DIR, against the sandbox at
 * OUTBOX_BASE_URL. It refunds 1.00 USD of OUTBOX_TX, prints the result and the desk's health as one JSON
 * line, then stays up (doing nothing) until it is killed.
 */
import { contract } from '../../../shared/ipc/contract';
import { cliAccount, invoke, openCliCore } from '../../../electron/hosts/cli/core';
import { databaseFrom } from '../../../electron/hosts/cli/database';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { DEMO_MERCHANT } from '../../../electron/sandbox/index';

const env = process.env as Record<string, string>;
const io: CliIo = {
  out: (l) => void process.stdout.write(`${l}\n`),
  err: (l) => void process.stderr.write(`${l}\n`),
  env: { ...env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
};
const dataDir = env['OUTBOX_DATA_DIR']!;
const account = cliAccount(
  { 'base-url': env['OUTBOX_BASE_URL']!, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
  io,
  dataDir,
);
const core = await openCliCore({ dataDir, io, account, database: databaseFrom({}, io) });
const result = await invoke(
  core,
  'refunds.submit',
  {
    profileId: account.profile.id,
    transactionNo: env['OUTBOX_TX']!,
    amountMinor: 100,
    currency: 'USD',
    reasonCode: 'other',
    reasonNote: 'outbox test',
    confirmation: { typedAmount: '1.00' },
  },
  contract['refunds.submit'].output,
).then(
  (intent) => ({ ok: true as const, intent }),
  (e: unknown) => ({ ok: false as const, error: e instanceof Error ? e.message : String(e) }),
);
const health = await invoke(core, 'app.health', undefined, contract['app.health'].output);
io.out(JSON.stringify({ result, health: health.checks }));
// Killed by the test (SIGKILL): nothing here closes the core.
setInterval(() => undefined, 60_000);
