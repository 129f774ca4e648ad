/**
 * Whole-ledger reconciliation in one call: bytes → parse → mapping → ledger rows → batch queries →
 * match → summary. The CLI uses it directly; the app runs the same steps split between the renderer
 * (parse, map, match) and main (queries).
 */
import { parseCsvBytes, type CsvProblem, type ParsedCsv } from '../../../../shared/csv/parser';
import { formatMinor } from '../../../../shared/domain/money';
import { toLedgerRows, type LedgerRow } from '../../../../shared/recon/ledger';
import { chooseMapping, mappingIssues, type ColumnMapping } from '../../../../shared/recon/mapping';
import {
  ledgerKeys,
  lookupKey,
  matchLedger,
  type ReconItem,
  type ServiceLookup,
} from '../../../../shared/recon/match';
import { summarise, type ReconSummary } from '../../../../shared/recon/summary';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';
import { type RunProgress, startRunner } from './runner';

export interface PreparedLedger {
  parsed: ParsedCsv;
  mapping: ColumnMapping;
  rows: LedgerRow[];
  problems: CsvProblem[];
}

/** Thrown for a file that cannot be reconciled at all (unreadable, no header, unusable mapping). */
export class LedgerInputError extends Error {
  override name = 'LedgerInputError';
}

/** Parses and maps a ledger file. `mapping` overrides the guess; problems are row-level only. */
export function prepareLedger(bytes: Uint8Array, mapping?: ColumnMapping): PreparedLedger {
  const parsed = parseCsvBytes(bytes);
  if (parsed.headers.length === 0) throw new LedgerInputError('The file is empty: it has no header row.');
  const chosen = mapping ?? chooseMapping(parsed.headers);
  const issues = mappingIssues(chosen, parsed.headers);
  if (issues.length > 0)
    throw new LedgerInputError(
      `The columns could not be mapped: ${issues.join(' ')} Columns found: ${parsed.headers.join(', ')}.`,
    );
  const imported = toLedgerRows(parsed, chosen);
  return {
    parsed,
    mapping: chosen,
    rows: imported.rows,
    problems: [...parsed.problems, ...imported.problems].sort((a, b) => a.line - b.line),
  };
}

/** Amounts inside detail sentences: "12.30 USD". */
export const detailAmount = (amountMinor: number, currency: string) =>
  `${formatMinor(amountMinor, currency)} ${currency}`;

export interface ReconcileResult {
  prepared: PreparedLedger;
  items: ReconItem[];
  summary: ReconSummary;
  /** Lookups that failed, by error code (network, timeout, unauthorized, …). */
  failedByCode: Record<string, number>;
  /** Lookups the service answered (found or not found). */
  answered: number;
  /** Set when the run stopped early because the service kept failing for every key. */
  stoppedBecause?: { code: string; message: string };
}

/** Queries every distinct key of a prepared ledger and matches it. */
export async function reconcilePrepared(
  prepared: PreparedLedger,
  deps: {
    gateway: Pick<GatewayClient, 'queryTransaction'>;
    clock: Clock;
    concurrency?: number;
    onProgress?: (p: RunProgress) => void;
  },
): Promise<ReconcileResult> {
  const answers = new Map<string, ServiceLookup>();
  let stoppedBecause: ReconcileResult['stoppedBecause'];
  const keys = ledgerKeys(prepared.rows).map((k) => lookupKey(k));
  const runner = startRunner({
    gateway: deps.gateway,
    clock: deps.clock,
    keys,
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
    onResult: (r) => {
      answers.set(r.key, r.lookup);
    },
    onProgress: (p) => {
      deps.onProgress?.(p);
      // Unattended: a run that paused itself (service down, credentials refused) ends here; the
      // unqueried rows are reported as not checked.
      if (p.state === 'paused' && p.stoppedBecause) {
        stoppedBecause = p.stoppedBecause;
        runner.cancel();
      }
    },
  });
  await runner.done;
  const items = matchLedger(prepared.rows, (k) => answers.get(k), detailAmount);
  const failedByCode: Record<string, number> = {};
  let answered = 0;
  for (const a of answers.values()) {
    if (a.kind === 'failed') failedByCode[a.code] = (failedByCode[a.code] ?? 0) + 1;
    else answered += 1;
  }
  return {
    prepared,
    items,
    summary: summarise(items),
    failedByCode,
    answered,
    ...(stoppedBecause ? { stoppedBecause } : {}),
  };
}
