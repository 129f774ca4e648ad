import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCsv, type CsvColumn } from '../../shared/csv/writer';
import { computeVerifySign } from '../../shared/protocol/signing';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../electron/core/adapters/sqlite/intent-store';
import { refundStoreOn } from '../../electron/core/services/refunds/store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import { generateSeed } from '../../electron/sandbox/index';
import { localDayBounds } from '../../electron/core/services/refunds/service';
import { type Figure, ms, pct, perSec, sample, time } from './harness';

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

  // A refund decision as the service makes it (its payment's refunds, the day's total, the intent and
  // its event, committed): durable (fsync, what a refund waits for) and without fsync — the database
  // and code alone, which a disk shared with other work does not blur.
  for (const durable of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), 'rd-bench-'));
    const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
    if (!durable) db.run('PRAGMA synchronous = OFF');
    const store = refundStoreOn(createSqliteIntentStore(db, { now: Date.now }));
    const decisions = 500;
    const at = new Date().toISOString();
    const day = localDayBounds(Date.now());
    const account = { environment: 'demo' as const, baseUrl: '', merchantNo: '200043', storeNo: '300014' };
    const took = await sample(decisions, async (i) => {
      const transactionNo = String(100000000000000000n + BigInt(i));
      await store.decide({ account, transactionNo, currency: 'USD' }, async (tx) => {
        await tx.forPayment('200043', '300014', transactionNo);
        await tx.dayTotal('200043', '300014', 'USD', day.from, day.to);
        await tx.insertSending(
          {
            id: `RDBENCH${i}`,
            profileId: 'p',
            profileName: 'P',
            environment: 'demo',
            baseUrl: '',
            merchantNo: '200043',
            storeNo: '300014',
            transactionNo,
            amountMinor: 100,
            currency: 'USD',
            settleCurrency: 'USD',
            reasonCode: 'other',
            reasonNote: '',
            operator: 'bench',
            createdAt: at,
          },
          { holder: 'bench:1', ms: 15_000 },
          at,
        );
      });
    });
    db.close();
    rmSync(dir, { recursive: true, force: true });
    const mean = took.reduce((a, b) => a + b, 0) / took.length;
    figures.push({
      bench: 'refund decision',
      metric: durable ? 'BEGIN IMMEDIATE … COMMIT (fsync)' : 'the same, synchronous=OFF (no fsync)',
      value: ms(pct(took, 50)),
      note: `median of ${decisions}; p90 ${ms(pct(took, 90))}, mean ${ms(mean)}`,
    });
  }
  return figures;
}
