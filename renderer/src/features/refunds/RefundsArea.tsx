import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useBridge } from '../../lib/bridge';
import type { ProfileView } from '../profiles/queries';
import { ApprovalsView } from './approvals/ApprovalsView';
import { approvalsListQuery, useTeamPerson, waitingBatchesQuery } from './approvals/queries';
import { RefundsTabs } from './RefundsTabs';

type Tab = 'record' | 'batch' | 'approvals';

/**
 * One profile's Refunds: the record, refund batches, and on a desk of a team database the requests
 * awaiting approval (four-eyes exists there only; a single desk has no Approvals tab). The record keeps
 * its place in the tree when the Approvals tab appears, so what a person typed survives "who am I"
 * answering late.
 */
export function ProfileArea({
  profile,
  record,
  batch,
}: {
  profile: ProfileView;
  record: ReactNode;
  batch: ReactNode;
}) {
  const me = useTeamPerson();
  const [tab, setTab] = useState<Tab>('record');
  const shown = tab === 'approvals' && !me ? 'record' : tab;
  return (
    <>
      <AreaTabs profile={profile} team={Boolean(me)} tab={shown} onTab={setTab} />
      <div role="tabpanel" id="rd-tabpanel" aria-labelledby={`rd-tab-${shown}`}>
        {shown === 'approvals' && me ? (
          <ApprovalsView profile={profile} me={me} />
        ) : shown === 'batch' ? (
          batch
        ) : (
          record
        )}
      </div>
    </>
  );
}

/** The record, Batch, and on a team desk Approvals with how many requests and batches wait. */
function AreaTabs({
  profile,
  team,
  tab,
  onTab,
}: {
  profile: ProfileView;
  team: boolean;
  tab: Tab;
  onTab(t: Tab): void;
}) {
  const bridge = useBridge();
  const requests = useQuery({ ...approvalsListQuery(bridge, profile.id), enabled: team }).data;
  const batches = useQuery({ ...waitingBatchesQuery(bridge, profile.id), enabled: team }).data;
  // Requests and batches waiting for a checker, together.
  const waiting =
    (requests?.filter((r) => r.state === 'awaiting_approval').length ?? 0) + (batches?.batches.length ?? 0);
  return (
    <RefundsTabs
      tab={tab}
      onTab={onTab}
      tabs={[
        { id: 'record', label: 'Refund record' },
        { id: 'batch', label: 'Batch' },
        ...(!team
          ? []
          : [
              {
                id: 'approvals' as const,
                label: (
                  <>
                    Approvals
                    {waiting > 0 && (
                      <span className="rd-tab-count" data-testid="approvals-count">
                        {waiting}
                        <span className="sr-only"> waiting</span>
                      </span>
                    )}
                  </>
                ),
              },
            ]),
      ]}
    />
  );
}
