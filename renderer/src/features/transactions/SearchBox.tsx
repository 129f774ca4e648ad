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

type Outcome =
  | { kind: 'found'; text: string; transactionNo: string }
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
  inputRef,
}: {
  profileId: string;
  onFound(transactionNo: string): void;
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
  const shape = classifyId(text);

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

  const run = async (raw: string) => {
    const s = classifyId(raw);
    if (s.shape === 'empty' || s.shape === 'invalid' || lookup.isPending) return;
    const q = s.text;
    if (conn.state === 'offline') {
      const hit = await searchCache(q);
      setOutcome(
        hit
          ? {
              kind: 'cached',
              text: `${hit.text} The service cannot be reached, so this may be out of date.`,
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
      ? 'Transaction, refund or reference number (press / to come here)'
      : describeShape(shape);
  return (
    <form className="tx-search" role="search" aria-label="Look up" onSubmit={submit}>
      <div className="tx-search-row">
        <input
          ref={input}
          type="search"
          aria-label="Look up a transaction"
          aria-describedby="tx-search-hint"
          placeholder="Look up: transaction no., reference or refund no."
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
          disabled={shape.shape === 'empty' || shape.shape === 'invalid' || lookup.isPending}
        >
          {lookup.isPending ? 'Looking up…' : conn.state === 'offline' ? 'Search cache' : 'Look up'}
        </button>
      </div>
      <div
        id="tx-search-hint"
        className={`tx-search-hint${shape.shape === 'invalid' ? ' warn' : ''}`}
        data-testid="tx-search-hint"
      >
        {hint}
      </div>
      {outcome && (
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
