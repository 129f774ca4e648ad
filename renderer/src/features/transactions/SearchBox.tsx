import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useCache } from '../../db/owner';
import { BridgeError, useBridge } from '../../lib/bridge';
import { useAppNav } from '../../app/nav';
import { useConnectivity } from './connectivity';
import { describeLookupError } from './lookup-errors';
import { classifyId } from '../../../../shared/domain/id-kind';
import { describeMatchedKind, describeShape } from './id-kind';
import { useLookup } from './mutations';
import { formatAgeNow } from './format';
import { CustomerMatches } from './CustomerMatches';
import { readCustomerWords } from './customer-words';
import type { CustomerMatch } from './customer-search';
import { usePaymentFinder } from './use-payment-finder';
import { useFormat } from '../preferences/use-prefs';

type Outcome =
  | { kind: 'found'; text: string; transactionNo: string }
  | { kind: 'matches'; query: string; matches: CustomerMatch[]; alsoReference: boolean }
  | { kind: 'cached'; text: string; transactionNo: string }
  | {
      kind: 'problem';
      problem: ReturnType<typeof describeLookupError>;
      cachedText?: string;
    };

/**
 * One box for every kind of id ("/" puts the cursor here; the command palette's "Go to payment"
 * lands here too). Online it asks the service and shows the answer at once; offline — or when the
 * service cannot be reached — it searches the cache instead and says how old that data is. A refund's
 * own reference is found too: the service cannot be asked for it, so the payments this desk knows it
 * belongs to (the cache, this desk's refunds) are checked against the service's refund records.
 */
