// Sums vitest's and Playwright's JSON reports into the one line CI reads: "N passed, N failed".
// npm test stops at the first failing stage; a failure before any suite ran (typecheck, lint)
// counts as one failed check so a red run can never print "0 failed".
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 1);
let passed = 0;
let failed = 0;
let skipped = 0;
const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined);

const vitest = read('reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  console.log(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
}
const e2e = read('reports/e2e.json');
if (e2e) {
  const s = e2e.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  console.log(
    `playwright: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${s.unexpected ?? 0} failed, ${s.skipped ?? 0} skipped`,
  );
}
if (status !== 0 && failed === 0) failed = 1;
if (skipped) console.log(`${skipped} skipped (not counted below)`);
// The last line is exactly "N passed, N failed": what CI reads.
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
