/**
 * Team mode: runs other desks ran, as this desk opens them (issue 28 item 7). A desk holds the whole
 * record of its own runs only; another desk's ended run is read from the copy it published to the team
 * database (its facts, summary, statement and non-matched items, never rewritten), so the controller
 * works and signs exactly what the clerks worked, with the same figures and the same content hash.
 *
 * Profile ids are a desk's own: a published run is this desk's to open when the profile the screen shows
 * is for the run's ACCOUNT (environment, address, merchant and store: shared/domain/account.ts
 * sameAccount). A run this desk holds stays its profile's, as before.
 */
import { describeAccount, sameAccount } from '../../../../shared/domain/account';
import { AppError } from '../../../../shared/domain/errors';
import type { ReconItem } from '../../../../shared/recon/match';
import { refuseOtherProfile } from '../scope';
import type { CloseStore, PublishedRun, PublishedRunHeader } from './close-store';
import type { RunStore, StoredRun } from './run-store';
import type { RunProfile, RunView } from './service';

/** A published run as read back from the team database. */
export type PublishedCopy = PublishedRunHeader & Omit<PublishedRun, 'exceptionItems'>;

/** What a desk may open: its own run (its profile's), or another desk's published copy (its account's). */
export type RunAccess = { local: StoredRun } | { published: PublishedCopy; profile: RunProfile };

/** A run awaiting sign-off, as the controller's list shows it. */
export interface TeamRunHeader {
  runId: string;
  label: string;
  /** The profile name on the desk that ran it (profiles are a desk's own names). */
  profileName: string;
  period?: { from: string; to: string };
  createdAt: string;
  items: number;
  exceptionItems: number;
  publishedBy: string;
  publishedDesk: string;
  publishedAt: string;
  /** This desk ran it (it holds the whole record). */
  local: boolean;
}

const gone = () =>
  new AppError('not_found', 'That reconciliation run no longer exists. Import the ledger again.');

export function createTeamRuns(deps: {
  runs: RunStore;
  closing: CloseStore;
  profile: (profileId: string) => RunProfile | undefined;
}) {
  const { runs, closing } = deps;

  function profileOf(profileId: string): RunProfile {
    const p = deps.profile(profileId);
    if (!p)
      throw new AppError('not_found', 'That profile no longer exists. Choose a profile and start again.');
    return p;
  }

  /** Whether the published run is of the profile's account, and if not, why (in words). */
  function refusal(p: PublishedRunHeader, profile: RunProfile): AppError | undefined {
    if (!p.account)
      return new AppError(
        'conflict',
        `Run ${p.runId} was published without its account (it was made before Refund Desk recorded it): open it on the desk that ran it (${p.publishedDesk}).`,
      );
    if (!profile.account || !sameAccount(p.account, profile.account))
      return new AppError(
        'conflict',
        `Run ${p.runId} is of another account (${describeAccount(p.account)}), not of the profile “${profile.name}”${profile.account ? ` (${describeAccount(profile.account)})` : ''}. Choose a profile for that account to open it.`,
        { details: { account: p.account } },
      );
    return undefined;
  }

  /**
   * The run, if the profile may open it: this desk's own (of that very profile), else the team's
   * published copy of that profile's account. Anything else is refused in words.
   */
  async function access(runId: string, profileId: string): Promise<RunAccess> {
    const local = runs.get(runId);
    if (local) {
      refuseOtherProfile('reconciliation run', local.facts, profileId);
      return { local };
    }
    if (!closing.team) throw gone();
    const profile = profileOf(profileId);
    const published = await closing.team.readRun(runId);
    if (!published) throw gone();
    const refused = refusal(published, profile);
    if (refused) throw refused;
    return { published, profile };
  }

  /** A published run as the run screens show one: ended, with its own figures, shown under `profile`. */
  function viewOf(p: PublishedCopy, profile: RunProfile): RunView {
    const f = p.facts;
    return {
      runId: f.runId,
      profileId: profile.id,
      profileName: profile.name,
      label: f.label,
      createdAt: f.createdAt,
      ...(f.endedAt ? { endedAt: f.endedAt } : {}),
      options: f.options,
      dataRows: f.file.dataRows,
      progress: {
        state: f.endedAs ?? 'completed',
        phase: 'done',
        done: f.lookups.asked,
        total: f.lookups.asked,
        failed: f.lookups.failed,
      },
      counts: p.summary.counts,
      usedCache: f.usedCache,
      offline: f.offline,
      twoWay: f.listing.state === 'complete',
      ...(f.recheckOf ? { recheckOf: f.recheckOf } : {}),
      ...(f.carryForwardOf ? { carryForwardOf: f.carryForwardOf } : {}),
      published: {
        by: p.publishedBy,
        desk: p.publishedDesk,
        at: p.publishedAt,
        profileName: p.profileName,
        heldItems: p.exceptionItems,
      },
    };
  }

  async function publishedItems(runId: string): Promise<ReconItem[]> {
    return (await closing.readExceptionItems(runId)).map((o) => o.item);
  }

  return {
    access,
    viewOf,

    /**
     * Runs awaiting sign-off that the profile may open: its own runs on this desk, and other desks'
     * runs of its account. Newest first; none on a single desk.
     */
    async awaiting(profileId: string): Promise<TeamRunHeader[]> {
      if (!closing.team) return [];
      const profile = profileOf(profileId);
      const all = await closing.team.awaitingSignOff();
      return all.flatMap((h): TeamRunHeader[] => {
        const local = runs.get(h.runId);
        const mine = local ? local.facts.profileId === profileId : !refusal(h, profile);
        if (!mine) return [];
        return [
          {
            runId: h.runId,
            label: h.label,
            profileName: h.profileName,
            ...(h.period ? { period: h.period } : {}),
            createdAt: h.createdAt,
            items: h.items,
            exceptionItems: h.exceptionItems,
            publishedBy: h.publishedBy,
            publishedDesk: h.publishedDesk,
            publishedAt: h.publishedAt,
            local: local !== undefined,
          },
        ];
      });
    },

    /** The published copy's report header: its own facts, summary and statement, as published. */
    report(a: { published: PublishedCopy; profile: RunProfile }) {
      const p = a.published;
      return {
        run: viewOf(p, a.profile),
        facts: p.facts,
        summary: p.summary,
        statement: p.statement,
        items: p.items,
      };
    },

    /** The rows this desk can show of a published run: its non-matched items (the matched stay where it ran). */
    async items(runId: string, offset: number, limit: number) {
      const all = await publishedItems(runId);
      const items = all.slice(offset, offset + limit);
      const next = offset + items.length;
      return { items, total: all.length, nextOffset: next < all.length ? next : null };
    },
  };
}
export type TeamRuns = ReturnType<typeof createTeamRuns>;
