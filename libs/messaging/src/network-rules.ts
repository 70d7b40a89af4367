import { AppError, type ParticipantAction } from '@app/contracts';

/**
 * Rules of the messaging network that hold whichever driver carries a request out. Each driver checks them where the
 * real network would refuse (after its own checks of who may do what), so the sandbox answers as WhatsApp does.
 */

/** An account does not remove itself from a group: leaving is a request of its own. `self` is every id it goes by. */
export function refuseRemovingSelf(
  action: ParticipantAction,
  participants: readonly string[],
  self: readonly (string | undefined)[],
): void {
  if (action === 'remove' && participants.some((jid) => self.includes(jid)))
    throw AppError.validation('participants: use leave to leave the group yourself');
}

/** A new group's founding members besides its creator, who is in it by creating it; at least one is required. */
export function membersBesidesSelf(participants: readonly string[], self: readonly (string | undefined)[]): string[] {
  const people = participants.filter((jid) => !self.includes(jid));
  if (people.length === 0) throw AppError.validation('participants must name at least one person besides this account');
  return people;
}

/** An account does not block or unblock itself. */
export function refuseBlockingSelf(jid: string, self: readonly (string | undefined)[]): void {
  if (self.includes(jid)) throw AppError.validation('id must not be this account itself');
}

/** Only the author deletes a status post; other people's posts are only seen. */
export function refuseDeletingOthersStatus(ownPost: boolean): void {
  if (!ownPost) throw AppError.forbidden('only your own status posts can be deleted');
}
