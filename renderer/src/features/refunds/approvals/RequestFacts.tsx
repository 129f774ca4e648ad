import { useQuery } from '@tanstack/react-query';
import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import { errorOf, useBridge } from '../../../lib/bridge';
import type { Formatters } from '../../preferences/format';
import { useFormat } from '../../preferences/use-prefs';
import { approversQuery } from './queries';
import { approversWords, requestedWords } from './words';

/**
 * A request's facts as summary items (`<div><dt/><dd/>` for a `.rd-facts` list): its id, who asked where
 * and when, and until when it may be approved — every name and time the database's.
 */
export function RequestFactItems({
  request,
  f,
  withId = true,
}: {
  request: IntentView;
  f: Formatters;
  /** False where the summary names the id already. */
  withId?: boolean;
}) {
  const a = request.approval;
  return (
    <>
      {withId && (
        <div>
          <dt>Request</dt>
          <dd className="mono" data-testid="request-id">
            {request.id}
          </dd>
        </div>
      )}
      {a && (
        <>
          <div>
            <dt>Requested by</dt>
            <dd data-testid="requested-by">{requestedWords(a, f)}</dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd data-testid="request-expires">
              {f.dateTime(a.expiresAt)} ({f.zoneLabel})
            </dd>
          </div>
        </>
      )}
    </>
  );
}

/**
 * Who can approve a request, as a summary item: asked from the team database (other people with the
 * checker role whose limit covers it), so the requester knows whom to ask.
 */
export function ApproversFact({ request, profileId }: { request: IntentView; profileId: string }) {
  const f = useFormat();
  const approvers = useQuery(approversQuery(useBridge(), profileId, request.id));
  return (
    <div>
      <dt>Who can approve</dt>
      <dd data-testid="request-approvers">
        {approvers.isPending
          ? 'Asking the team database…'
          : approvers.isError
            ? `Not known: ${errorOf(approvers.error).message}`
            : approversWords(approvers.data.logins, f.amountCode(request.amountMinor, request.currency))}
      </dd>
    </div>
  );
}
