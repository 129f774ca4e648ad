import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCsv, type CsvColumn } from '../../shared/csv/writer';
import { computeVerifySign } from '../../shared/protocol/signing';
import { openJsonlFile } from '../../electron/main/adapters/jsonl-file';
import { generateSeed } from '../../electron/main/sandbox/index';
import { type Figure, ms, perSec, time } from './harness';

/** CPU-bound core figures: signing, seeding, CSV writing, durable journal appends. */
export async function coreBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const params = {
    merchantNo: '200043',
    storeNo: '300014',
    transactionNo: '297553638300708562',
    amount: '10.00',
    currency: 'USD',
  };
  const n = 100_000;
  const sign = await time(() => {
    for (let i = 0; i < n; i += 1) computeVerifySign({ ...params, reference: `r${i}` }, 'token');
  });
  figures.push({
    bench: 'signing',
    metric: 'verifySign',
    value: perSec(n, sign.ms),
    note: `${n.toLocaleString('en-US')} signatures`,
  });

  for (const count of [2_000, 100_000]) {
    const seed = await time(() => generateSeed(42, count, Date.UTC(2026, 10, 1)));
    figures.push({
      bench: 'sandbox seed',
      metric: `${count.toLocaleString('en-US')} payments`,
      value: ms(seed.ms),
    });
  }

  const rows = generateSeed(42, 100_000, Date.UTC(2026, 10, 1)).payments;
  const cols: CsvColumn<(typeof rows)[number]>[] = [
    { header: 'transactionNo', kind: 'id', value: (r) => r.transactionNo },
    { header: 'reference', kind: 'id', value: (r) => r.reference },
    { header: 'amount', kind: 'amount', value: (r) => String(r.amountMinor) },
    { header: 'currency', kind: 'text', value: (r) => r.currency },
    { header: 'status', kind: 'text', value: (r) => r.status },
  ];
  const csv = await time(() => writeCsv(cols, rows));
  figures.push({
    bench: 'csv writer',
    metric: '100,000 rows',
    value: ms(csv.ms),
    note: `${(csv.value.length / 1e6).toFixed(1)} MB`,
  });

  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-'));
  const file = openJsonlFile<{ i: number }>(join(dir, 'j.jsonl'));
  const appends = 500;
  const j = await time(() => {
    for (let i = 0; i < appends; i += 1) file.append({ i });
  });
  file.close();
  rmSync(dir, { recursive: true, force: true });
  figures.push({
    bench: 'journal',
    metric: 'append + fsync',
    value: ms(j.ms / appends),
    note: `mean of ${appends}`,
  });
  return figures;
}
