import { AppError } from '../../../shared/domain/errors';

/**
 * Refuses to act on a record of another profile than the one the call names (a refund, a run, a
 * payment): the screen that asked shows another merchant, so acting would be acting for the wrong one.
 */
export function refuseOtherProfile(
  what: string,
  owner: { profileId: string; profileName?: string },
  profileId: string,
): void {
  if (owner.profileId === profileId) return;
  throw new AppError(
    'conflict',
    `That ${what} belongs to the profile “${owner.profileName ?? owner.profileId}”, not to the profile this screen shows. Switch to that profile to act on it.`,
    { details: { ownerProfileId: owner.profileId } },
  );
}
