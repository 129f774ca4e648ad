import './approvals.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import { errorOf, useBridge } from '../../../lib/bridge';
import type { Formatters } from '../../preferences/format';
import { useFormat } from '../../preferences/use-prefs';
import type { ProfileView } from '../../profiles/queries';
import { reasonLabel } from '../format';
import { StateBadge } from '../StateBadge';
import { ApproveDialog } from './ApproveDialog';
import { BatchRequests } from './BatchRequests';
import { CloseRequest } from './CloseRequest';
import { approvalsListQuery, type TeamPerson } from './queries';
import { closeRequestButtonId, limitOf, personWords, type RequestRole, roleFor } from './words';

/**
 * Refunds → Approvals (team database only): the account's open requests — awaiting approval, or approved
 * and being sent. A checker approves and sends another person's request (through the refund's confirm
 * step) or rejects it with a comment; the requester cancels their own. The buttons follow what the
 * database allows; the database decides all the same, and its refusals are shown in its words.
 */
export function ApprovalsView({ profile, me }: { profile: ProfileView; me: TeamPerson }) {
  const bridge = useBridge();
  const f = useFormat();
  const list = useQuery(approvalsListQuery(bridge, profile.id));
  const [approving, setApproving] = useState<IntentView>();
  const [closing, setClosing] = useState<{ how: 'reject' | 'cancel'; id: string }>();
  const requests = list.data ?? [];
  const closingRequest = closing && requests.find((r) => r.id === closing.id);

  return (
    <section
      className="rd-view rd-approvals"
      aria-labelledby="rd-approvals-title"
      data-testid="approvals-view"
    >
      <div className="rd-toolbar rd-approvals-head">
        <h2 id="rd-approvals-title">Requests awaiting approval</h2>
        <span className="small muted" data-testid="approvals-me">
          You are {personWords(me, f)}
        </span>
      </div>
      <p className="small muted rd-approvals-intro">
        Refunds above {profile.name}’s approval limit wait here until another person with the checker role
        approves and sends them, or rejects them. Nothing is sent before. The requester can cancel their own;
        nobody can approve their own.
      </p>
      {list.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load the requests: {errorOf(list.error).message}
        </p>
      )}
      {closing && closingRequest && (
        <CloseRequest
          key={`${closing.how}-${closing.id}`}
          how={closing.how}
          request={closingRequest}
          profileId={profile.id}
          f={f}
          onDone={() => setClosing(undefined)}
        />
      )}
      <div className="rd-table-wrap" role="region" aria-label="Open requests" tabIndex={0}>
        <table className="rd-table rd-approvals-table" data-testid="approvals-table">
          <thead>
            <tr>
              <th scope="col">Payment</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Reason</th>
              <th scope="col">Requested by</th>
              <th scope="col">Expires ({f.zoneLabel})</th>
              <th scope="col">Status</th>
              <th scope="col" className="rd-actions-col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <RequestRow
                key={r.id}
                request={r}
                f={f}
                role={roleFor(r, me)}
                limitText={f.amountCode(limitOf(me, r.currency), r.currency)}
                onApprove={() => setApproving(r)}
                onClose={(how) => setClosing({ how, id: r.id })}
              />
            ))}
          </tbody>
        </table>
        {list.isSuccess && requests.length === 0 && (
          <p className="rd-empty">No refund is waiting for approval for {profile.name}.</p>
        )}
        {list.isPending && (
          <p className="rd-empty" role="status">
            Loading requests…
          </p>
        )}
      </div>
      <BatchRequests profileId={profile.id} me={me} f={f} />
      <p className="muted small">
        Requests and batches expire on the team database’s clock. This list follows every desk’s requests,
        approvals and rejections by itself; batches are read again every 30 seconds and after any change here.
      </p>
      {approving && (
        <ApproveDialog profileId={profile.id} request={approving} onClose={() => setApproving(undefined)} />
      )}
    </section>
  );
}

function RequestRow({
  request: r,
  f,
  role,
  limitText,
  onApprove,
  onClose,
}: {
  request: IntentView;
  f: Formatters;
  role: RequestRole;
  limitText: string;
  onApprove(): void;
  onClose(how: 'reject' | 'cancel'): void;
}) {
  const a = r.approval;
  return (
    <tr data-request-id={r.id} data-state={r.state}>
      <td className="mono nowrap">{r.transactionNo}</td>
      <td className="num nowrap">{f.amountCode(r.amountMinor, r.currency)}</td>
      <td className="rd-request-reason">
        {reasonLabel(r.reasonCode)}
        {r.reasonNote ? <div className="small muted">{r.reasonNote}</div> : null}
      </td>
      <td>
        {a ? (
          <>
            {a.requestedBy} at {a.requestedDesk}
            <div className="small muted nowrap">{f.dateTime(a.requestedAt)}</div>
          </>
        ) : (
          r.operator
        )}
      </td>
      <td className="nowrap">{a ? f.dateTime(a.expiresAt) : '—'}</td>
      <td>
        <StateBadge state={r.state} />
        {r.state === 'approved' && a?.approvedBy && (
          <div className="small muted">
            Approved by {a.approvedBy}
            {a.approvedDesk ? ` at ${a.approvedDesk}` : ''}; their desk sends it
          </div>
        )}
      </td>
      <td className="rd-actions-col">
        <div className="rd-request-actions">
          {role === 'approve' && (
            <>
              <button type="button" className="primary" onClick={onApprove}>
                Approve and send…
              </button>
              <button
                type="button"
                id={closeRequestButtonId('reject', r.id)}
                onClick={() => onClose('reject')}
              >
                Reject…
              </button>
            </>
          )}
          {role === 'above_limit' && (
            <>
              <div className="small muted rd-request-note">
                Above your approval limit ({limitText}): a checker with a higher limit approves it.
              </div>
              <button
                type="button"
                id={closeRequestButtonId('reject', r.id)}
                onClick={() => onClose('reject')}
              >
                Reject…
              </button>
            </>
          )}
          {role === 'own' && (
            <>
              <div className="small muted rd-request-note">Your request: another person approves it.</div>
              <button
                type="button"
                id={closeRequestButtonId('cancel', r.id)}
                onClick={() => onClose('cancel')}
              >
                Cancel request…
              </button>
            </>
          )}
          {role === 'view' && r.state === 'awaiting_approval' && (
            <div className="small muted rd-request-note">Waiting for a checker.</div>
          )}
        </div>
      </td>
    </tr>
  );
}
