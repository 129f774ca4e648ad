/**
 * Reconciliation at month-end scale: a 100k-row ledger (CSV bytes) parsed, mapped and matched against
 * in-memory answers — the pure work the renderer worker and the CLI do. Network time is not included
 * (see the service bench for query throughput). Run alone: `npx tsx test/bench/recon.bench.ts`.
 */
import { parseCsvBytes } from '../../shared/csv/parser';
import { formatMinor } from '../../shared/domain/money';
import type { Transaction } from '../../shared/domain/transaction';
import { toLedgerRows } from '../../shared/recon/ledger';
import { guessMapping } from '../../shared/recon/mapping';
import { matchLedger, type ServiceLookup } from '../../shared/recon/match';
import { summarise } from '../../shared/recon/summary';
import { type Figure, ms, perSec, printTable, time } from './harness';

const ROWS = 100_000;
const CURRENCIES = ['USD', 'CNY', 'JPY', 'GBP'];

export async function reconBench(): Promise<Figure[]> {
  const lines = ['Date,Order ID,Transaction No,Amount,Currency,Status'];
  const answers = new Map<string, ServiceLookup>();
  for (let i = 0; i < ROWS; i += 1) {
    const no = `2975536383${String(i).padStart(8, '0')}`;
    const currency = CURRENCIES[i % CURRENCIES.length] ?? 'USD';
    const amountMinor = 100 + ((i * 7919) % 500_000);
    lines.push(
      `2025-06-${String((i % 28) + 1).padStart(2, '0')},SO-${i},${no},${formatMinor(amountMinor, currency)},${currency},Paid`,
    );
    const tx: Transaction = {
      transactionNo: no,
      amountMinor: i % 97 === 0 ? amountMinor + 1 : amountMinor,
      currency,
      status: 'success',
      transactionType: 'payment',
      refunds: [],
    };
    answers.set(`tx:${no}`, i % 501 === 0 ? { kind: 'not_found' } : { kind: 'found', transaction: tx });
  }
  const bytes = new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
  const parse = await time(() => parseCsvBytes(bytes));
  const map = await time(() => toLedgerRows(parse.value, guessMapping(parse.value.headers)));
  const fmt = (m: number, c: string) => `${formatMinor(m, c)} ${c}`;
  const match = await time(() => matchLedger(map.value.rows, (k) => answers.get(k), fmt));
  const sum = await time(() => summarise(match.value));
  const total = parse.ms + map.ms + match.ms + sum.ms;
  const mb = (bytes.length / 1e6).toFixed(1);
  return [
    {
      bench: 'recon 100k',
      metric: 'parse (decode + papaparse)',
      value: ms(parse.ms),
      note: `${mb} MB, ${perSec(ROWS, parse.ms)}`,
    },
    {
      bench: 'recon 100k',
      metric: 'map to ledger rows',
      value: ms(map.ms),
      note: `${map.value.rows.length} rows, ${map.value.problems.length} problems`,
    },
    {
      bench: 'recon 100k',
      metric: 'match',
      value: ms(match.ms),
      note: `${match.value.filter((i) => i.outcome !== 'matched').length} exceptions`,
    },
    { bench: 'recon 100k', metric: 'summarise', value: ms(sum.ms) },
    { bench: 'recon 100k', metric: 'parse + map + match + summary', value: ms(total) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void reconBench().then(printTable);
}
