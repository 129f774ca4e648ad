import { transactionStatusLabel } from '../../../../shared/domain/labels';
import { useFormat } from '../preferences/use-prefs';
import type { CustomerMatch } from './customer-search';

/** How many matches are listed; more means the words should be narrowed (a date, an amount). */
export const MATCHES_SHOWN = 25;

/**
 * Every payment the customer's words match, each with why it matched; choosing one opens it (a payment
 * made here but not cached yet is looked up at the service).
 */
export function CustomerMatches({
  query,
  matches,
  onOpen,
}: {
  query: string;
  matches: readonly CustomerMatch[];
  /** `cached`: the payment is in the cache (else it is looked up at the service). */
  onOpen(transactionNo: string, cached: boolean): void;
}) {
  const f = useFormat();
  const shown = matches.slice(0, MATCHES_SHOWN);
  return (
    <section className="tx-matches" aria-label={`Payments matching “${query}”`} data-testid="tx-matches">
      <p className="small">
        <strong>
          {matches.length === 0
            ? `No cached payment matches “${query}”.`
            : `${f.count(matches.length)} cached payment${matches.length === 1 ? ' matches' : 's match'} “${query}”`}
        </strong>
        {matches.length === 0
          ? ' Try fewer words, or sync the days the customer paid on; an id (transaction no., reference) is asked of the service.'
          : matches.length === 1
            ? ' — every part of what you typed matches it:'
            : ' — every part of what you typed matches each of them:'}
      </p>
      {shown.length > 0 && (
        <ul className="tx-match-list">
          {shown.map((m) => (
            <li key={m.transactionNo} data-transaction-no={m.transactionNo}>
              <button
                type="button"
                className="link mono"
                onClick={() => onOpen(m.transactionNo, m.tx !== undefined)}
              >
                {m.transactionNo}
              </button>
              {m.tx ? (
                <span className="small">
                  {' '}
                  {f.amountCode(m.tx.amountMinor, m.tx.currency)} · {transactionStatusLabel(m.tx.status)}
                  {m.tx.createdAt ? ` · ${f.dateTime(m.tx.createdAt)}` : ''}
                </span>
              ) : (
                <span className="small muted">
                  {' '}
                  made here, not in the cache yet (opening it asks the service)
                </span>
              )}
              <ul className="tx-match-why small" aria-label="Why it matches">
                {m.why.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {matches.length > shown.length && (
        <p className="small muted">
          … and {f.count(matches.length - shown.length)} more: add words to narrow it (a date, the amount, the
          card’s last four).
        </p>
      )}
    </section>
  );
}
