/**
 * A process of the contract suite: opens the store at argv's location through the factory module named
 * on argv, and runs one scenario. Another PROCESS, so exclusivity and atomicity are tested across them.
 */
import type { StoreFactory } from './store.contract';
import { payment, record } from './records';

const [modulePath, location, scenario, arg] = process.argv.slice(2) as [string, string, string, string];
const factory = ((await import(modulePath)) as { default: StoreFactory }).default;
const { store } = await factory.open(location);

if (scenario === 'race') {
  // Read-check-insert under one scope, many times: at most one open refund per payment may result.
  const n = Number(arg);
  let inserted = 0;
  for (let i = 0; i < n; i += 1) {
    const key = payment(`9${String(i).padStart(17, '0')}`);
    const ok = await store
      .decide([{ payment: key }], async (tx) => {
        const open = (await tx.forPayment('refund', key)).filter((r) => r.state === 'sending');
        if (open.length > 0) return false;
        await tx.insert(
          record(`R${process.pid}x${i}`, key.transactionNo),
          { holder: `p${process.pid}`, ms: 60_000 },
          {
            at: new Date().toISOString(),
            type: 'decided',
          },
        );
        return true;
      })
      .catch(() => false);
    if (ok) inserted += 1;
  }
  process.stdout.write(`${inserted}\n`);
  process.exit(0);
}

if (scenario === 'hang-before-audit') {
  // Transition, then stop (the parent kills -9 here) before the audit of the same unit of work.
  await store.decide([{ payment: payment('1') }], async (tx) => {
    await tx.transition({
      id: arg,
      from: ['sending'],
      to: 'outcome_unknown',
      patch: {},
      event: { at: 't', type: 'x' },
    });
    process.stdout.write('transitioned\n');
    // Busy-wait: only the kill ends this unit of work (no await, so nothing else can run either).
    for (;;) {
      /* killed here */
    }
  });
}
