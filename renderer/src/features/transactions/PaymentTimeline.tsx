import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_NOTE_MAX } from '../../../../shared/ipc/contract/timeline';
import { errorOf, unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';

/** Query key of one payment's timeline; everything under ['payment-timeline'] is refreshed by events. */
const timelineKey = (profileId: string, transactionNo: string) =>
  ['payment-timeline', profileId, transactionNo] as const;

/**
 * What happened to one payment, newest first, from what main keeps: refunds and this desk's payment
 * actions (with the person), the service's notifications, checks this desk made, and notes — with a
 * field to add a note (kept in the app's database and its audit). Refreshed when a refund or the
 * payment changes, and after a note is added.
 */
export function PaymentTimeline({ profileId, transactionNo }: { profileId: string; transactionNo: string }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const f = useFormat();
  const noteId = useId();
  const [text, setText] = useState('');
  const key = timelineKey(profileId, transactionNo);
  const timeline = useQuery({
    queryKey: key,
    queryFn: () => unwrap(bridge['payments.timeline']({ profileId, transactionNo })),
  });
  useEffect(() => {
    const refresh = () => void client.invalidateQueries({ queryKey: ['payment-timeline'] });
    const offRefund = bridge.on['refunds.updated'](refresh);
    const offTx = bridge.on['transactions.updated'](refresh);
    return () => {
      offRefund();
      offTx();
    };
  }, [bridge, client]);
  const add = useMutation({
    mutationFn: (note: string) =>
      unwrap(bridge['payments.addNote']({ profileId, transactionNo, text: note })),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const entries = timeline.data?.entries ?? [];
  return (
    <section className="tx-timeline" aria-labelledby={`${noteId}-h`}>
      <h3 id={`${noteId}-h`}>Timeline</h3>
      <form
        className="tx-note-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!add.isPending) add.mutate(text);
        }}
      >
        <label htmlFor={noteId}>Add note</label>
        <textarea
          id={noteId}
          rows={2}
          value={text}
          maxLength={PAYMENT_NOTE_MAX}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${noteId}-help`}
        />
        <p id={`${noteId}-help`} className="small muted">
          Kept with this payment and in the audit, under your name. A note cannot be changed; add another to
          correct it.
        </p>
        {add.isError && (
          <p role="alert" className="rd-error small">
            {errorOf(add.error).message}
          </p>
        )}
        <button type="submit" disabled={add.isPending || text.trim() === ''}>
          {add.isPending ? 'Adding…' : 'Add note'}
        </button>
      </form>
      {timeline.isPending ? (
        <p className="muted small">Reading the timeline…</p>
      ) : timeline.isError ? (
        <p role="alert" className="rd-error small">
          The timeline cannot be read: {errorOf(timeline.error).message}
        </p>
      ) : entries.length === 0 ? (
        <p className="muted small">Nothing recorded on this desk for this payment yet.</p>
      ) : (
        <ol className="tx-timeline-list" aria-label="Timeline, newest first" data-testid="payment-timeline">
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`} data-source={e.source}>
              <div className="tx-refund-line">
                <strong>{e.what}</strong>
                {e.amountMinor !== undefined && e.currency && (
                  <span className="num">{f.money(e.amountMinor, e.currency)}</span>
                )}
              </div>
              {e.detail && <p className="tx-timeline-detail">{e.detail}</p>}
              <p className="small muted">
                <time dateTime={e.at}>{f.dateTimeSeconds(e.at)}</time> · {e.person}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
