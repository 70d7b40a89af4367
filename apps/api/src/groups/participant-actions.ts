import type { ParticipantAction } from '@app/contracts';

export type { ParticipantAction };
export const PARTICIPANT_ACTIONS: readonly ParticipantAction[] = ['add', 'remove', 'promote', 'demote'];
