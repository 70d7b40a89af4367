import type { ChatView } from '@app/database';
import type { ChatDto } from './dto/chat.dto';

/** The contract's Chat object: optional fields are left out, never null, when unknown or not applicable. */
export function chatBody(chat: ChatView, now = new Date()): ChatDto {
  const muteEnds = chat.muteEndTime;
  const isMuted = chat.muted && (muteEnds === null || muteEnds > now);
  const contact = chat.contact;
  const lid = chat.isGroup ? undefined : (chat.lid ?? contact?.lid ?? undefined);
  return {
    id: chat.jid,
    ...(lid && lid !== chat.jid ? { lid } : {}),
    isGroup: chat.isGroup,
    isArchived: chat.archived,
    isPinned: chat.pinned,
    isMuted,
    ...(isMuted && muteEnds ? { muteEndTime: muteEnds.toISOString() } : {}),
    ...(contact?.pushName ? { pushName: contact.pushName } : {}),
    ...(contact?.businessName ? { businessName: contact.businessName } : {}),
    ...(contact?.fullName ? { fullName: contact.fullName } : {}),
    ...(chat.lastActivity ? { lastActivity: chat.lastActivity.toISOString() } : {}),
  };
}
