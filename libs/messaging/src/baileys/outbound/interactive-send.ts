import type { InteractiveTextFallback } from '@app/config';
import type { OutboundMessage } from '@app/contracts';
import type { SentMessage } from '../../driver';
import type { BaileysContext } from '../baileys-context';
import { interactiveMessage, interactiveNodes } from './interactive-message';
import { keepSent } from './network-store';
import { ownMessage } from './own-message';
import { fallbackMessageId, fallbackText } from './text-fallback';

/** `awaited`: the send waits for this stanza's ack (the message's own id); a fallback copy's refusal is reported as it comes. */
async function sendText(context: BaileysContext, chatJid: string, text: string, messageId: string, awaited: boolean) {
  context.sent?.add(messageId);
  if (awaited) context.acks?.expect(messageId, chatJid);
  const sent = await context.socket.sendMessage(chatJid, { text, linkPreview: null }, { messageId });
  if (sent) await keepSent(context, sent);
  return sent;
}

/**
 * Whether a part of the message went out already. Its kept copy is the record: `keepSent` writes it as soon as the
 * stanza is written, so a retry after a later part failed (the text copy lost to a closed link) finds the earlier
 * parts and sends only what is missing. A part whose copy could not be kept is sent again (the write is logged).
 */
async function wentOut(context: BaileysContext, chatJid: string, id: string): Promise<boolean> {
  return (await context.messages.find(context.instanceId, id, chatJid)) !== null;
}

/**
 * Buttons and lists. `sendMessage` cannot send them (it drops buttons, refuses `interactiveMessage`), so the message
 * is generated and relayed with the nodes that make clients render it. Rendering is best effort, so depending on
 * configuration a plain-text copy follows (`after`) or goes out alone (`instead`, the event then shows that text).
 * With `after` the message is two stanzas, each relayed at most once: a retry skips the parts that went out.
 */
export async function sendInteractive(
  context: BaileysContext,
  message: OutboundMessage<'buttons' | 'list'>,
  fallback: InteractiveTextFallback,
): Promise<SentMessage> {
  if (fallback === 'instead') {
    const sent = await sendText(context, message.chatJid, fallbackText(message), message.id, true);
    return sent ? { ownMessage: ownMessage(context, sent) } : {};
  }
  const now = new Date();
  const generated = context.lib.generateWAMessageFromContent(
    message.chatJid,
    { interactiveMessage: interactiveMessage(message) },
    // As sendMessage does: the account's device JID is the participant of our group messages.
    { userJid: context.socket.user?.id ?? context.selfJid, messageId: message.id, timestamp: now },
  );
  // A retry's buttons went out on an earlier attempt: their ack, if this session saw it, is still the send's outcome.
  const retried = await wentOut(context, message.chatJid, message.id);
  if (!retried) {
    context.sent?.add(message.id);
    context.acks?.expect(message.id, message.chatJid);
    await context.socket.relayMessage(message.chatJid, generated.message ?? {}, {
      messageId: message.id,
      additionalNodes: interactiveNodes(message.chatJid, now, message.payload.aiLabel === true),
    });
    await keepSent(context, generated);
  }
  if (fallback === 'after') {
    const copyId = fallbackMessageId(message.id);
    if (!(retried && (await wentOut(context, message.chatJid, copyId)))) {
      await sendText(context, message.chatJid, fallbackText(message), copyId, false);
    }
  }
  const unknownAck = retried && context.acks?.knows(message.id) !== true;
  return {
    ownMessage: ownMessage(context, generated),
    ...(unknownAck ? { unconfirmed: 'the buttons went out on an earlier attempt whose acknowledgement this session did not see' } : {}),
  };
}
