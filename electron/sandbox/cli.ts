/**
 * Standalone sandbox: `npm run sandbox -- --port 8787 --seed 7 [--data state.json] [--transactions 5000]`.
 * Prints `Sandbox listening on <url>` once ready, then the admin secret. SIGINT/SIGTERM close cleanly
 * (pending state is flushed to --data).
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ENDPOINTS, type EndpointFaults, type EndpointName, type FaultConfig } from './faults';
import { startSandbox } from './index';

const USAGE = `Usage: npm run sandbox -- [options]
  --port <n>                 port (default 0 = any free port)
  --host <addr>              bind address (default 127.0.0.1)
  --seed <n>                 data seed (default 42)
  --transactions <n>         seeded payments when no data file exists (default 2000, up to 100000)
  --data <file>              persist state to this file and load it on start
  --admin-secret <s>         x-sandbox-admin value (default random, printed)
  --refund-settle-ms <n>     time a refund stays pending (default 5000)
  --refund-fail-rate <r>     share of refunds settling failed, 0..1
  --ipn-schedule <ms,ms,..>  gaps between IPN attempts
  --ipn-delay-ms <n>         delay before the first IPN attempt
  --ipn-fail-rate <r>        share of IPN attempts failed on purpose
  --latency-ms <n>  --http5xx-rate <r>  --system-error-rate <r>  --upstream-error-rate <r>
  --malformed-json-rate <r>  --drop-after-rate <r>
                             faults for every endpoint
  --fault <endpoint>.<knob>=<value>   one endpoint, repeatable, e.g. --fault refund.dropAfterRate=1
                             endpoints: ${ENDPOINTS.join(', ')}
  --quiet                    no per-request log lines`;

const KNOBS: Record<string, keyof EndpointFaults> = {
  'latency-ms': 'latencyMs',
  'http5xx-rate': 'http5xxRate',
  'system-error-rate': 'systemErrorRate',
  'upstream-error-rate': 'upstreamErrorRate',
  'malformed-json-rate': 'malformedJsonRate',
  'drop-after-rate': 'dropAfterRate',
};
const KNOB_NAMES: readonly string[] = Object.values(KNOBS);

function num(
  name: string,
  text: string | undefined,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new Error(`--${name} must be a number between ${min} and ${max}`);
  return n;
}

/** Parses argv into startSandbox options (exported for tests). */
export function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      transactions: { type: 'string' },
      data: { type: 'string' },
      'admin-secret': { type: 'string' },
      'refund-settle-ms': { type: 'string' },
      'refund-fail-rate': { type: 'string' },
      'ipn-schedule': { type: 'string' },
      'ipn-delay-ms': { type: 'string' },
      'ipn-fail-rate': { type: 'string' },
      fault: { type: 'string', multiple: true },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
      ...Object.fromEntries(Object.keys(KNOBS).map((k) => [k, { type: 'string' as const }])),
    },
  });
  const all: Partial<EndpointFaults> = {};
  for (const [flag, knob] of Object.entries(KNOBS)) {
    const v = num(
      flag,
      (values as Record<string, string | boolean | string[] | undefined>)[flag] as string | undefined,
      0,
      knob === 'latencyMs' ? 600_000 : 1,
    );
    if (v !== undefined) all[knob] = v;
  }
  const endpoints: FaultConfig['endpoints'] = {};
  for (const spec of values.fault ?? []) {
    const m = /^([a-z-]+)\.([A-Za-z0-9]+)=(.+)$/.exec(spec);
    const endpoint = m?.[1] as EndpointName | undefined;
    if (!m || !endpoint || !ENDPOINTS.includes(endpoint) || !KNOB_NAMES.includes(m[2] ?? ''))
      throw new Error(`bad --fault ${spec}`);
    const knob = m[2] as keyof EndpointFaults;
    endpoints[endpoint] = {
      ...endpoints[endpoint],
      [knob]: num('fault', m[3], 0, knob === 'latencyMs' ? 600_000 : 1),
    };
  }
  const schedule = values['ipn-schedule']?.split(',').map((s) => num('ipn-schedule', s.trim()) ?? 0);
  const ipnDelayMs = num('ipn-delay-ms', values['ipn-delay-ms']);
  const ipnFailRate = num('ipn-fail-rate', values['ipn-fail-rate'], 0, 1);
  return {
    help: values.help === true,
    quiet: values.quiet === true,
    options: {
      port: num('port', values.port, 0, 65_535) ?? 0,
      ...(values.host ? { host: values.host } : {}),
      seed: num('seed', values.seed, 0, 2 ** 32 - 1) ?? 42,
      transactions: num('transactions', values.transactions, 0, 1_000_000) ?? 2000,
      ...(values.data ? { dataFile: values.data } : {}),
      ...(values['admin-secret'] ? { adminSecret: values['admin-secret'] } : {}),
      ...(values['refund-settle-ms']
        ? { refundSettleMs: num('refund-settle-ms', values['refund-settle-ms']) }
        : {}),
      ...(values['refund-fail-rate']
        ? { refundFailRate: num('refund-fail-rate', values['refund-fail-rate'], 0, 1) }
        : {}),
      ...(schedule ? { ipnSchedule: schedule } : {}),
      faults: {
        all,
        endpoints,
        ...(ipnDelayMs !== undefined ? { ipnDelayMs } : {}),
        ...(ipnFailRate !== undefined ? { ipnFailRate } : {}),
      },
    },
  };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCli>;
  try {
    parsed = parseCli(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(USAGE);
    return;
  }
  const started = Date.now();
  const sandbox = await startSandbox({
    ...parsed.options,
    log: parsed.quiet ? () => undefined : (line) => console.log(line),
  });
  console.log(`Sandbox listening on ${sandbox.baseUrl}`);
  console.log(`Admin secret (header x-sandbox-admin): ${sandbox.adminSecret}`);
  console.log(
    `Default merchant: merchantNo ${sandbox.merchants[0]?.merchantNo ?? ''}, storeNo ${sandbox.merchants[0]?.storeNos[0] ?? ''} (vendor demo token); started in ${Date.now() - started} ms`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`close failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

// Run only as a script (tsx electron/sandbox/cli.ts), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