export function SearchBox({
  profileId,
  onFound,
  onMissed,
  inputRef,
}: {
  profileId: string;
  onFound(transactionNo: string): void;
  /** The look-up found nothing (the screen closes what it showed for the previous one). */
  onMissed?: () => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const ownRef = useRef<HTMLInputElement>(null);
  const input = inputRef ?? ownRef;
  const lookup = useLookup(profileId);
  const cache = useCache();
  const bridge = useBridge();
  const conn = useConnectivity();
  const nav = useAppNav();
  const f = useFormat();
  const find = usePaymentFinder(profileId);
  const shape = classifyId(text);
  // What a customer says (an amount, a card's last four, an e-mail or name, a date) is searched in the cache.
  const byWords = shape.shape !== 'service-number' && readCustomerWords(text, f.dateFormat) !== undefined;

  const searchCache = async (q: string) => {
    const hit = await cache.findLocal(profileId, q);
    if (!hit) return undefined;
    onFound(hit.transaction.transactionNo);
    return {
      no: hit.transaction.transactionNo,
      text: `Found in the cache by ${describeMatchedKind(hit.kind)} (data from ${formatAgeNow(hit.transaction.fetchedAt)}).`,
    };
  };

  /** Payments a refund reference may belong to: the cache's refund records, then this desk's own refunds. */
  const refundReferenceCandidates = async (q: string): Promise<string[]> => {
    const out = new Set<string>();
    const hit = await cache.findLocal(profileId, q);
    if (hit?.kind === 'refundReference') out.add(hit.transaction.transactionNo);
    const intents = await bridge['refunds.list']({ profileId });
    // This desk sends its refund-intent id as the refund's reference (RD…).
    if (intents.ok) for (const i of intents.value) if (i.id === q) out.add(i.transactionNo);
    return [...out].slice(0, 5);
  };

  /** Looks the text up at the service as an id (the only way when it is not a customer's words). */
  const run = async (raw: string, asId = false) => {
    const s = classifyId(raw);
    if (!asId && s.shape !== 'service-number' && !lookup.isPending) {
      const found = await find(raw);
      if (found) {
        const { matches } = found;
        setOutcome({ kind: 'matches', query: raw.trim(), matches, alsoReference: s.shape === 'reference' });
        if (matches.length === 1 && matches[0]) onFound(matches[0].transactionNo);
        else onMissed?.();
        return;
      }
    }
    if (s.shape === 'empty' || s.shape === 'invalid' || lookup.isPending) return;
    const q = s.text;
    if (conn.state === 'offline') {
      const hit = await searchCache(q);
      if (!hit) onMissed?.();
      setOutcome(
        hit
          ? {
              kind: 'cached',
              // The offline banner says why; this says where the answer came from and what that means.
              text: `${hit.text} It may be out of date.`,
              transactionNo: hit.no,
            }
          : {
              kind: 'problem',
              problem: {
                kind: 'offline',
                title: `“${q}” is not in the cache`,
                action: 'The service cannot be reached to look it up. Try again when the connection is back.',
                detail: '',
                supportCode: '',
              },
            },
      );
      return;
    }
    try {
      const candidates =
        s.shape === 'reference' || s.shape === 'refund-reference' ? await refundReferenceCandidates(q) : [];
      const r = await lookup.mutateAsync({ query: q, candidates });
      onFound(r.transaction.transactionNo);
      const via = describeMatchedKind(r.kind);
      const refundNote =
        r.matchedRefundTransactionNo && r.kind === 'refundReference'
          ? ` — refund ${r.matchedRefundTransactionNo} of payment ${r.transaction.transactionNo}`
          : r.matchedRefundTransactionNo
            ? ` — this is a refund of payment ${r.transaction.transactionNo}`
            : '';
      setOutcome({
        kind: 'found',
        text: `Found by ${via}${refundNote}.`,
        transactionNo: r.transaction.transactionNo,
      });
    } catch (err) {
      if (!(err instanceof BridgeError)) throw err;
      const problem = describeLookupError(err.error, q);
      // Could not ask: show what the cache knows beside the explanation.
      const hit = problem.kind === 'offline' ? await searchCache(q) : undefined;
      if (!hit) onMissed?.();
      setOutcome({ kind: 'problem', problem, ...(hit ? { cachedText: hit.text } : {}) });
    }
  };

  // Requests from the command palette or the "/" shortcut: the text is taken over while rendering (the
  // request is new state from outside), then the effect moves focus and runs the look-up.
  const request = nav?.request ?? null;
  const [takenOver, setTakenOver] = useState(0);
  if (request && request.nonce !== takenOver) {
    setTakenOver(request.nonce);
    if (request.kind === 'lookup') {
      setText(request.query);
      setOutcome(null);
    }
  }
  const handled = useRef(0);
  useEffect(() => {
    if (!request || request.nonce === handled.current) return;
    handled.current = request.nonce;
    input.current?.focus();
    // The look-up is asynchronous (it awaits the cache and the service before any state changes); the
    // request itself is the external event this effect answers.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (request.kind === 'lookup') void run(request.query);
    else input.current?.select();
    // run() reads the latest state; only a new request should trigger this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setOutcome(null);
    void run(text);
  };

  const hint =
    shape.shape === 'empty'
      ? 'An id, or what the customer says: amount, card’s last 4, e-mail, name, date (/ comes here)'
      : byWords
        ? 'Looks like what a customer says: the cached payments are searched (amount, card’s last 4, e-mail, name, date).'
        : describeShape(shape);
  return (
    <form className="tx-search" role="search" aria-label="Look up" onSubmit={submit}>
      <div className="tx-search-row">
        <input
          ref={input}
          type="search"
          aria-label="Look up a transaction"
          aria-describedby="tx-search-hint"
          placeholder="Transaction no., reference — or amount, card’s last 4, e-mail, name"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            // The message was about what was typed before; it no longer applies.
            setOutcome(null);
          }}
          spellCheck={false}
          autoComplete="off"
          data-testid="tx-search"
        />
        <button
          type="submit"
          className="primary"
          disabled={(!byWords && (shape.shape === 'empty' || shape.shape === 'invalid')) || lookup.isPending}
        >
          {lookup.isPending
            ? 'Looking up…'
            : conn.state === 'offline' || byWords
              ? 'Search cache'
              : 'Look up'}
        </button>
      </div>
      <div
        id="tx-search-hint"
        className={`tx-search-hint${shape.shape === 'invalid' && !byWords ? ' warn' : ''}`}
        data-testid="tx-search-hint"
      >
        {hint}
      </div>
      {outcome?.kind === 'matches' && (
        <>
          <CustomerMatches
            query={outcome.query}
            matches={outcome.matches}
            onOpen={(no, cached) => (cached ? onFound(no) : void run(no, true))}
          />
          {outcome.alsoReference && (
            <button
              type="button"
              className="link small"
              onClick={() => {
                setOutcome(null);
                void run(outcome.query, true);
              }}
            >
              Look “{outcome.query}” up at the service as a reference instead
            </button>
          )}
        </>
      )}
      {outcome && outcome.kind !== 'matches' && (
        <div
          className={`tx-outcome ${outcome.kind === 'problem' ? `problem problem-${outcome.problem.kind}` : 'ok'}`}
          role={outcome.kind === 'problem' ? 'alert' : 'status'}
          data-testid="tx-outcome"
          data-kind={outcome.kind === 'problem' ? outcome.problem.kind : outcome.kind}
        >
          {outcome.kind === 'problem' ? (
            <>
              <strong>{outcome.problem.title}.</strong> {outcome.problem.action}
              {outcome.problem.detail && <div className="small">{outcome.problem.detail}</div>}
              {outcome.cachedText && <div className="small">{outcome.cachedText}</div>}
              {outcome.problem.supportCode && (
                <div className="small">Support code {outcome.problem.supportCode}</div>
              )}
            </>
          ) : (
            outcome.text
          )}
          <button
            type="button"
            className="link dismiss"
            aria-label="Dismiss this message"
            onClick={() => setOutcome(null)}
          >
            ×
          </button>
        </div>
      )}
    </form>
  );
}
