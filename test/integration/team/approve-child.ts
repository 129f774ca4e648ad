/**
 * An approver's desk in its own PROCESS (approver-lease.test.ts): opens a team desk as the person in
 * argv, approves and sends one request through the core's channel, and prints the outcome. The parent
 * holds the refund at the sandbox and kills this process with SIGKILL mid-send.
 */
import { openTeamDesk } from '../../support/team-desk';

const [url, deskId, baseUrl, id, leaseMs] = process.argv.slice(2) as [string, string, string, string, string];
const desk = await openTeamDesk({
  url,
  deskId,
  sandbox: { baseUrl },
  leaseMs: Number(leaseMs),
  // The parent holds the request out for several leases: the gateway must not give up on it first.
  gatewayTimeoutMs: 120_000,
});
const sent = await desk.call<{ state: string }>('approvals.approveAndSend', {
  profileId: desk.profileId,
  id,
  confirmation: {},
});
process.stdout.write(`${sent.state}\n`);
await desk.close();
process.exit(0);
