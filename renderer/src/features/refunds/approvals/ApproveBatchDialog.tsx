import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import type { BatchStatus } from '../../../../../shared/batch/execution';
import { errorOf, unwrap, useBridge } from '../../../lib/bridge';
import { Dialog } from '../../../lib/ui/Dialog';
import { useFormat } from '../../preferences/use-prefs';
import { TotalsList } from '../batch/totals';
import { TypedTotalsBox } from '../batch/TypedTotals';
import { useTypedTotals } from '../batch/use-typed-totals';
import { useBatchDecision } from './mutations';

/**
 * "Approve and run" a batch awaiting approval: its file, rows, totals per currency, who started it and
 * until when it may be approved; on live money the checker types each currency's total, as its starter
 * did (main checks it again by the same rule). Approved, the batch runs on this desk: the dialog follows
 * it until the run ends. The database's refusals (own batch, above your limit, expired) in its words.
 */
export function ApproveBatchDialog({
  profileId,
  batch,
  onClose,
}: {
  profileId: string;
  batch: BatchStatus;
  onClose(): void;
}) {
  const uid = useId();
  const f = useFormat();
  const bridge = useBridge();
  const { approve } = useBatchDecision();
  const live = batch.moneyMode === 'live';
  const typing = useTypedTotals(batch.totals, live);
  const { ok, typedTotals } = typing;
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  const approved = approve.data;
  // Once approved, its run on this desk is followed until it ends (the status is main's record).
  const run = useQuery({
    queryKey: ['approvals', 'batch-run', profileId, batch.batchId],
    queryFn: () => unwrap(bridge['refunds.batchStatus']({ profileId, batchId: batch.batchId })),
    enabled: approved !== undefined,
    refetchInterval: (q) => (q.state.data && !q.state.data.active ? false : 1_000),
  });
  const s = run.data ?? approved;
  const rows = batch.toSend;
  const busy = approve.isPending;
  return (
    <Dialog
      titleId={`${uid}-t`}
      title={`Approve batch ${batch.batchId}?`}
      onClose={busy ? undefined : onClose}
      tone={live ? 'production' : undefined}
      testId="approve-batch"
    >
      <div className="dlg-body">
        <dl className="rd-facts rd-facts-confirm">
          <div>
            <dt>File</dt>
            <dd>{batch.fileName}</dd>
          </div>
          <div>
            <dt>Rows to refund</dt>
            <dd className="strong" data-testid="approve-batch-rows">
              {f.count(rows)}
            </dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd>
              <TotalsList totals={batch.totals} testId="approve-batch-totals" block />
            </dd>
          </div>
          <div>
            <dt>Started by</dt>
            <dd>
              {batch.approval?.startedBy ?? batch.operator}, {f.dateTime(batch.createdAt)}
            </dd>
          </div>
          {batch.approval?.expiresAt && (
            <div>
              <dt>Expires</dt>
              <dd>{f.dateTime(batch.approval.expiresAt)}</dd>
            </div>
          )}
          <div>
            <dt>Profile</dt>
            <dd>{batch.profileName}</dd>
          </div>
        </dl>
        {!s && (
          <p className="small muted">
            Approved as a whole, the batch runs on this desk: each row is checked again just before it is
            sent, and a row that changed since is refused with its reason, never sent.
          </p>
        )}
        {live && !s && (
          <TypedTotalsBox
            testId="approve-batch-typed"
            lead={{ warning: 'This batch moves real money.', ask: 'Type the total to approve it.' }}
            totals={batch.totals}
            typing={typing}
          />
        )}
        {s && (
          <p role="status" data-testid="approve-batch-result" data-state={s.state} data-active={s.active}>
            {s.active || s.state === 'running'
              ? `Approved — running on this desk: ${f.count(s.toSend - s.pending)} of ${f.count(s.toSend)} rows done, ${f.count(s.refunded)} refunded.`
              : `Approved and ${s.state}: ${f.count(s.refunded)} refunded` +
                (s.refused > 0 ? `, ${f.count(s.refused)} refused` : '') +
                (s.unknown > 0 ? `, ${f.count(s.unknown)} outcome unknown` : '') +
                '. Its report is under Refunds → Batch → Past batches.'}
          </p>
        )}
        {approve.isError && (
          <p role="alert" className="rd-error" data-testid="approve-batch-error">
            Not approved — nothing was sent: {errorOf(approve.error).message}
          </p>
        )}
        <div className="dlg-actions">
          <button type="button" ref={back} onClick={onClose} disabled={busy}>
            {s ? 'Close' : 'Back'}
          </button>
          {!s && (
            <button
              type="button"
              className={live ? 'danger' : 'primary'}
              disabled={!ok || busy}
              aria-busy={busy}
              onClick={() =>
                approve.mutate({
                  profileId,
                  batchId: batch.batchId,
                  ...(live ? { typedTotals } : {}),
                })
              }
            >
              {busy ? 'Approving…' : `Approve and run ${f.count(rows)} ${rows === 1 ? 'row' : 'rows'}`}
            </button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
