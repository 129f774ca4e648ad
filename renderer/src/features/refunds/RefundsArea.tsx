import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useBridge } from '../../lib/bridge';
import type { ProfileView } from '../profiles/queries';
import { ApprovalsView } from './approvals/ApprovalsView';
import { approvalsListQuery, useTeamPerson } from './approvals/queries';
import { RefundsTabs } from './RefundsTabs';

/**
 * One profile's Refunds: the record, and on a desk of a team database the requests awaiting approval
 * (four-eyes exists there only; a single desk shows the record alone). The record keeps its place in the
 * tree whether or not the tabs are shown, so what a person typed survives "who am I" answering late.
 */
export function ProfileArea({ profile, record }: { profile: ProfileView; record: ReactNode }) {
  const me = useTeamPerson();
  const [tab, setTab] = useState<'record' | 'approvals'>('record');
  const shown = me ? tab : 'record';
  return (
    <>
      {me ? <TeamTabs profile={profile} tab={shown} onTab={setTab} /> : null}
      <div
        role={me ? 'tabpanel' : undefined}
        id="rd-tabpanel"
        aria-labelledby={me ? `rd-tab-${shown}` : undefined}
      >
        {shown === 'approvals' && me ? <ApprovalsView profile={profile} me={me} /> : record}
      </div>
    </>
  );
}

/** The team desk's tabs: the record, and Approvals with how many requests wait. */
function TeamTabs({
  profile,
  tab,
  onTab,
}: {
  profile: ProfileView;
  tab: 'record' | 'approvals';
  onTab(t: 'record' | 'approvals'): void;
}) {
  const requests = useQuery(approvalsListQuery(useBridge(), profile.id)).data;
  const waiting = requests?.filter((r) => r.state === 'awaiting_approval').length ?? 0;
  return (
    <RefundsTabs
      tab={tab}
      onTab={onTab}
      tabs={[
        { id: 'record', label: 'Refund record' },
        {
          id: 'approvals',
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
      ]}
    />
  );
}
