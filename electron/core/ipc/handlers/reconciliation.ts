import { scopeProfileId } from '../../../../shared/ipc/contract/scope';
import type { ReconciliationService } from '../../services/reconciliation/service';
import { refuseOtherProfile } from '../../services/scope';
import type { HandlerMap } from '../dispatcher';
import { auditEntryView } from '../../services/reconciliation/audit-view';

type ReconChannels = Extract<keyof HandlerMap, `reconciliation.${string}`>;

/** Thin: IPC shape → service call. The demo ledger comes from the host (it knows the Demo sandbox). */
export function reconciliationHandlers(
  recon: ReconciliationService,
  demoLedger: () => { name: string; text: string },
  /** Who a change of an exception or a sign-off is recorded as: the profile's operator name. */
  personFor: (profileId: string) => string,
): Pick<HandlerMap, ReconChannels> {
  // Every operation on a run names the profile the screen shows; a run of another profile is refused.
  const own = (input: { profileId: string; runId: string }) => {
    refuseOtherProfile('reconciliation run', recon.get(input.runId), input.profileId);
    return input.runId;
  };
  // Reading and closing a run also works on another desk's run published to the team database, when
  // the profile is for that run's account (services/reconciliation/team-runs.ts); steering one does not.
  const open = (input: { profileId: string; runId: string }) =>
    recon.team.access(input.runId, input.profileId);
  const openable = async (input: { profileId: string; runId: string }) => {
    await open(input);
    return input.runId;
  };
  return {
    'reconciliation.create': (input) => {
      // The run carried from must be this profile's too (the service checks account and period).
      if (input.carryForwardOf) own({ profileId: input.profileId, runId: input.carryForwardOf });
      return recon.create(input);
    },
    'reconciliation.addInput': (input) => {
      own(input);
      let counts = { row: 0, unusable: 0, cached: 0 };
      if (input.rows?.length) counts = recon.addInput(input.runId, 'row', input.rows);
      if (input.unusable?.length) counts = recon.addInput(input.runId, 'unusable', input.unusable);
      if (input.cached?.length) counts = recon.addInput(input.runId, 'cached', input.cached);
      return { rows: counts.row, unusable: counts.unusable, cached: counts.cached };
    },
    'reconciliation.start': (input) => recon.start(own(input)),
    'reconciliation.pause': (input) => recon.pause(own(input)),
    'reconciliation.resume': (input) => recon.resume(own(input)),
    'reconciliation.cancel': (input) => recon.cancel(own(input)),
    'reconciliation.get': async (input) => {
      const a = await open(input);
      return 'local' in a ? recon.get(input.runId) : recon.team.viewOf(a.published, a.profile);
    },
    'reconciliation.list': (input) => ({ runs: recon.list(scopeProfileId(input)) }),
    'reconciliation.report': async (input) => {
      const a = await open(input);
      return 'local' in a ? recon.report(input.runId) : recon.team.report(a);
    },
    'reconciliation.items': async (input) => {
      const a = await open(input);
      return 'local' in a
        ? recon.items(input.runId, input.offset, input.limit)
        : recon.team.items(input.runId, input.offset, input.limit);
    },
    'reconciliation.recheck': (input) => recon.recheck(own(input)),
    'reconciliation.demoLedger': () => demoLedger(),
    'reconciliation.exceptions': async (input) => {
      const runId = await openable(input);
      const list = await recon.exceptions.list(runId, input.filter ?? {});
      const seal = list.signOff ? await recon.exceptions.seal(runId) : {};
      return {
        ...list,
        ...(seal.contentHash ? { contentHash: seal.contentHash, intact: seal.intact ?? false } : {}),
      };
    },
    'reconciliation.updateException': async (input) =>
      recon.exceptions.update(
        await openable(input),
        input.exceptionId,
        {
          version: input.version,
          ...(input.state !== undefined ? { state: input.state } : {}),
          ...(input.owner !== undefined ? { owner: input.owner } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
        },
        personFor(input.profileId),
      ),
    'reconciliation.matchException': async (input) =>
      recon.exceptions.match(
        await openable(input),
        input.exceptionId,
        { version: input.version, kind: input.kind, id: input.id, reason: input.reason },
        personFor(input.profileId),
      ),
    'reconciliation.signOff': async (input) =>
      recon.exceptions.signOff(
        await openable(input),
        { comment: input.comment, open: input.open },
        personFor(input.profileId),
      ),
    'reconciliation.awaitingSignOff': async (input) => ({
      runs: await recon.team.awaiting(input.profileId),
    }),
    'reconciliation.audit': async (input) => ({
      entries: (await recon.exceptions.audit(await openable(input))).map(auditEntryView),
    }),
  };
}
