import { type FormEvent, useEffect, useRef, useState } from 'react';
import { BridgeError } from '../../lib/bridge';
import { useConnectivity } from './connectivity';
import { describeLookupError } from './lookup-errors';
import { classifyQuery, describeMatchedKind, describeShape } from './id-kind';
import { useLookup } from './mutations';
import { useRepos } from './queries';
import { formatAgeNow } from './format';

type Outcome =
  | { kind: 'found'; text: string; transactionNo: string }
  | { kind: 'cached'; text: string; transactionNo: string }
  | {
      kind: 'problem';
      problem: ReturnType<typeof describeLookupError>;
      cachedNo?: string;
      cachedText?: string;
    };

/**
 * One box for every kind of id (Ctrl/Cmd+K focuses it). Online it asks the service and shows the
 * answer at once; offline — or when the service cannot be reached — it searches the cache instead and
 * says how old that data is.
 */
export function SearchBox({
  profileId,
  onFound,
}: {
  profileId: string;
  onFound(transactionNo: string): void;
}) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const lookup = useLookup(profileId);
  const repos = useRepos();
  const conn = useConnectivity();
  const shape = classifyQuery(text);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const searchCache = async (q: string) => {
    const hit = await repos.transactions.findLocal(profileId, q);
    if (!hit) return undefined;
    onFound(hit.transaction.transactionNo);
    return {
      no: hit.transaction.transactionNo,
      text: `Found in the cache by ${describeMatchedKind(hit.kind)} (data from ${formatAgeNow(hit.transaction.fetchedAt)}).`,
    };
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (shape.shape === 'empty' || shape.shape === 'invalid' || lookup.isPending) return;
    const q = shape.text;
    setOutcome(null);
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
                reference: '',
              },
            },
      );
      return;
    }
    try {
      const r = await lookup.mutateAsync(q);
      onFound(r.transaction.transactionNo);
      const via = describeMatchedKind(r.kind);
      const refundNote = r.matchedRefundTransactionNo
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
      setOutcome({ kind: 'problem', problem, ...(hit ? { cachedNo: hit.no, cachedText: hit.text } : {}) });
    }
  };

  const hint =
    shape.shape === 'empty'
      ? 'Transaction number, reference or refund number — Ctrl+K'
      : describeShape(shape);
  return (
    <form className="tx-search" role="search" onSubmit={(e) => void submit(e)}>
      <div className="tx-search-row">
        <input
          ref={input}
          type="search"
          aria-label="Look up a transaction"
          aria-describedby="tx-search-hint"
          placeholder="Look up: transaction no., reference or refund no."
          value={text}
          onChange={(e) => setText(e.target.value)}
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
              {outcome.problem.detail && <div className="small muted">{outcome.problem.detail}</div>}
              {outcome.cachedText && <div className="small">{outcome.cachedText}</div>}
              {outcome.problem.reference && (
                <div className="small muted">Reference {outcome.problem.reference}</div>
              )}
            </>
          ) : (
            outcome.text
          )}
          <button
            type="button"
            className="link dismiss"
            aria-label="Dismiss"
            onClick={() => setOutcome(null)}
          >
            ×
          </button>
        </div>
      )}
    </form>
  );
}
