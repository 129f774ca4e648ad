/** Writes resources/demo-ledger.csv (run: npx tsx electron/hosts/cli/tools/make-demo-ledger.ts). */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDemoLedger } from '../../../core/demo-ledger';

const ledger = buildDemoLedger();
const path = resolve(import.meta.dirname, '../../../../resources/demo-ledger.csv');
writeFileSync(path, ledger.csv);
process.stdout.write(
  `${path}: ${ledger.rows} data rows (${ledger.badLines.length} unreadable), period ${ledger.period.from} to ${ledger.period.to}\n${JSON.stringify(ledger.expected)}\n`,
);
