import type { BatchStatus } from '../../../../../shared/batch/execution';
import type { Formatters } from '../../preferences/format';
import { TotalsList } from '../batch/totals';
import { ClosePanel } from './ClosePanel';
import { useBatchDecision } from './mutations';
import { closeBatchButtonId } from './words';

/**
 * Rejecting a batch awaiting approval (a checker, with the required comment) or cancelling it (its
 * starter). Nothing is sent either way; a panel above the list, as for a single request, naming the
 * batch, with the database's refusal (your own batch, expired, no longer waiting) in its words.
 */
export function CloseBatch({
  how,
  batch,
  profileId,
  f,
  onDone,
}: {
  how: 'reject' | 'cancel';
  batch: BatchStatus;
  profileId: string;
  f: Formatters;
  onDone(): void;
}) {
  const decision = useBatchDecision();
  const m = how === 'reject' ? decision.reject : decision.cancel;
  const done = () => {
    onDone();
    requestAnimationFrame(() => document.getElementById(closeBatchButtonId(how, batch.batchId))?.focus());
  };
  const submit = (comment: string) => {
    if (how === 'cancel') decision.cancel.mutate({ profileId, batchId: batch.batchId }, { onSuccess: done });
    else decision.reject.mutate({ profileId, batchId: batch.batchId, comment }, { onSuccess: done });
  };
  return (
    <ClosePanel
      testId={`${how}-batch`}
      heading={
        <>
          {how === 'reject' ? 'Reject batch' : 'Cancel your batch'} {batch.batchId}: {batch.fileName}
        </>
      }
      facts={
        <p className="small">
          {f.count(batch.toSend)} {batch.toSend === 1 ? 'row' : 'rows'}, <TotalsList totals={batch.totals} />;
          started by {batch.approval?.startedBy ?? batch.operator}, {f.dateTime(batch.createdAt)}. Nothing is
          sent; once {how === 'reject' ? 'rejected' : 'cancelled'} it cannot be approved, and its rows end{' '}
          {how === 'reject' ? 'declined with your reason' : 'cancelled'}.
        </p>
      }
      {...(how === 'reject'
        ? { commentLabel: 'Why is it rejected? (its starter and the audit log see this)' }
        : {})}
      submitLabel={how === 'reject' ? 'Reject batch' : 'Cancel batch'}
      doneWord={how === 'reject' ? 'rejected' : 'cancelled'}
      pending={m.isPending}
      error={m.isError ? m.error : undefined}
      onSubmit={submit}
      onDone={done}
    />
  );
}
