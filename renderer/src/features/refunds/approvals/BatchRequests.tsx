import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { BatchStatus } from '../../../../../shared/batch/execution';
import { errorOf, useBridge } from '../../../lib/bridge';
import type { Formatters } from '../../preferences/format';
import { TotalsList } from '../batch/totals';
import { ApproveBatchDialog } from './ApproveBatchDialog';
import { CloseBatch } from './CloseBatch';
import type { TeamPerson } from './queries';
import { waitingBatchesQuery } from './queries';
import { batchRoleFor, closeBatchButtonId, limitOf, type RequestRole } from './words';

/**
 * Refund batches waiting for a checker, beside the single requests: who started each, when, how many
 * rows, the total per currency, until when. A checker other than its starter whose limits cover every
 * total approves and runs it (through a confirm step) or rejects it with a comment; its starter may
 * cancel it. The database decides all the same.
 */
export function BatchRequests({ profileId, me, f }: { profileId: string; me: TeamPerson; f: Formatters }) {
  const bridge = useBridge();
  const list = useQuery(waitingBatchesQuery(bridge, profileId));
  const [approving, setApproving] = useState<BatchStatus>();
  const [closing, setClosing] = useState<{ how: 'reject' | 'cancel'; batch: BatchStatus }>();
  const batches = list.data?.batches ?? [];
  return (
    <>
      <h3 className="rd-approvals-sub" id="rd-approvals-batches">
        Refund batches awaiting approval
      </h3>
      {list.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load the batches: {errorOf(list.error).message}
        </p>
      )}
      {closing && (
        <CloseBatch
          key={`${closing.how}-${closing.batch.batchId}`}
          how={closing.how}
          batch={closing.batch}
          profileId={profileId}
          f={f}
          onDone={() => setClosing(undefined)}
        />
      )}
      <div className="rd-table-wrap" role="region" aria-labelledby="rd-approvals-batches" tabIndex={0}>
        <table className="rd-table rd-approvals-table" data-testid="approvals-batches">
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col" className="num">
                Rows
              </th>
              <th scope="col">Total</th>
              <th scope="col">Started by</th>
              <th scope="col">Expires ({f.zoneLabel})</th>
              <th scope="col" className="rd-actions-col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {batches.map((b) => (
              <BatchRow
                key={b.batchId}
                batch={b}
                f={f}
                role={batchRoleFor(b, me)}
                limits={b.totals.map((t) => f.amountCode(limitOf(me, t.currency), t.currency)).join(', ')}
                onApprove={() => setApproving(b)}
                onClose={(how) => setClosing({ how, batch: b })}
              />
            ))}
          </tbody>
        </table>
        {list.isSuccess && batches.length === 0 && (
          <p className="rd-empty">No refund batch is waiting for approval.</p>
        )}
      </div>
      {approving && (
        <ApproveBatchDialog profileId={profileId} batch={approving} onClose={() => setApproving(undefined)} />
      )}
    </>
  );
}

function BatchRow({
  batch: b,
  f,
  role,
  limits,
  onApprove,
  onClose,
}: {
  batch: BatchStatus;
  f: Formatters;
  role: RequestRole;
  limits: string;
  onApprove(): void;
  onClose(how: 'reject' | 'cancel'): void;
}) {
  const reject = (
    <button type="button" id={closeBatchButtonId('reject', b.batchId)} onClick={() => onClose('reject')}>
      Reject…
    </button>
  );
  return (
    <tr data-batch-id={b.batchId} data-state={b.state}>
      <td>
        <span className="mono">{b.batchId}</span>
        <div className="small muted rd-wrap-anywhere">{b.fileName}</div>
      </td>
      <td className="num">{f.count(b.toSend)}</td>
      <td>
        <TotalsList totals={b.totals} block />
      </td>
      <td>
        {b.approval?.startedBy ?? b.operator}
        <div className="small muted nowrap">{f.dateTime(b.createdAt)}</div>
      </td>
      <td className="nowrap">{b.approval?.expiresAt ? f.dateTime(b.approval.expiresAt) : '—'}</td>
      <td className="rd-actions-col">
        <div className="rd-request-actions">
          {role === 'approve' && (
            <>
              <button type="button" className="primary" onClick={onApprove}>
                Approve and run…
              </button>
              {reject}
            </>
          )}
          {role === 'above_limit' && (
            <>
              <div className="small muted rd-request-note">
                Above your approval limit ({limits}): a checker with a higher limit approves it.
              </div>
              {reject}
            </>
          )}
          {role === 'own' && (
            <>
              <div className="small muted rd-request-note">Your batch: another person approves it.</div>
              <button
                type="button"
                id={closeBatchButtonId('cancel', b.batchId)}
                onClick={() => onClose('cancel')}
              >
                Cancel batch…
              </button>
            </>
          )}
          {role === 'view' && <div className="small muted rd-request-note">Waiting for a checker.</div>}
        </div>
      </td>
    </tr>
  );
}
