import { execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runReconcile } from '../../../electron/hosts/cli/commands/reconcile';
import { readLedgerFile } from '../../../electron/hosts/cli/ledger-file';
import { parseCsvBytes } from '../../../shared/csv/parser';
import { RECON_MAX_BYTES, RECON_MAX_COLUMNS, RECON_MAX_ROWS } from '../../../shared/recon/limits';

/**
 * `cli reconcile` holds a ledger to the app's limits — 128 MB, 250,000 rows, 1,000 columns — before it
 * reads the file whole, with the "bad input" exit code and a message of bounded length. The files are
 * made in a temp dir; the big ones run in a child whose heap is far smaller than the file, so a CLI that
 * read one whole would crash instead of answering.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
/** A heap the CLI starts in, and that a 128 MB ledger (or 300,000 parsed rows) does not fit in. */
const SMALL_HEAP_MB = 64;
/** Well above any message the CLI means to print, far below a header echoed whole. */
const MESSAGE_MAX = 3_000;

const row = (i: number) => `${297553638300000000n + BigInt(i)},1.00,USD\n`;
const HEADER = 'Transaction No,Amount,Currency\n';

let dir: string;
let service: Server;
let serviceUrl: string;
let requests = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rd-recon-limits-'));
  // Stands in for the payment service: counts what reaches it (nothing should), answers "unavailable".
  service = createServer((req, res) => {
    requests += 1;
    res.writeHead(503).end();
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => service.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const args = (ledger: string, out: string) => [
  'reconcile',
  ledger,
  '--base-url',
  serviceUrl,
  '--merchant',
  '200043',
  '--store',
  '300014',
  '--out',
  out,
  '--quiet',
];

/** The CLI as scripts run it, in a child with a small heap: its exit code and output. */
function cliWithSmallHeap(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${SMALL_HEAP_MB}`, '--import', 'tsx', 'electron/hosts/cli/index.ts', ...argv],
      {
        cwd: ROOT,
        env: { ...process.env, REFUND_DESK_API_TOKEN: 'token-for-limits-test' },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => done({ code: error ? (error.code as number | null) : 0, stdout, stderr }),
    );
  });
}

/** In this process, for the files that are small anyway. */
async function cli(argv: string[]) {
  const err: string[] = [];
  const out: string[] = [];
  const code = await runReconcile(argv.slice(1), {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { REFUND_DESK_API_TOKEN: 'token-for-limits-test' },
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('cli reconcile: the app’s limits, checked before the ledger is read whole', () => {
  it('a ledger over 128 MB is refused from its size alone: exit 2, a short message, nothing read or sent', async () => {
    // Real CSV rows (repeated writes of one block), so reading it whole means parsing millions of rows.
    const ledger = join(dir, 'huge.csv');
    const block = Buffer.from(Array.from({ length: 20_000 }, (_, i) => row(i)).join(''));
    const fd = openSync(ledger, 'w');
    writeSync(fd, HEADER);
    for (let size = HEADER.length; size <= RECON_MAX_BYTES; size += block.length) writeSync(fd, block);
    ftruncateSync(fd, RECON_MAX_BYTES + 1);
    closeSync(fd);
    const out = join(dir, 'huge-report.csv');

    const r = await cliWithSmallHeap(args(ledger, out));
    rmSync(ledger);
    expect(r.stderr).toContain(
      `huge.csv: The file is ${(RECON_MAX_BYTES + 1).toLocaleString('en-US')} bytes`,
    );
    expect(r.stderr).toContain('a reconciliation takes a ledger of at most 128 MB (and 250,000 rows)');
    expect(r.stderr).toContain('Nothing was checked.');
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr.length).toBeLessThan(MESSAGE_MAX);
    expect(existsSync(out)).toBe(false);
    expect(requests).toBe(0);
  }, 60_000);

  it('300,000 rows are refused at row 250,001 as the app refuses them: exit 2, nothing sent', async () => {
    const ledger = join(dir, 'rows.csv');
    writeFileSync(ledger, HEADER + Array.from({ length: 300_000 }, (_, i) => row(i)).join(''));
    const out = join(dir, 'rows-report.csv');

    const r = await cliWithSmallHeap(args(ledger, out));
    expect(r.stderr).toContain(
      `rows.csv: The file has more than 250,000 data rows (row 250,001 is on line 250,002); a reconciliation takes at most 250,000.`,
    );
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr.length).toBeLessThan(MESSAGE_MAX);
    expect(existsSync(out)).toBe(false);
    expect(requests).toBe(0);
  }, 60_000);

  it('exactly 250,000 rows are within the limit; one more is not (counted as the parser counts, blank lines not)', async () => {
    const ledger = join(dir, 'edge.csv');
    const rows = Array.from({ length: RECON_MAX_ROWS }, (_, i) =>
      i === 7 ? `"${row(i).trim()}"\n\n , ,\n` : row(i),
    );
    writeFileSync(ledger, `\uFEFF${HEADER.replace('\n', '\r\n')}${rows.join('')}`);
    const within = await readLedgerFile(ledger);
    // The parser reads the same count from the same bytes.
    expect('bytes' in within && parseCsvBytes(within.bytes).dataRows).toBe(RECON_MAX_ROWS);
    expect('bytes' in within && within.bytes.length).toBe(
      Buffer.byteLength(`\uFEFF${HEADER}`) + 1 + rows.join('').length,
    );

    writeFileSync(ledger, `${HEADER}${rows.join('')}${row(RECON_MAX_ROWS)}`);
    expect(await readLedgerFile(ledger)).toEqual({
      problem: expect.stringContaining('more than 250,000 data rows (row 250,001 is on line 250,004)'),
    });
  });

  it('a header of a million columns: exit 2 with a message of a few lines, not the header', async () => {
    const ledger = join(dir, 'wide.csv');
    const columns = Array.from({ length: 1_000_000 }, (_, i) => `column${i}`);
    writeFileSync(ledger, `${columns.join(',')}\n${columns.map(() => '1').join(',')}\n`);
    const r = await cli(args(ledger, join(dir, 'wide-report.csv')));
    expect(r.stderr).toContain(
      `Line 1 has 1,000,000 columns; a ledger may have at most ${RECON_MAX_COLUMNS.toLocaleString('en-US')}.`,
    );
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr.length).toBeLessThan(MESSAGE_MAX);
    expect(requests).toBe(0);
  });

  it('a header name of 5 MB is never echoed whole, whatever the message', async () => {
    const name = 'x'.repeat(5_000_000);
    const unmappable = join(dir, 'unmappable.csv');
    writeFileSync(unmappable, `Txn,${name}\n1,2\n`);
    const headerOnly = join(dir, 'header-only.csv');
    writeFileSync(headerOnly, `${name},Amount\n`);
    for (const [ledger, says] of [
      [unmappable, 'The columns could not be mapped'],
      [headerOnly, 'but no data rows'],
    ] as const) {
      const r = await cli(args(ledger, join(dir, 'report.csv')));
      expect(r.stderr).toContain(says);
      expect(r.code).toBe(EXIT.badInput);
      expect(r.stderr.length, says).toBeLessThan(MESSAGE_MAX);
    }
    expect(requests).toBe(0);
  });

  it('an .xlsx is held to the same limits: its size, what it unpacks to, its columns — exit 2, nothing sent', async () => {
    // Over 128 MB: refused from its size, before a byte of the workbook is read.
    const huge = join(dir, 'huge.xlsx');
    const fd = openSync(huge, 'w');
    writeSync(fd, Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    ftruncateSync(fd, RECON_MAX_BYTES + 1);
    closeSync(fd);
    const big = await cliWithSmallHeap(args(huge, join(dir, 'r.csv')));
    rmSync(huge);
    expect(big.stderr).toContain(
      `huge.xlsx: The file is ${(RECON_MAX_BYTES + 1).toLocaleString('en-US')} bytes`,
    );
    expect(big.code).toBe(EXIT.badInput);
    // A workbook whose directory claims gigabytes: refused from the directory, never unpacked.
    const { zipSync } = await import('fflate');
    const bomb = join(dir, 'bomb.xlsx');
    writeFileSync(
      bomb,
      zipSync(
        {
          'xl/workbook.xml': new TextEncoder().encode('<workbook/>'),
          'xl/worksheets/sheet1.xml': new Uint8Array(700 * 1024 * 1024),
        },
        { level: 9 },
      ),
    );
    const unpacks = await cli(args(bomb, join(dir, 'r.csv')));
    expect(unpacks.stderr).toContain('This workbook unpacks to 700 MB');
    expect(unpacks.code).toBe(EXIT.badInput);
    // A row of 1,001 columns: the CSV's message and exit code.
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Ledger');
    ws.addRow(Array.from({ length: RECON_MAX_COLUMNS + 1 }, (_, i) => `c${i}`));
    ws.addRow(['1', '1.00', 'USD']);
    const wide = join(dir, 'wide.xlsx');
    writeFileSync(wide, new Uint8Array(await wb.xlsx.writeBuffer()));
    const r = await cli(args(wide, join(dir, 'r.csv')));
    expect(r.stderr).toContain(
      `Line 1 has ${(RECON_MAX_COLUMNS + 1).toLocaleString('en-US')} columns; a ledger may have at most`,
    );
    expect(r.code).toBe(EXIT.badInput);
    expect(requests).toBe(0);
  }, 60_000);
});
