/**
 * One desk of the multi-desk race (race.test.ts), in a process of its own: the app core as the browser
 * host (background work on: resume, sweep expired leases, follow) or the CLI (none) builds it, its journal
 * in the team database, its own files in a data directory it shares with other desks. The parent drives
 * it over the IPC channel:
 *   → `arm` {transactionNo, amountMinor}  ← `armed`      (every desk armed: the barrier)
 *   → `go`                                ← `result` {outcome: intent state, or error code and why}
 *   → `check` {ids}                       ← `checked`    (Check again on each, as a person would)
 * and says `ready` once its core is open.
 */
import { createEnvSecretStore } from '../../../electron/core/adapters/node-secret-stores';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { formatMinor } from '../../../shared/domain/money';

export interface RaceDeskConfig {
  host: 'browser' | 'cli';
  dataDir: string;
  /** The person's login URL (their own PostgreSQL role). */
  databaseUrl: string;
  deskId: string;
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
  token: string;
  leaseMs: number;
}

export const RACE_PROFILE = 'P-race';

type Command =
  | { type: 'arm'; transactionNo: string; amountMinor: number }
  | { type: 'go' }
  | { type: 'check'; ids: string[] };

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2]!) as RaceDeskConfig;
  const at = new Date().toISOString();
  // Settings in memory, as the CLI keeps them: several processes share the data directory.
  let doc: Record<string, unknown> = {
    version: 1,
    activeProfileId: RACE_PROFILE,
    profiles: [
      {
        id: RACE_PROFILE,
        name: 'Race desk',
        merchantNo: cfg.merchantNo,
        storeNo: cfg.storeNo,
        environment: 'custom',
        baseUrl: cfg.baseUrl,
        ipnEnabled: false,
        createdAt: at,
        updatedAt: at,
      },
    ],
  };
  const core = await createNodeCore({
    host: cfg.host,
    dataDir: cfg.dataDir,
    demo: false,
    background: cfg.host === 'browser',
    settings: { read: () => doc, write: (next) => void (doc = next), quarantine: () => undefined },
    secrets: createEnvSecretStore({ REFUND_DESK_API_TOKEN: cfg.token }),
    team: { url: cfg.databaseUrl, deskId: cfg.deskId },
    teamHeartbeatMs: 300,
    leaseMs: cfg.leaseMs,
  });
  let armed: Extract<Command, { type: 'arm' }> | undefined;
  process.on('message', (m: Command) => {
    if (m.type === 'arm') {
      armed = m;
      process.send!({ type: 'armed' });
    } else if (m.type === 'go' && armed) {
      const { transactionNo, amountMinor } = armed;
      armed = undefined;
      void core
        .dispatch('refunds.submit', {
          profileId: RACE_PROFILE,
          transactionNo,
          amountMinor,
          currency: 'USD',
          reasonCode: 'other',
          reasonNote: 'race',
          confirmation: { overLimit: true, typedAmount: formatMinor(amountMinor, 'USD') },
        })
        .then((r) => {
          // A refusal says why: another refund of the payment is open, or not that much is left.
          const why = r.ok
            ? ''
            : r.error.details?.['remainingMinor'] !== undefined
              ? ':remaining'
              : r.error.details?.['intentId'] !== undefined
                ? ':open'
                : '';
          process.send!({
            type: 'result',
            outcome: r.ok ? (r.value as { state: string }).state : `${r.error.code}${why}`,
          });
        });
    } else if (m.type === 'check') {
      void (async () => {
        for (const id of m.ids) await core.dispatch('refunds.checkAgain', { profileId: RACE_PROFILE, id });
        process.send!({ type: 'checked' });
      })();
    }
  });
  process.send!({ type: 'ready' });
}

main().catch((e: unknown) => {
  process.stderr.write(`race desk could not start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
