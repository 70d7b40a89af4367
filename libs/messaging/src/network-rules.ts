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
