import { AppError } from '@app/contracts';

/** One participant's outcome of a membership change, as Baileys reports it: `status` is '200' or the error code. */
export interface ParticipantOutcome {
  status: string;
  jid: string | undefined;
}

type Change = 'add' | 'remove' | 'promote' | 'demote' | 'modify' | 'approve' | 'reject';

function reason(change: Change, status: string): string {
  switch (status) {
    case '401':
      return 'not allowed';
    case '403':
      // On add, 403 is the person's privacy setting: only their contacts may add them (the network offers an invite).
      return change === 'add' ? 'their privacy settings do not allow being added; send them an invite instead' : 'not allowed';
    case '404':
      if (change === 'add') return 'not on WhatsApp';
      return change === 'approve' || change === 'reject' ? 'no pending join request' : 'not in the group';
    case '408':
      return 'left the group recently and cannot be added back yet';
    case '409':
      return change === 'add' ? 'already in the group' : 'already so';
    default:
      return `refused with code ${status}`;
  }
}

/**
 * The network applies a membership change person by person and reports each outcome. The contract has no room for
 * a partial result, so any refusal is reported as the operation's error, naming who was refused and why; the
 * others' changes stand and arrive as `group` events.
 */
export function assertApplied(change: Change, outcomes: ParticipantOutcome[]): void {
  const refusedOnes = outcomes.filter((outcome) => outcome.status !== '200');
  if (refusedOnes.length === 0) return;
  const listed = refusedOnes.map((outcome) => `${outcome.jid ?? 'unknown'} (${reason(change, outcome.status)})`).join(', ');
  const rest = refusedOnes.length < outcomes.length ? '; the others were changed' : '';
  const message = `participants not changed: ${listed}${rest}`;
  if (refusedOnes.some((outcome) => outcome.status === '401' || outcome.status === '403')) throw AppError.forbidden(message);
  throw AppError.validation(message);
}
