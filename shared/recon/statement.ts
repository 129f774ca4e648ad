/**
 * What a reconciliation compared and how, in sentences: shown above the report, printed by the CLI and
 * written into the summary export, so a controller signing it knows exactly what it covers — and what
 * it does not (offline, cached data, no period, a list the service does not offer).
 */
import { decimalLabel } from './amounts';
import { DATE_ORDER_LABELS } from './dates';
import { daysLabel } from './period';
import type { RunFacts } from './run';
import type { ReconSummary } from './summary';

/**
 * An integer with its thousands grouped as en-US writes it ("1,234,567"): the same text as
 * toLocaleString('en-US'), without loading ICU's number formatting for it (the first call costs
 * about 10 ms, inside every run, for a handful of counts). Anything but a safe integer goes to Intl.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  // -0 too, as Intl writes it.
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${grouped(n)} ${n === 1 ? one : many}`;
const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** The run's data-source label, for lists and exports: "live", "includes cached data", "offline". */
export function dataSourceLabel(f: Pick<RunFacts, 'offline' | 'usedCache'>): string {
  if (f.offline && f.usedCache) return 'offline; includes cached data';
  if (f.offline) return 'offline: the service could not be reached for part of it';
  if (f.usedCache) return 'includes cached data';
  return 'live';
}

/** Sentences describing the run; stable for a given record. */
export function statementOf(f: RunFacts, s: ReconSummary): string[] {
  const out: string[] = [];
  const unusableLines =
    s.unusable > 0 ? ` (${plural(s.unusable, 'row')} cannot be used and are listed as unreadable)` : '';
  out.push(
    `Ledger ${f.file.name}: ${plural(f.file.dataRows, 'data row')}, ${grouped(s.read)} read${unusableLines}; ${f.file.kind === 'xlsx' ? `Excel workbook, sheet “${f.file.sheet ?? ''}”` : `${f.file.encoding.toUpperCase()}, separator “${f.file.delimiter === '\t' ? 'tab' : f.file.delimiter}”`}, decimal separator ${decimalLabel(f.file.decimal)} (${f.file.decimalSource})${f.mapping.date ? `, dates ${DATE_ORDER_LABELS[f.file.dateOrder]} (${f.file.dateOrderSource})` : ''}.`,
  );
  out.push(
    `Each row was compared with the service's payment by transaction number (by reference where the row has none): amount, currency, status and refunds${f.mapping.date ? `, and its date with the payment day in ${daysLabel(f.options)}, accepting up to ${plural(f.options.dateToleranceDays, 'day')} apart` : ' (no date column was mapped, so dates were not compared)'}.`,
  );
  const p = f.options.period;
  if (!p) {
    out.push(
      'No period was chosen: only the ledger’s rows were checked, not what the service has that the ledger lacks.',
    );
  } else if (f.listing.state === 'complete') {
    out.push(
      `Period ${p.from} to ${p.to} in ${daysLabel(f.options)}: payments the service holds as paid, created in the period, that no ledger row has are listed as “paid at service, not in ledger”; refunds made in the period of payments from up to ${plural(f.options.refundLookbackDays, 'day')} before it that no ledger row has, as “refund at service, not in ledger”. The service’s list was read in ${plural(f.listing.windows, 'window')} (${plural(f.listing.payments, 'payment')})${f.listing.fetchedFrom ? `, fetched ${day(f.listing.fetchedFrom)}${f.listing.fetchedTo && day(f.listing.fetchedTo) !== day(f.listing.fetchedFrom) ? ` to ${day(f.listing.fetchedTo)}` : ''} UTC` : ''}.`,
    );
  } else {
    out.push(
      `Period ${p.from} to ${p.to} in ${daysLabel(f.options)}: payments and refunds the ledger lacks were NOT looked for — ${f.listing.message ?? 'the service’s list could not be read'}. Only the ledger’s rows were checked.`,
    );
  }
  const src = f.sources;
  const parts = [
    src.list > 0 && `${grouped(src.list)} from the period’s list`,
    src.lookup > 0 && `${grouped(src.lookup)} looked up one by one`,
    src.cache > 0 &&
      `${grouped(src.cache)} from data fetched earlier (this app’s cache${src.cacheOldest ? `, oldest ${day(src.cacheOldest)} UTC` : ''})`,
  ].filter(Boolean);
  if (parts.length > 0) out.push(`Service data for the ledger’s transactions: ${parts.join(', ')}.`);
  if (f.offline || f.lookups.failed > 0) {
    const codes = Object.entries(f.lookups.failedByCode)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    out.push(
      `${f.offline ? 'The service could not be reached for part of this run' : 'Some lookups failed'}${codes ? ` (${codes})` : ''}: ${plural(s.counts.not_checked, 'row')} not checked. Re-check them from the report when the service is reachable.`,
    );
  }
  if (f.endedAs === 'cancelled')
    out.push(
      `The run was cancelled${f.stoppedBecause ? ` after the service kept failing (${f.stoppedBecause.message})` : ''}: rows not reached are listed as not checked.`,
    );
  out.push(
    'Totals are per currency in that currency: difference = ledger total − service total; explained = the part traced to the rows listed as exceptions; unexplained = the rest.',
  );
  return out;
}
