import type { ChatPresenceState } from '@app/contracts';
import { normalise } from '../../events/normalise';
import type { BaileysEvents } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { fromSeconds } from './timestamps';

type PresenceData = BaileysEvents['presence.update']['presences'][string];

const CHAT_STATES: Partial<Record<PresenceData['lastKnownPresence'], ChatPresenceState>> = {
  composing: 'typing',
  recording: 'recording',
  paused: 'paused',
};

/**
 * `presence.update`: typing, recording and pausing in a chat (`chat_presence`), and a person coming online or going
 * offline (`user_presence`). Baileys turns a chat state `paused` into `available`; it is told apart from being online
 * by its shape: a presence stanza always sets `lastSeen` and `groupOnlineCount` (if only to undefined), a chat state
 * sets neither.
 */
export function mapPresence(batch: InboundBatch, presence: BaileysEvents['presence.update']): void {
  const { lib, who } = batch;
  for (const [participant, data] of Object.entries(presence.presences)) {
    if (who.isSelf(participant)) continue;
    const isChatState = !('lastSeen' in data) && !('groupOnlineCount' in data);
    const state = CHAT_STATES[data.lastKnownPresence] ?? (isChatState && data.lastKnownPresence === 'available' ? 'paused' : undefined);
    if (state) {
      batch.event(normalise.chatPresence({ chatId: who.chatId(presence.id), sender: who.actor(participant), state }));
      continue;
    }
    // A group's own presence (its online count) is nobody's.
    if (lib.isJidGroup(participant)) continue;
    const available = data.lastKnownPresence === 'available';
    batch.event(
      normalise.userPresence({ user: who.party(participant), available, lastSeen: available ? undefined : fromSeconds(data.lastSeen) }),
    );
  }
}
