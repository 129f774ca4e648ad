import { useState } from 'react';
import {
  AGE_BUCKET_LABELS,
  AGE_BUCKETS,
  EXCEPTION_STATE_LABELS,
  EXCEPTION_STATES,
  matchesFilter,
  type AgeBucket,
  type ExceptionFilter,
  type ExceptionState,
} from '../../../../shared/recon/exceptions';
import { OUTCOME_LABELS, RECON_OUTCOMES, type ReconOutcome } from '../../../../shared/recon/match';
import { useFormat } from '../preferences/use-prefs';
import { ExceptionEditor } from './ExceptionEditor';
import type { useExceptions } from './use-exceptions';

const CHECK_LABEL = { cleared: 'Cleared', still_open: 'Still open', not_checked: 'Not checked' } as const;

/**
 * The run's non-matched rows as a worklist: state, owner, age and notes per exception, filters by
 * state, age, owner, outcome and carried; one opens beside the list to be worked. Exceptions carried
 * from an earlier run are marked, with whether they cleared.
 */
export function ExceptionsWorklist({ data }: { data: ReturnType<typeof useExceptions> }) {
  const f = useFormat();
  const [state, setState] = useState<ExceptionState | ''>('');
  const [age, setAge] = useState<AgeBucket | ''>('');
  const [owner, setOwner] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ReconOutcome | ''>('');
  const [carried, setCarried] = useState<'' | 'own' | 'carried'>('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = data.list.data;
  const filter: ExceptionFilter = {
    ...(state ? { states: [state] } : {}),
    ...(age ? { ages: [age] } : {}),
    ...(owner !== null ? { owner } : {}),
    ...(outcome ? { outcomes: [outcome] } : {}),
    ...(carried ? { carried: carried === 'carried' } : {}),
  };
  const shown = (list?.exceptions ?? []).filter((e) => matchesFilter(e, filter));
  if (data.list.isError)
    return (
      <p role="alert" className="recon-error">
        The exceptions could not be read: {data.list.error.message}
      </p>
    );
  if (!list) return <p className="muted">Reading the exceptions…</p>;
  const selected = list.exceptions.find((e) => e.id === selectedId);
  const carriedCount = list.exceptions.filter((e) => e.carried).length;
  const cleared = list.exceptions.filter((e) => e.carried?.check?.result === 'cleared').length;
  return (
    <section className="recon-card" aria-labelledby="recon-worklist">
      <h2 id="recon-worklist">Exceptions to work</h2>
      <p className="muted small" data-testid="recon-worklist-summary">
        {f.count(list.total)} exception{list.total === 1 ? '' : 's'}, {f.count(list.outstanding.length)} still
        open
        {carriedCount > 0
          ? ` · ${f.count(carriedCount)} carried from the previous run, ${f.count(cleared)} of them cleared`
          : ''}
        . Ages count from the ledger row’s date (the service’s date for what only the service has), to{' '}
        {list.today}.
      </p>
      <div className="recon-filters" role="group" aria-label="Filter exceptions">
        <select
          aria-label="Filter by state"
          value={state}
          onChange={(e) => setState(e.target.value as ExceptionState | '')}
        >
          <option value="">Every state</option>
          {EXCEPTION_STATES.map((s) => (
            <option key={s} value={s}>
              {EXCEPTION_STATE_LABELS[s]}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by age"
          value={age}
          onChange={(e) => setAge(e.target.value as AgeBucket | '')}
        >
          <option value="">Any age</option>
          {AGE_BUCKETS.map((a) => (
            <option key={a} value={a}>
              {AGE_BUCKET_LABELS[a]}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by owner"
          value={owner === null ? '*' : owner}
          onChange={(e) => setOwner(e.target.value === '*' ? null : e.target.value)}
        >
          <option value="*">Any owner</option>
          <option value="">No owner</option>
          {list.owners.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by kind"
          value={outcome}
          onChange={(e) => setOutcome(e.target.value as ReconOutcome | '')}
        >
          <option value="">Every outcome</option>
          {RECON_OUTCOMES.filter((o) => o !== 'matched').map((o) => (
            <option key={o} value={o}>
              {OUTCOME_LABELS[o]}
            </option>
          ))}
        </select>
        {carriedCount > 0 && (
          <select
            aria-label="Filter by carry"
            value={carried}
            onChange={(e) => setCarried(e.target.value as typeof carried)}
          >
            <option value="">This run’s and carried</option>
            <option value="own">This run’s only</option>
            <option value="carried">Carried only</option>
          </select>
        )}
        <span className="muted small" data-testid="recon-worklist-count">
          {f.count(shown.length)} shown
        </span>
      </div>
      <div className={selected ? 'recon-rows-layout with-detail' : 'recon-rows-layout'}>
        <div className="recon-table-wrap" role="region" aria-label="Exceptions" tabIndex={0}>
          <table className="recon-table" data-testid="recon-worklist">
            <thead>
              <tr>
                <th className="num">Line</th>
                <th>Outcome</th>
                <th>Transaction no.</th>
                <th>State</th>
                <th>Owner</th>
                <th className="num">Age</th>
                {/* Beside an open editor (which shows them in full) the notes make room. */}
                {!selected && <th>Notes</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => {
                const i = e.item;
                const id =
                  i.ledger?.transactionNo ??
                  i.service?.transactionNo ??
                  i.ledger?.reference ??
                  i.unusable?.fields?.transactionNo;
                const check = e.carried?.check;
                return (
                  <tr
                    key={e.id}
                    data-exception={e.id}
                    data-state={e.state}
                    className={selectedId === e.id ? 'selected' : undefined}
                    tabIndex={0}
                    onClick={() => setSelectedId(e.id)}
                    onKeyDown={(ev) => ev.key === 'Enter' && setSelectedId(e.id)}
                  >
                    <td className="num">{e.carried ? '↪' : (i.line ?? '—')}</td>
                    <td>
                      <span className={`outcome outcome-${i.outcome}`}>{OUTCOME_LABELS[i.outcome]}</span>
                      {e.carried && (
                        <span
                          className={check?.result === 'cleared' ? 'recon-tag ok' : 'recon-tag'}
                          data-testid="recon-carried-tag"
                        >
                          Carried{check ? ` · ${CHECK_LABEL[check.result]}` : ''}
                        </span>
                      )}
                    </td>
                    <td className="mono">{id ?? '—'}</td>
                    <td>{EXCEPTION_STATE_LABELS[e.state]}</td>
                    <td>{e.owner ?? '—'}</td>
                    <td className="num" title={AGE_BUCKET_LABELS[e.age]}>
                      {e.ageDays} d
                    </td>
                    {!selected && (
                      <td className="detail" title={e.notes.at(-1)?.text}>
                        {e.notes.at(-1)?.text ?? ''}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {selected && (
          <ExceptionEditor
            key={`${selected.id}:${selected.version}`}
            exception={selected}
            signed={Boolean(list.signOff)}
            actions={data}
            onClose={() => setSelectedId(null)}
          />
        )}
      </div>
    </section>
  );
}
